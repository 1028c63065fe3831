"""Recording a deal costs few database round trips.

Counted with Django's CaptureQueriesContext, which logs every statement the request sends,
BEGIN, COMMIT and SAVEPOINT included (Django logs those too). Not counted: the empty query
psycopg's pool checks a connection with as it hands it out (below Django; tests/deploy/
test_postgres_options.py), and a device token's ``last_used`` (written at most once a
minute per token: the warm-up request takes it).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import reports, services, tasks
from games.models import Deal, Group, LedgerEntry, Player, Session
from games.services.deals import ledger_entries
from tests.api.conftest import API
from tests.services.hands import deal

POSTGRES = "postgresql" in settings.DATABASES["default"]["ENGINE"]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Deal ids whose review was handed to the broker (nothing is actually sent)."""
    calls: list[int] = []
    monkeypatch.setattr(tasks.review_deal, "delay", calls.append)
    return calls


def post(client: APIClient, session: Session, players: list[Any], key: str | None = None) -> Any:
    headers = {} if key is None else {"Idempotency-Key": key}
    return client.post(
        f"{API}/sessions/{session.pk}/deals/", {"players": players}, format="json", headers=headers
    )


def four() -> list[Any]:
    return deal(Ann="A", Bob="B", Cy="C", Di="D")


def counted(client: APIClient, session: Session, players: list[Any], key: str | None) -> Any:
    with CaptureQueriesContext(connection) as queries:
        answer = post(client, session, players, key)
    assert answer.status_code == 201, answer.content
    return answer, [q["sql"] for q in queries.captured_queries]


@pytest.mark.skipif(not POSTGRES, reason="the joint read of the token and session is PostgreSQL's")
@pytest.mark.django_db(transaction=True)  # autocommit, as a server runs
@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
@pytest.mark.parametrize("key", [None, "phone-1:7"])
def test_recording_a_deal_takes_one_read_and_one_transaction_on_postgresql(
    as_bob: APIClient,
    session: Session,
    group: Group,
    players: dict[str, Player],
    alice: Any,
    sent: list[int],
    key: str | None,
) -> None:
    services.set_pair_stake(group, players["Ann"], players["Cy"], 3, by=alice)
    post(as_bob, session, four())  # warm-up: the token's last_used is written
    answer, sql = counted(as_bob, session, four(), key)

    # The token (with its user) and the session (with the role, seats and stakes) in one
    # statement; then one transaction: the next number (locking the session), the key's
    # deal when a key is sent, the deal, its ledger rows (one statement for all six).
    words = [s.split(None, 1)[0].upper() for s in sql]
    read, *write = words
    writes = ["BEGIN", "UPDATE", *(["SELECT"] if key else []), "INSERT", "INSERT", "COMMIT"]
    assert (read, write) == ("SELECT", writes), sql
    assert len(sql) == (7 if key else 6)
    assert "games_devicetoken" in sql[0] and "games_membership" in sql[0]
    assert sql[-3].startswith('INSERT INTO "games_deal"')
    assert sql[-2].startswith('INSERT INTO "games_ledgerentry"')
    assert not any(s.upper().startswith(("SAVEPOINT", "ROLLBACK")) for s in words)
    body = answer.json()
    assert body["number"] == 2
    # The review went to the broker once the response was closed, not before.
    assert sent == [Deal.objects.get(session=session, number=1).pk, body["id"]]
    stored = Deal.objects.get(pk=body["id"])
    assert stored.idempotency_key == key
    assert stored.request["stakes"]["pairs"]
    rows = sorted(
        (e.player_a_id, e.player_b_id, e.units, e.money)
        for e in LedgerEntry.objects.filter(deal=stored)
    )
    expected = sorted(
        (e.player_a_id, e.player_b_id, e.units, e.money)
        for e in ledger_entries(stored, stored.result, session.seated())
    )
    assert rows == expected and len(rows) == 6
    session.refresh_from_db()
    assert session.last_deal_number == 2


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_round_trips_on_any_database(as_bob: APIClient, session: Session, sent: list[int]) -> None:
    """The same read and transaction on any database."""
    post(as_bob, session, four())
    _, sql = counted(as_bob, session, four(), "k")
    assert len(sql) <= 7, sql


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_the_write_keeps_idempotency_and_refusals(
    as_bob: APIClient, session: Session, alice: Any, sent: list[int]
) -> None:
    first = post(as_bob, session, four(), "same")
    again = post(as_bob, session, four(), "same")
    other = post(as_bob, session, deal(Ann="B", Bob="A", Cy="C", Di="D"), "same")
    bad = post(as_bob, session, [{"name": "Ann", "front": "2h"}], "new")

    assert (first.status_code, again.status_code, other.status_code) == (201, 200, 409)
    assert again.json()["id"] == first.json()["id"]
    assert bad.status_code == 400
    assert Deal.objects.filter(session=session).count() == 1
    assert LedgerEntry.objects.filter(deal__session=session).count() == 6
    services.close_session(session, alice)
    closed = post(as_bob, session, four(), "later")
    assert closed.status_code == 409
    replayed = post(as_bob, session, four(), "same")  # a retry after the close
    assert replayed.status_code == 200 and replayed.json()["id"] == first.json()["id"]
    assert Session.objects.get(pk=session.pk).last_deal_number == 1


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_balances_equal_the_sum_of_results(
    as_bob: APIClient,
    session: Session,
    group: Group,
    players: dict[str, Player],
    alice: Any,
    sent: list[int],
) -> None:
    services.set_pair_stake(group, players["Bob"], players["Di"], 2, by=alice)
    rng = random.Random(18)
    names = ["Ann", "Bob", "Cy", "Di"]
    hands = "ABCD"
    for _ in range(12):
        order = rng.sample(hands, 4)
        assert (
            post(as_bob, session, deal(**dict(zip(names, order, strict=True)))).status_code == 201
        )
    totals: dict[str, Decimal] = dict.fromkeys(names, Decimal(0))
    for stored in Deal.objects.filter(session=session):
        for player in stored.result["players"]:
            totals[player["name"]] += Decimal(player["money"])
    balances = reports.balances(session)
    assert {name: balances[name].money for name in names} == totals
