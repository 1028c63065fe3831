"""The deal form records a deal in few database round trips: the signed-in
session and its user (Django's), the session with the role, seats and stakes, and one
transaction for the writes (see tests/api/test_deal_round_trips.py)."""

from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from games import tasks
from games.models import Deal, LedgerEntry, Session
from tests.web.forms import deal_form


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_the_form_records_a_deal_in_three_reads_and_one_transaction(
    as_bob: Client, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[Any] = []
    monkeypatch.setattr(tasks.review_deal, "delay", sent.append)
    url = f"/sessions/{session.pk}/deal/"
    as_bob.post(url, {**deal_form(Ann="A", Bob="B", Cy="C", Di="D"), "idempotency_key": "k0"})
    with CaptureQueriesContext(connection) as queries:
        answer = as_bob.post(
            url, {**deal_form(Ann="B", Bob="A", Cy="C", Di="D"), "idempotency_key": "k1"}
        )

    assert answer.status_code == 302 and answer["Location"].endswith("?saved=2#saved")
    # The browser's session, its user, the session with its deal table; then BEGIN, the
    # next number, the key's deal, the deal, its ledger rows, COMMIT (on both databases).
    assert len(queries.captured_queries) <= 9, queries.captured_queries
    stored = Deal.objects.get(session=session, number=2)
    assert stored.idempotency_key == "k1"
    assert LedgerEntry.objects.filter(deal=stored).count() == 6
    assert len(sent) == 2


def test_a_stranger_still_gets_a_404(as_mallory: Client, session: Session) -> None:
    assert as_mallory.get(f"/sessions/{session.pk}/deal/").status_code == 404
    assert as_mallory.post(f"/sessions/{session.pk}/deal/", {}).status_code == 404
