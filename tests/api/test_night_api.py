"""The hand-worked Friday night of ``tests/services/test_night.py``, played through the API.

Bob enters the deals from his phone, Alice (the owner) voids the one entered twice. The
expected numbers are that test's, worked out by hand from ``tests/services/hands.py``:
per deal, then as totals after each deal (``RUNNING``) and pair by pair (``PAIRS``).
"""

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.serializers import ModelSerializer
from rest_framework.test import APIClient

from games import reports
from games.api.serializers import DealSerializer
from games.models import Deal, LedgerEntry, Session
from tests.api.conftest import API
from tests.services.hands import deal, fouled
from tests.services.test_night import PAIRS, RUNNING

D = Decimal
NAMES = ("Ann", "Bob", "Cy", "Di")


def start(as_bob: APIClient, group_pk: int) -> int:
    response = as_bob.post(
        f"{API}/sessions/",
        {"group": group_pk, "players": list(NAMES), "place": "Ann's kitchen"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["rules"]["preset"] == "classic-1-6"
    session_pk: int = response.json()["id"]
    return session_pk


def play(as_alice: APIClient, as_bob: APIClient, session_pk: int) -> None:
    url = f"{API}/sessions/{session_pk}/deals/"

    def record(players: list[dict[str, Any]]) -> int:
        response = as_bob.post(url, {"players": players}, format="json")
        assert response.status_code == 201, response.content
        number: int = response.json()["number"]
        return number

    record(deal(Ann="A", Bob="B", Cy="C", Di="D"))
    record(deal(Bob="A", Cy="B", Di="C", Ann="D"))
    record(deal(Cy="A", Di="B", Ann="C", Bob="D"))
    record(deal(Di="A", Ann="B", Bob="C", Cy="D"))
    foul = deal(Ann="A", Bob="B", Cy="C", Di="D")
    foul[1].update(fouled("B"))
    record(foul)
    record([*deal(Bob="A", Cy="B", Ann="D"), {"name": "Di", "surrender": True}])
    natural = deal(Cy="A", Di="B", Ann="C", Bob="D")
    natural[3]["natural"] = "six_pairs"
    record(natural)
    wrong = record(deal(Ann="A", Bob="B", Cy="C", Di="D"))
    edited = as_bob.put(
        f"{url}{wrong}/",
        {"players": deal(Di="A", Ann="B", Bob="C", Cy="D"), "reason": "hands mixed up"},
        format="json",
    )
    assert edited.status_code == 200, edited.content
    twice = record(deal(Bob="A", Cy="B", Di="C", Ann="D"))
    voided = as_alice.post(f"{url}{twice}/void/", {"reason": "entered twice"}, format="json")
    assert voided.status_code == 200, voided.content
    record(deal(Ann="A", Cy="B", Bob="C", Di="D"))
    record(deal(Bob="A", Ann="B", Di="C", Cy="D"))
    record(deal(Di="A", Bob="B", Ann="C", Cy="D"))


@pytest.fixture
def night(group: Any, players: Any, as_alice: APIClient, as_bob: APIClient) -> list[Any]:
    session_pk = start(as_bob, group.pk)
    play(as_alice, as_bob, session_pk)
    response = as_bob.get(f"{API}/sessions/{session_pk}/deals/")
    assert response.status_code == 200
    deals: list[Any] = response.json()["results"]
    return deals


def test_twelve_deals_numbered_with_the_ninth_void(night: list[Any]) -> None:
    assert [(d["number"], d["status"]) for d in night] == [
        (n, "void" if n == 9 else "active") for n in range(1, 13)
    ]


def test_every_active_deal_scores_as_worked_out_by_hand(night: list[Any]) -> None:
    # RUNNING holds the totals after each active deal; each deal's own units are the steps.
    before = dict.fromkeys(NAMES, D(0))
    active = [d for d in night if d["status"] == "active"]
    assert [d["number"] for d in active] == [number for number, _ in RUNNING]
    for stored, (number, after) in zip(active, RUNNING, strict=True):
        got = {p["name"]: D(p["units"]) for p in stored["result"]["players"]}
        assert got == {n: D(after[n]) - before[n] for n in NAMES}, number
        # Half a euro a unit.
        money = {p["name"]: D(p["money"]) for p in stored["result"]["players"]}
        assert money == {n: got[n] / 2 for n in NAMES}, number
        before = {n: D(after[n]) for n in NAMES}


def test_the_foul_the_surrender_and_the_natural(night: list[Any]) -> None:
    def player(number: int, name: str) -> dict[str, Any]:
        result = night[number - 1]["result"]
        found: dict[str, Any] = next(p for p in result["players"] if p["name"] == name)
        return found

    assert player(5, "Bob")["fouled"] is True
    assert player(6, "Di")["surrendered"] is True
    assert player(7, "Bob")["natural"] == "six_pairs"


def test_the_edit_and_the_void_keep_their_history(night: list[Any]) -> None:
    edited, void = night[7], night[8]

    assert (edited["version"], [r["action"] for r in edited["revisions"]]) == (2, ["edit"])
    assert edited["revisions"][0]["reason"] == "hands mixed up"
    before = {p["name"]: p["units"] for p in edited["revisions"][0]["result"]["players"]}
    assert before == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert (void["version"], void["revisions"][0]["action"]) == (2, "void")
    assert void["revisions"][0]["changed_by"] == "alice"


def test_the_ledger_sums_to_the_hand_worked_balances(night: list[Any]) -> None:
    session = Session.objects.get(pk=night[0]["session"])

    assert LedgerEntry.objects.filter(deal__session=session).count() == 11 * 6
    balances = reports.balances(session)
    assert {n: b.units for n, b in balances.items()} == {
        "Ann": D("7.5"),
        "Bob": D("-2.5"),
        "Cy": D("9.5"),
        "Di": D("-14.5"),
    }
    assert {n: b.money for n, b in balances.items()} == {
        "Ann": D("3.75"),
        "Bob": D("-1.25"),
        "Cy": D("4.75"),
        "Di": D("-7.25"),
    }
    matrix = reports.pair_matrix(session)
    for (a, b), units in PAIRS.items():
        assert matrix[a][b].units == D(units), (a, b)


def test_the_night_closes_and_stays_as_it_was(
    night: list[Any], as_bob: APIClient, as_alice: APIClient
) -> None:
    session_pk = night[0]["session"]
    closed = as_bob.post(f"{API}/sessions/{session_pk}/close/")
    assert closed.status_code == 200

    late = as_bob.post(
        f"{API}/sessions/{session_pk}/deals/",
        {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")},
        format="json",
    )

    assert late.status_code == 409
    assert as_alice.get(f"{API}/sessions/{session_pk}/deals/").json()["results"] == night


def test_deals_render_as_the_generic_serializer_would(night: list[Any]) -> None:
    """DealSerializer reads its fields straight off the row; DRF's field-by-field rendering
    of the same declared fields must give the same answer for every kind of deal."""
    deals = Deal.objects.filter(pk__in=[d["id"] for d in night]).order_by("number")
    assert {d.status for d in deals} == {"active", "void"}
    assert any(d.version > 1 for d in deals)
    for stored in deals:
        fast = DealSerializer(stored)
        assert fast.data == ModelSerializer.to_representation(fast, stored), stored.number
