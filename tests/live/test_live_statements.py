"""What a live deal costs the database: SQL statements counted around the real HTTP
requests (the host's open, each seat phone's submit with its token and device, the
submit that records), the announcement each one sends included (the test client runs
the work kept for after the response before it returns)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Deal, SeatLink, Session
from tests.api.conftest import client_for
from tests.live.helpers import hand, seat_token

# Committed for real, as in production: no test transaction adds its savepoints, and what
# waits for the commit (the announcements) runs and is counted.
pytestmark = pytest.mark.django_db(transaction=True)

# The targets of issue 31.
SUBMIT = 6
RECORDING_SUBMIT = 10
DEAL = 30


def _phone(session: Session, seat: int) -> APIClient:
    """Seat ``seat``'s phone: its link's token and the phone's own secret."""
    client = APIClient()
    client.credentials(
        HTTP_X_SEAT_TOKEN=seat_token(session, seat), HTTP_X_SEAT_DEVICE=f"phone-{seat}"
    )
    return client


# A transaction's own BEGIN and COMMIT, which Django logs too: not counted as statements
# (each request is held to one transaction instead); a savepoint is counted.
ENDS = ("BEGIN", "COMMIT", "ROLLBACK")


@contextmanager
def _counted(into: dict[str, int], kind: str) -> Iterator[None]:
    with CaptureQueriesContext(connection) as queries:
        yield
    sql = [query["sql"] for query in queries.captured_queries]
    into[kind] = sum(1 for text in sql if not text.startswith(ENDS))
    assert sum(1 for text in sql if text.startswith("BEGIN")) <= 1, sql


def _submit(phone: APIClient, session: Session, seat: int, key: str) -> Any:
    return phone.post(
        f"/api/v1/sessions/{session.pk}/live/seats/{seat}/submit/",
        {"entry": hand(seat)},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def _play(session: Session, host: APIClient, phones: dict[int, APIClient]) -> dict[str, int]:
    """One live deal: the host opens it, seats 1 to 4 submit (4 records); the count of
    each request."""
    counts: dict[str, int] = {}
    with _counted(counts, "open"):
        opened = host.post(f"/api/v1/sessions/{session.pk}/live/")
    assert opened.status_code == 201
    live = opened.json()["live"]["id"]
    for seat in (1, 2, 3, 4):
        # The seat's phone was last heard from long enough ago that this request writes
        # its presence (a worst case: a ping within 5 s writes nothing).
        SeatLink.objects.filter(session=session, revoked_at=None).update(
            seen_at=timezone.now() - timedelta(seconds=6)
        )
        with _counted(counts, f"submit {seat}"):
            answer = _submit(phones[seat], session, seat, f"{live}:{seat}")
        assert answer.status_code == 200, answer.json()
    assert answer.json()["live"]["status"] == "recorded"
    return counts


@pytest.fixture
def seated(
    session: Session, ann_user: User, settings: Any
) -> tuple[APIClient, dict[int, APIClient]]:
    """The host (Ann, with her API token) and the four phones, each having claimed its
    seat by reading the table once. Reviews go to a broker, as in production, rather
    than running inside the request."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    host = client_for(ann_user)
    phones = {seat: _phone(session, seat) for seat in (1, 2, 3, 4)}
    for phone in phones.values():
        assert phone.get(f"/api/v1/sessions/{session.pk}/live/").status_code == 200
    return host, phones


def test_a_live_deal_stays_within_its_statements(
    session: Session, seated: tuple[APIClient, dict[int, APIClient]]
) -> None:
    host, phones = seated
    _play(session, host, phones)  # the first deal: the process's caches warm up
    counts = _play(session, host, phones)
    print(counts)

    assert [counts[f"submit {seat}"] <= SUBMIT for seat in (1, 2, 3)] == [True] * 3, counts
    assert counts["submit 4"] <= RECORDING_SUBMIT, counts
    assert sum(counts.values()) <= DEAL, counts
    assert Deal.objects.filter(session=session).count() == 2


def test_a_replayed_submit_stays_within_a_submits_statements(
    session: Session, seated: tuple[APIClient, dict[int, APIClient]]
) -> None:
    host, phones = seated
    live = host.post(f"/api/v1/sessions/{session.pk}/live/").json()["live"]["id"]
    first = _submit(phones[2], session, 2, f"{live}:2")
    counts: dict[str, int] = {}

    with _counted(counts, "again"):
        again = _submit(phones[2], session, 2, f"{live}:2")

    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json()["live"]["version"] == first.json()["live"]["version"], counts
    assert counts["again"] <= SUBMIT, counts
    print(counts)
