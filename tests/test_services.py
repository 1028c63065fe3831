import os

import pytest
from django.db import connection
from kombu import Connection


@pytest.mark.django_db
def test_database_answers() -> None:
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postg") else "sqlite"

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert connection.vendor == expected


@pytest.mark.services
def test_broker_round_trip(broker_url: str) -> None:
    with Connection(broker_url) as conn:
        queue = conn.SimpleQueue("scorekeeper-test-round-trip")
        try:
            queue.clear()
            queue.put({"ping": 1})
            message = queue.get(timeout=5)
            message.ack()
        finally:
            queue.close()

    assert message.payload == {"ping": 1}
