"""Several phones posting deals to one session at once, through the API (PostgreSQL only)."""

from collections import Counter
from typing import Any

from django.contrib.auth.models import User

from games import reports
from games.models import Deal, LedgerEntry, Session
from tests.api.conftest import API, client_for
from tests.services.hands import deal
from tests.services.test_concurrency import POSTGRES_ONLY, THREADS, run_together

pytestmark = POSTGRES_ONLY

DEALS_EACH = 4


def test_parallel_requests_keep_every_deal_with_distinct_numbers(
    session: Session, bob: User
) -> None:
    url = f"{API}/sessions/{session.pk}/deals/"
    phones = [client_for(bob) for _ in range(THREADS)]
    statuses: list[int] = []

    def phone(k: int) -> None:
        for _ in range(DEALS_EACH):
            response = phones[k].post(
                url, {"players": deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))}, format="json"
            )
            statuses.append(response.status_code)

    assert run_together(phone) == []

    assert statuses == [201] * THREADS * DEALS_EACH
    numbers = sorted(Deal.objects.filter(session=session).values_list("number", flat=True))
    assert numbers == list(range(1, THREADS * DEALS_EACH + 1))
    assert LedgerEntry.objects.filter(deal__session=session).count() == len(numbers)
    # Hand A loses 6 to hand B every deal (B scoops).
    assert reports.balances(session)["Ann"].units == -6 * len(numbers)


def test_a_retried_post_racing_itself_records_one_deal(session: Session, bob: User) -> None:
    url = f"{API}/sessions/{session.pk}/deals/"
    phones = [client_for(bob) for _ in range(THREADS)]
    answers: list[tuple[int, Any]] = []

    def retry(k: int) -> None:
        response = phones[k].post(
            url,
            {"players": deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))},
            format="json",
            headers={"Idempotency-Key": "phone-3:42"},
        )
        answers.append((response.status_code, response.json()["id"]))

    assert run_together(retry) == []

    assert Counter(code for code, _ in answers) == {201: 1, 200: THREADS - 1}
    assert len({pk for _, pk in answers}) == 1
    assert Deal.objects.filter(session=session).count() == 1
