"""Reports over the hand-worked night (see tests/services/test_night.py for every deal).

Per deal, the holder of hand B scoops the holder of hand A (hands.py); a foul, a
surrender or a natural leaves no rows to scoop. So the scoops are: Bob 1 and 12, Cy 2, 6
and 10, Di 3 and 7, Ann 4, 8 and 11 (deal 5: Bob fouls and the rest scoop nobody).
"""

import csv
import io
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User

from games import reports, services
from games.models import Deal, Group, Player, Session
from tests.services.hands import HANDS, deal, fouled
from tests.services.test_night import PAIRS, RUNNING

D = Decimal


def by_name(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in rows}


def test_summary_totals_and_counts(night: Session) -> None:
    summary = reports.session_summary(night)
    players = by_name(summary["players"])

    assert [p["name"] for p in summary["players"]] == ["Ann", "Bob", "Cy", "Di"]
    assert {n: p["units"] for n, p in players.items()} == {
        "Ann": D("7.5"),
        "Bob": D("-2.5"),
        "Cy": D("9.5"),
        "Di": D("-14.5"),
    }
    assert {n: p["money"] for n, p in players.items()} == {
        "Ann": D("3.75"),
        "Bob": D("-1.25"),
        "Cy": D("4.75"),
        "Di": D("-7.25"),
    }
    counts = ("deals", "fouls", "surrenders", "scoops", "naturals", "royalty_rows")
    assert {n: tuple(p[c] for c in counts) for n, p in players.items()} == {
        "Ann": (11, 0, 0, 3, 0, 0),
        "Bob": (11, 1, 0, 2, 1, 0),
        "Cy": (11, 0, 0, 3, 0, 0),
        "Di": (11, 0, 1, 2, 0, 0),
    }
    assert {p["royalties"] for p in players.values()} == {D(0)}
    assert summary["deals"] == 11
    assert summary["void_deals"] == [9]


def test_summary_pairs_and_running_totals(night: Session) -> None:
    summary = reports.session_summary(night)

    for (a, b), units in PAIRS.items():
        assert summary["pairs"][a][b] == {"units": D(units), "money": D(units) / 2}
        assert summary["pairs"][b][a] == {"units": -D(units), "money": -D(units) / 2}
    assert [(r["deal"], r["units"]) for r in summary["running"]] == [
        (number, {name: D(units) for name, units in totals.items()}) for number, totals in RUNNING
    ]


def test_royalties_are_summed_and_counted(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    # classic-1-6 pays 3 for trips in front and 2 for a full house in the middle.
    session = services.start_session(group, [players["Ann"], players["Bob"]], ann_user)
    services.record_deal(
        session,
        [
            {
                "name": "Ann",
                "front": "2c 2d 2h",
                "middle": "3c 3d 3h 4c 4d",
                "back": "Ac Ad Ah As 5c",
            },
            {
                "name": "Bob",
                "front": "7h 5d 3s",
                "middle": "8c 9d Th Js 2s",
                "back": "Kc Qd 9h 7s 6c",
            },
        ],
        ann_user,
    )
    summary = reports.session_summary(session)
    ann, bob = summary["players"]

    # Front trips 3 + middle full house 2 + back quads 4.
    assert (ann["royalties"], ann["royalty_rows"]) == (D(9), 3)
    assert (bob["royalties"], bob["royalty_rows"]) == (D(0), 0)
    assert ann["scoops"] == 1


def test_summary_of_a_session_without_deals(session: Session) -> None:
    summary = reports.session_summary(session)

    assert summary["running"] == []
    assert summary["deals"] == 0
    assert {p["units"] for p in summary["players"]} == {D(0)}
    assert reports.settlement(session)["fewest_transfers"] == []


def test_settlement(night: Session) -> None:
    # Money: Cy +4.75, Ann +3.75, Bob -1.25, Di -7.25. The largest debt pays the largest
    # credit first: Di pays Cy 4.75, then Di's 2.5 left goes to Ann, and Bob pays Ann 1.25.
    settled = reports.settlement(night)

    assert settled["net"] == {
        "Ann": D("3.75"),
        "Bob": D("-1.25"),
        "Cy": D("4.75"),
        "Di": D("-7.25"),
    }
    assert settled["fewest_transfers"] == [
        {"from": "Di", "to": "Cy", "amount": D("4.75")},
        {"from": "Di", "to": "Ann", "amount": D("2.5")},
        {"from": "Bob", "to": "Ann", "amount": D("1.25")},
    ]
    # PAIRS at half a euro a unit: whoever lost the pair pays the other.
    pay = sorted((t["from"], t["to"], t["amount"]) for t in settled["pair_by_pair"])
    assert pay == sorted(
        [
            ("Bob", "Ann", D("0.5")),
            ("Ann", "Cy", D("3")),
            ("Di", "Ann", D("6.25")),
            ("Bob", "Cy", D("5.5")),
            ("Di", "Bob", D("4.75")),
            ("Cy", "Di", D("3.75")),
        ]
    )


# Ann against Bob, deal by deal (1-8, 10-12), from Ann's side:
#  1 A v B -6 | 2 D v A +1 | 3 C v D +1 | 4 B v C -1 | 5 Bob fouls +3 | 6 D v A +1
#  7 Bob's natural -3 | 8 B v C -1 | 10 A v C -1 | 11 B v A +6 | 12 C v B +1
ANN_V_BOB = [
    (1, "-6", "-6"),
    (2, "1", "-5"),
    (3, "1", "-4"),
    (4, "-1", "-5"),
    (5, "3", "-2"),
    (6, "1", "-1"),
    (7, "-3", "-4"),
    (8, "-1", "-5"),
    (10, "-1", "-6"),
    (11, "6", "0"),
    (12, "1", "1"),
]


def test_opponent_ledger(night: Session, next_night: Session, group: Group) -> None:
    ann = group.players.get(name="Ann")
    ledger = reports.opponent_ledger(group, ann, session=night)
    opponents = by_name(ledger["opponents"])

    assert list(opponents) == ["Bob", "Cy", "Di"]
    bob = opponents["Bob"]
    assert [(d["deal"], d["units"], d["balance_units"]) for d in bob["deals"]] == [
        (n, D(u), D(b)) for n, u, b in ANN_V_BOB
    ]
    assert [(d["money"], d["balance_money"]) for d in bob["deals"]] == [
        (D(u) / 2, D(b) / 2) for _, u, b in ANN_V_BOB
    ]
    assert {d["multiplier"] for d in bob["deals"]} == {D(1)}
    assert bob["stake"] == D(4)  # agreed since: the next night's
    nets = {name: (o["units"], o["money"]) for name, o in opponents.items()}
    assert nets == {
        "Bob": (D(1), D("0.5")),
        "Cy": (D(-6), D(-3)),
        "Di": (D("12.5"), D("6.25")),
    }
    assert (ledger["units"], ledger["money"]) == (D("7.5"), D("3.75"))


def test_opponent_ledger_across_sessions_and_dates(
    night: Session, next_night: Session, group: Group
) -> None:
    ann = group.players.get(name="Ann")
    both = by_name(reports.opponent_ledger(group, ann)["opponents"])

    last = both["Bob"]["deals"][-1]
    # The next night's deal at four times the unit: -6 units is -12.
    assert (last["session"], last["deal"], last["multiplier"]) == (next_night.pk, 1, D(4))
    assert (last["units"], last["money"]) == (D(-6), D(-12))
    assert (last["balance_units"], last["balance_money"]) == (D(-5), D("-11.5"))
    assert len(both["Bob"]["deals"]) == 12

    later = reports.opponent_ledger(group, ann, date_from=next_night.date)
    assert [len(o["deals"]) for o in later["opponents"]] == [1, 1, 1]
    assert (later["units"], later["money"]) == (D(-8), D(-13))
    earlier = reports.opponent_ledger(group, ann, date_to=night.date)
    assert (earlier["units"], earlier["money"]) == (D("7.5"), D("3.75"))


def test_opponent_ledger_csv(night: Session, group: Group) -> None:
    ann = group.players.get(name="Ann")
    text = reports.opponent_ledger_csv(group, ann, session=night)
    rows = list(csv.reader(io.StringIO(text)))

    assert rows[0] == list(reports.LEDGER_CSV_HEADER)
    assert len(rows) == 1 + 3 * 11
    day = night.date.isoformat()
    # kind, payment, unit_value, direction, note; money with the euro's two decimals
    deal_columns = ["deal", "", "0.50", "", ""]
    assert rows[1] == [
        *("Ann", "Bob", str(night.pk), day, "1", "1", "-6", "-3.00", "-6", "-3.00"),
        *deal_columns,
    ]
    assert rows[11] == [
        *("Ann", "Bob", str(night.pk), day, "12", "1", "1", "0.50", "1", "0.50"),
        *deal_columns,
    ]
    assert [r[1] for r in rows[1:]] == ["Bob"] * 11 + ["Cy"] * 11 + ["Di"] * 11
    assert rows[-1][8:10] == ["12.5", "6.25"]  # Ann-Di at the end of the night


def test_standings(night: Session, next_night: Session, group: Group) -> None:
    # Units: the night plus the next (Ann -8, Bob +4, Cy +3, Di +1). Money: the night's
    # half units plus Ann -13, Bob +11, Cy +1.5, Di +0.5. Twelve deals each.
    standings = reports.group_standings(group)

    assert [
        (p["name"], p["units"], p["money"], p["sessions"], p["deals"], p["average"])
        for p in standings["players"]
    ] == [
        ("Bob", D("1.5"), D("9.75"), 2, 12, D("0.125")),
        ("Cy", D("12.5"), D("6.25"), 2, 12, D("1.0417")),
        ("Di", D("-13.5"), D("-6.75"), 2, 12, D("-1.125")),
        ("Ann", D("-0.5"), D("-9.25"), 2, 12, D("-0.0417")),
    ]


def test_standings_over_a_date_range(
    night: Session, next_night: Session, group: Group, players: dict[str, Player], bob_user: User
) -> None:
    services.add_player(group, "Guest", by=bob_user)
    standings = reports.group_standings(group, date_to=night.date)

    assert [(p["name"], p["money"], p["deals"], p["average"]) for p in standings["players"]] == [
        ("Cy", D("4.75"), 11, D("0.8636")),  # 9.5 / 11
        ("Ann", D("3.75"), 11, D("0.6818")),  # 7.5 / 11
        ("Guest", D(0), 0, None),
        ("Bob", D("-1.25"), 11, D("-0.2273")),  # -2.5 / 11
        ("Di", D("-7.25"), 11, D("-1.3182")),  # -14.5 / 11
    ]


def test_jsonable_writes_plain_decimals(night: Session) -> None:
    summary = reports.jsonable(reports.session_summary(night))

    ann = summary["players"][0]
    assert (ann["units"], ann["money"]) == ("7.5", "3.75")
    assert summary["date"] == night.date.isoformat()
    assert summary["running"][3]["units"] == {"Ann": "0", "Bob": "0", "Cy": "0", "Di": "0"}


def record(session: Session, user: User, count: int) -> None:
    for _ in range(count):
        services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), user)


def test_summary_queries_do_not_grow_with_deals(
    session: Session, bob_user: User, django_assert_max_num_queries: Any
) -> None:
    record(session, bob_user, 2)
    with django_assert_max_num_queries(10) as few:
        reports.session_summary(session)
    record(session, bob_user, 30)
    with django_assert_max_num_queries(len(few.captured_queries)):
        summary = reports.session_summary(session)
    assert summary["deals"] == 32
    assert summary["players"][0]["units"] == D(-8 * 32)


def test_deals_stored_before_tallies_count_the_same(
    night: Session, group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    # A royalty deal and a Big Two night as well: results without rows or scoops.
    test_royalties_are_summed_and_counted(group, players, ann_user)
    seats = [players["Ann"], players["Bob"], players["Cy"]]
    big_two = services.start_session(group, seats, ann_user, game="big-two")
    services.record_deal(
        big_two,
        [
            {"name": "Ann", "cards_left": 0},
            {"name": "Bob", "cards_left": 5},
            {"name": "Cy", "cards_left": 3},
        ],
        bob_user,
    )
    sessions = list(group.sessions.all())
    tallied = [reports.session_summary(session)["players"] for session in sessions]
    assert not Deal.objects.filter(tally__isnull=True).exists()

    # As after the migration that added tallies, had it not filled them in.
    Deal.objects.update(tally=None)

    assert [reports.session_summary(session)["players"] for session in sessions] == tallied
    assert [p["deals"] for p in reports.session_summary(big_two)["players"]] == [1, 1, 1]


def test_criss_cross_counts_each_hand(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    # Ann plays hands A and C, Bob B and D: B scoops A (-6 for Ann), C beats D 2-1 (+1).
    session = services.start_session(
        group, [players["Ann"], players["Bob"]], ann_user, rules_override={"criss_cross": True}
    )
    services.record_deal(
        session,
        [
            {"name": "Ann", "hands": [HANDS["A"], HANDS["C"]]},
            {"name": "Bob", "hands": [HANDS["B"], HANDS["D"]]},
        ],
        ann_user,
    )
    summary = reports.session_summary(session)

    assert [(p["name"], p["units"], p["deals"], p["scoops"]) for p in summary["players"]] == [
        ("Ann", D(-5), 1, 0),
        ("Bob", D(5), 1, 1),
    ]


def test_counts_hold_for_names_that_are_awkward_json_keys(group: Group, ann_user: User) -> None:
    # Tallies are keyed by name: quotes, dots, dollars, brackets, backslashes, accents.
    names = ['Zoë "Z" O\'Neil', "a.b[0]", "$.x", "\\ back"]
    seats = [services.add_player(group, name, by=ann_user) for name in names]
    session = services.start_session(group, seats, ann_user)
    holding = dict(zip(names, "ABCD", strict=True))

    def counted(key: str) -> list[Any]:
        players = {p["name"]: p for p in reports.session_summary(session)["players"]}
        return [players[name][key] for name in names]

    services.record_deal(session, deal(**holding), ann_user)
    # hands.py: B scoops A, and no other pair is a scoop.
    assert (counted("deals"), counted("scoops")) == ([1, 1, 1, 1], [0, 1, 0, 0])

    players = deal(**holding)
    players[0] |= fouled("A")
    services.record_deal(session, players, ann_user)
    assert (counted("deals"), counted("fouls")) == ([2, 2, 2, 2], [1, 0, 0, 0])
