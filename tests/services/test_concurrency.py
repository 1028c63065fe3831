"""Several phones at one table: concurrent deals are neither lost nor numbered twice."""

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from games import reports, services
from games.models import Deal, LedgerEntry, Session
from tests.services.hands import deal

# Shared with the API's concurrency tests.
POSTGRES_ONLY = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: SQLite has one writer at a time and no row locks "
        "(CI runs this with DATABASE_URL pointing at PostgreSQL)",
    ),
    pytest.mark.django_db(transaction=True),
]
pytestmark = POSTGRES_ONLY

THREADS = 8
DEALS_EACH = 5


def run_together(work: Callable[[int], Any]) -> list[BaseException]:
    """Run ``work(k)`` in THREADS threads released at once; each closes its connection."""
    start = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            start.wait()
            work(k)
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_concurrent_deals_are_all_kept_with_distinct_numbers(
    session: Session, bob_user: User
) -> None:
    def enter_deals(k: int) -> None:
        for _ in range(DEALS_EACH):
            services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)

    assert run_together(enter_deals) == []

    numbers = sorted(Deal.objects.filter(session=session).values_list("number", flat=True))
    assert numbers == list(range(1, THREADS * DEALS_EACH + 1))
    assert LedgerEntry.objects.filter(deal__session=session).count() == 6 * len(numbers)
    # Hand A loses 8 a deal.
    assert reports.balances(session)["Ann"].units == -8 * len(numbers)


def test_a_retried_request_is_recorded_once_under_concurrency(
    session: Session, bob_user: User
) -> None:
    pks: list[int] = []

    def post_same(k: int) -> None:
        recorded = services.record_deal(
            session,
            deal(Ann="A", Bob="B", sat_out=("Cy", "Di")),
            bob_user,
            idempotency_key="phone-2:1",
        )
        pks.append(recorded.pk)

    assert run_together(post_same) == []

    assert len(set(pks)) == 1
    assert Deal.objects.filter(session=session).count() == 1
