"""A Friday night of classic-1-6 at Ann's, recorded through the services.

Every expected number below is worked out by hand from ``hands.py`` (the table of what
each hand wins from each other) and the rule book: a foul pays 3 to each live player, a
surrender pays 2.5 to each other player, six pairs collects 3 from everyone and nothing
else passes between its holder and the others. The group's unit is worth 0.5 EUR.
"""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.models import Deal, DealRevision, LedgerEntry, Session
from games.reports.ledger import running_sums
from tests.services.hands import HANDS, deal, fouled

D = Decimal

# After each active deal (deal 9 is voided), everyone's units. Per deal:
#  1 A=Ann B=Bob C=Cy D=Di                      Ann -8   Bob +4   Cy +3   Di +1
#  2 A=Bob B=Cy C=Di D=Ann                      Ann +1   Bob -8   Cy +4   Di +3
#  3 A=Cy B=Di C=Ann D=Bob                      Ann +3   Bob +1   Cy -8   Di +4
#  4 A=Di B=Ann C=Bob D=Cy                      Ann +4   Bob +3   Cy +1   Di -8
#  5 as 1, Bob fouls: pays 3 to each            Ann +1   Bob -9   Cy +5   Di +3
#    (Ann: +3 -1 -1; Cy: +3 +1 +1; Di: +3 +1 -1)
#  6 as 2, Di surrenders: pays 2.5 to each      Ann +4.5 Bob -4.5 Cy +7.5 Di -7.5
#    (Ann: +1 +1 +2.5; Bob: -1 -6 +2.5; Cy: +6 -1 +2.5)
#  7 as 3, Bob declares six pairs: 3 from each  Ann -1   Bob +9   Cy -10  Di +2
#    (Ann: -3 +1 +1; Cy: -3 -1 -6; Di: -3 -1 +6)
#  8 entered as 1, corrected to 4               Ann +4   Bob +3   Cy +1   Di -8
#  9 as 2, then voided                          nothing
# 10 A=Ann B=Cy C=Bob D=Di                      Ann -8   Bob +3   Cy +4   Di +1
# 11 A=Bob B=Ann C=Di D=Cy                      Ann +4   Bob -8   Cy +1   Di +3
# 12 A=Di B=Bob C=Ann D=Cy                      Ann +3   Bob +4   Cy +1   Di -8
RUNNING = [
    (1, {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}),
    (2, {"Ann": "-7", "Bob": "-4", "Cy": "7", "Di": "4"}),
    (3, {"Ann": "-4", "Bob": "-3", "Cy": "-1", "Di": "8"}),
    (4, {"Ann": "0", "Bob": "0", "Cy": "0", "Di": "0"}),
    (5, {"Ann": "1", "Bob": "-9", "Cy": "5", "Di": "3"}),
    (6, {"Ann": "5.5", "Bob": "-13.5", "Cy": "12.5", "Di": "-4.5"}),
    (7, {"Ann": "4.5", "Bob": "-4.5", "Cy": "2.5", "Di": "-2.5"}),
    (8, {"Ann": "8.5", "Bob": "-1.5", "Cy": "3.5", "Di": "-10.5"}),
    (10, {"Ann": "0.5", "Bob": "1.5", "Cy": "7.5", "Di": "-9.5"}),
    (11, {"Ann": "4.5", "Bob": "-6.5", "Cy": "8.5", "Di": "-6.5"}),
    (12, {"Ann": "7.5", "Bob": "-2.5", "Cy": "9.5", "Di": "-14.5"}),
]

# What the first won from the second over the night, pair by pair, deals 1-8 and 10-12:
# Ann-Bob -6 +1 +1 -1 +3 +1 -3 -1 -1 +6 +1 = +1
# Ann-Cy  -1 +1 +1 -1 -1 +1 +1 -1 -6 -1 +1 = -6
# Ann-Di  -1 -1 +1 +6 -1 +2.5 +1 +6 -1 -1 +1 = +12.5
# Bob-Cy  -1 -6 +1 +1 -3 -6 +3 +1 +1 -1 -1 = -11
# Bob-Di  -1 -1 +1 +1 -3 +2.5 +3 +1 +1 -1 +6 = +9.5
# Cy-Di   +1 -1 -6 +1 +1 +2.5 -6 +1 -1 -1 +1 = -7.5
PAIRS = {
    ("Ann", "Bob"): "1",
    ("Ann", "Cy"): "-6",
    ("Ann", "Di"): "12.5",
    ("Bob", "Cy"): "-11",
    ("Bob", "Di"): "9.5",
    ("Cy", "Di"): "-7.5",
}


def play_the_night(session: Session, ann_user: User, bob_user: User) -> None:
    record = services.record_deal
    record(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)
    record(session, deal(Bob="A", Cy="B", Di="C", Ann="D"), bob_user)
    record(session, deal(Cy="A", Di="B", Ann="C", Bob="D"), bob_user)
    record(session, deal(Di="A", Ann="B", Bob="C", Cy="D"), bob_user)
    foul = deal(Ann="A", Bob="B", Cy="C", Di="D")
    foul[1].update(fouled("B"))
    record(session, foul, bob_user)
    surrender = [*deal(Bob="A", Cy="B", Ann="D"), {"name": "Di", "surrender": True}]
    record(session, surrender, bob_user)
    natural = deal(Cy="A", Di="B", Ann="C", Bob="D")
    natural[3]["natural"] = "six_pairs"
    record(session, natural, bob_user)
    wrong = record(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)
    services.edit_deal(
        wrong, deal(Di="A", Ann="B", Bob="C", Cy="D"), bob_user, reason="hands mixed up"
    )
    twice = record(session, deal(Bob="A", Cy="B", Di="C", Ann="D"), bob_user)
    services.void_deal(twice, ann_user, reason="entered twice")
    record(session, deal(Ann="A", Cy="B", Bob="C", Di="D"), bob_user)
    record(session, deal(Bob="A", Ann="B", Di="C", Cy="D"), bob_user)
    record(session, deal(Di="A", Bob="B", Ann="C", Cy="D"), bob_user)


@pytest.fixture
def night(session: Session, ann_user: User, bob_user: User) -> Session:
    play_the_night(session, ann_user, bob_user)
    return session


def test_balances_are_the_hand_worked_totals(night: Session) -> None:
    balances = reports.balances(night)

    assert list(balances) == ["Ann", "Bob", "Cy", "Di"]
    assert {name: b.units for name, b in balances.items()} == {
        "Ann": D("7.5"),
        "Bob": D("-2.5"),
        "Cy": D("9.5"),
        "Di": D("-14.5"),
    }
    # Half a euro a unit.
    assert {name: b.money for name, b in balances.items()} == {
        "Ann": D("3.75"),
        "Bob": D("-1.25"),
        "Cy": D("4.75"),
        "Di": D("-7.25"),
    }


def test_pair_matrix(night: Session) -> None:
    matrix = reports.pair_matrix(night)

    for (a, b), units in PAIRS.items():
        assert matrix[a][b].units == D(units), (a, b)
        assert matrix[b][a].units == -D(units), (b, a)
        assert matrix[a][b].money == D(units) / 2
    assert set(matrix["Ann"]) == {"Bob", "Cy", "Di"}


def test_running_totals_skip_the_void_deal(night: Session) -> None:
    running = reports.running_totals(night)
    units = list(running_sums(night, "units"))

    assert [(number, list(totals)) for number, totals in units] == [
        (r.number, [a.units for a in r.totals.values()]) for r in running
    ]
    assert running[-1].totals["Ann"].money == D("3.75")  # half a euro a unit

    assert [
        (r.number, {n: str(a.units.normalize()) for n, a in r.totals.items()}) for r in running
    ] == [
        (number, {n: str(D(u).normalize()) for n, u in totals.items()})
        for number, totals in RUNNING
    ]


def test_every_deal_is_numbered_once_without_gaps(night: Session) -> None:
    numbers = list(night.deals.order_by("number").values_list("number", flat=True))

    assert numbers == list(range(1, 13))
    assert night.deals.get(number=9).status == Deal.Status.VOID


def test_foul_surrender_and_natural_are_in_the_results(night: Session) -> None:
    def player(number: int, name: str) -> dict[str, object]:
        result = night.deals.get(number=number).result
        return next(p for p in result["players"] if p["name"] == name)

    assert player(5, "Bob")["fouled"] is True
    assert player(6, "Di")["surrendered"] is True
    assert player(7, "Bob")["natural"] == "six_pairs"
    assert night.deals.get(number=5).rules["preset"] == "classic-1-6"


def test_an_edit_keeps_the_previous_version(night: Session, bob_user: User) -> None:
    edited = night.deals.get(number=8)
    revision = edited.revisions.get()

    assert edited.version == 2
    assert revision.version == 1
    assert revision.action == DealRevision.Action.EDIT
    assert revision.reason == "hands mixed up"
    assert revision.changed_by == bob_user
    assert revision.request["players"][0] == {"name": "Ann", **HANDS["A"]}
    ann_before = next(p for p in revision.result["players"] if p["name"] == "Ann")
    ann_now = next(p for p in edited.result["players"] if p["name"] == "Ann")
    assert (ann_before["units"], ann_now["units"]) == ("-8", "4")
    assert edited.ledger.count() == 6


def test_a_void_deal_stays_visible_without_ledger_rows(night: Session, ann_user: User) -> None:
    void = night.deals.get(number=9)

    assert void.status == Deal.Status.VOID
    assert void.result["players"]  # the last result is still there to read
    assert not void.ledger.exists()
    assert void.revisions.get().action == DealRevision.Action.VOID
    assert LedgerEntry.objects.filter(deal__session=night).count() == 11 * 6
    with pytest.raises(services.DealNotActive):
        services.void_deal(void, ann_user)
    with pytest.raises(services.DealNotActive):
        services.edit_deal(void, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)


def test_settlement_in_fewest_transfers(night: Session) -> None:
    # Money: Ann +3.75, Bob -1.25, Cy +4.75, Di -7.25. No two or three of them sum to
    # zero, so it takes three transfers (players - 1).
    transfers = reports.transfers(night)

    assert len(transfers) == 3
    net = {"Ann": D("3.75"), "Bob": D("-1.25"), "Cy": D("4.75"), "Di": D("-7.25")}
    for payer, payee, amount in transfers:
        assert amount > 0
        net[payer] += amount
        net[payee] -= amount
    assert set(net.values()) == {D(0)}


def test_settlement_pair_by_pair(night: Session) -> None:
    # PAIRS at half a euro a unit: whoever lost the pair pays the other.
    assert sorted(reports.transfers(night, pair_by_pair=True)) == sorted(
        [
            ("Bob", "Ann", D("0.5")),
            ("Ann", "Cy", D("3")),
            ("Di", "Ann", D("6.25")),
            ("Bob", "Cy", D("5.5")),
            ("Di", "Bob", D("4.75")),
            ("Cy", "Di", D("3.75")),
        ]
    )
