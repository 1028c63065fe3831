"""The season: every total is the sum of the nights' summaries, every head-to-head cell
that pair's ledger, read in a fixed number of queries (games/reports/season.py).

The hand-worked night (tests/services/test_night.py) has a void deal (9) and a corrected
one (8); the next night is one deal at other stakes (tests/reports/conftest.py).
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import reports, services
from games.models import Deal, Group, LedgerEntry, Player, ReviewLine, Session
from games.reports import ledger
from games.reports.season import COUNTED, QUERIES, Span, season, span, trend
from tests.services.hands import deal, fouled

D = Decimal
SUMMED: tuple[str, ...] = ("deals", "units", "money", "fouls", "surrenders", "scoops")
SUMMED += ("naturals", "royalties", "royalty_rows", "units_missed")


def by_name(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in rows}


def summed_summaries(sessions: list[Session]) -> dict[int, dict[str, Any]]:
    """Each player's summary figures added up night by night (the figures to hold), by
    player id (a night names a player as they sat down)."""
    out: dict[int, dict[str, Any]] = {}
    for session in sessions:
        for row in reports.session_summary(session, running=False)["players"]:
            total = out.setdefault(row["id"], dict.fromkeys(SUMMED, 0) | {"nights": 0})
            total["nights"] += 1
            for key in SUMMED:
                total[key] += row[key]
    return out


def assert_season_is_the_nights(group: Group, sessions: list[Session]) -> dict[str, Any]:
    report = season(group)
    players = {row["id"]: row for row in report["players"]}
    expected = summed_summaries(sessions)
    assert set(players) == set(expected)
    for pk, total in expected.items():
        assert {key: players[pk][key] for key in (*SUMMED, "nights")} == total, pk
    # Each head-to-head cell is that pair's ledger over the season.
    pairs = ledger.pair_sums(ledger.play_ledger(group))
    assert {(p["a"], p["b"]): (p["units"], p["money"]) for p in report["head_to_head"]} == {
        key: (amounts.units, amounts.money) for key, amounts in pairs.items()
    }
    for pair in report["head_to_head"]:
        together = LedgerEntry.objects.filter(
            deal__session__group=group,
            player_a_id__in=(pair["a"], pair["b"]),
            player_b_id__in=(pair["a"], pair["b"]),
        )
        assert pair["deals"] == together.count()
    return report


def test_the_season_is_the_sum_of_its_nights(night: Session, next_night: Session) -> None:
    report = assert_season_is_the_nights(night.group, [night, next_night])
    players = by_name(report["players"])
    # Twelve deals less the void one, and the next night's one.
    assert report["deals"] == 12
    assert {name: p["deals"] for name, p in players.items()} == dict.fromkeys(
        ("Ann", "Bob", "Cy", "Di"), 12
    )
    # Units: the night's (Ann +7.5, Bob -2.5, Cy +9.5, Di -14.5) plus the next (-8 +4 +3 +1).
    assert {n: p["units"] for n, p in players.items()} == {
        "Ann": D("-0.5"),
        "Bob": D("1.5"),
        "Cy": D("12.5"),
        "Di": D("-13.5"),
    }
    # Scoops given: whoever held hand A was scooped by hand B's holder, except at deals 5
    # (Bob fouled) and 9 (void): deals 1 and 10 Ann, 2, 6 and 11 Bob, 3 and 7 Cy, 4, 8
    # (corrected to 4) and 12 Di; the next night's deal 1 Ann.
    assert {n: p["scooped"] for n, p in players.items()} == {"Ann": 3, "Bob": 3, "Cy": 2, "Di": 3}
    assert sum(p["scoops"] for p in players.values()) == 11
    assert {p["units_per_deal"] for p in players.values()} == {
        D("-0.0417"),
        D("0.1250"),
        D("1.0417"),
        D("-1.1250"),
    }
    assert [n["session"] for n in report["nights"]] == [night.pk, next_night.pk]
    assert report["games"] == ["chinese"]


def test_void_and_corrected_deals_count_as_the_ledger_counts_them(
    night: Session, ann_user: User
) -> None:
    # Void deal 2 as well: its tally, its ledger rows and its review line all leave.
    two = night.deals.get(number=2)
    ReviewLine.objects.create(deal=two, player=night.players.get(name="Ann"), units_missed=5)
    before = by_name(season(night.group)["players"])
    services.void_deal(two, ann_user, reason="misdealt")
    after = by_name(season(night.group)["players"])
    assert after["Ann"]["deals"] == before["Ann"]["deals"] - 1
    assert after["Bob"]["units"] == before["Bob"]["units"] + 8  # Bob held A at deal 2: -8
    assert after["Ann"]["units_missed"] == before["Ann"]["units_missed"] - 5
    # Correct deal 10 so that Ann fouls: a foul in the season, as in the summary.
    services.edit_deal(
        night.deals.get(number=10),
        [
            {"name": "Ann", **fouled("A")},
            *deal(Cy="B", Bob="C", Di="D"),
        ],
        ann_user,
        reason="Ann's rows were swapped",
    )
    assert by_name(season(night.group)["players"])["Ann"]["fouls"] == 1
    assert_season_is_the_nights(night.group, [night])


def test_units_missed_per_deal_and_its_trend(
    night: Session, next_night: Session, players: dict[str, Player]
) -> None:
    # Ann misses 4 units over two reviewed deals of the first night, 1 on the next: 5
    # over 3 deals, 2 a deal the first night and 1 the next.
    ann = players["Ann"]
    for number, missed in ((1, 3), (2, 1)):
        ReviewLine.objects.create(
            deal=night.deals.get(number=number), player=ann, units_missed=missed
        )
    ReviewLine.objects.create(deal=next_night.deals.get(), player=ann, units_missed=1)
    report = season(night.group)
    row = by_name(report["players"])["Ann"]
    assert (row["reviewed_deals"], row["units_missed"]) == (3, D(5))
    assert row["missed_per_deal"] == D("1.6667")
    # 2 a deal the first night, 1 the next: one unit a deal less each night.
    assert row["missed_trend"] == D(-1)
    assert [n["players"][ann.pk]["missed"] for n in report["nights"]] == [D(4), D(1)]
    assert by_name(report["players"])["Bob"]["missed_per_deal"] is None


def test_the_trend_is_the_least_squares_slope() -> None:
    assert trend([]) is None
    assert trend([(0, D(3))]) is None
    # (0, 1), (1, 2), (2, 6): mean x 1, mean y 3; slope ((-1)(-2) + 0 + (1)(3)) / 2 = 2.5.
    assert trend([(0, D(1)), (1, D(2)), (2, D(6))]) == D("2.5")


def test_a_range_keeps_its_nights(night: Session, next_night: Session) -> None:
    only_next = season(night.group, next_night.date, next_night.date)
    assert [n["session"] for n in only_next["nights"]] == [next_night.pk]
    assert by_name(only_next["players"])["Ann"]["money"] == D(-13)
    assert season(night.group, game="big-two")["players"] == []


def test_span_names_the_ranges() -> None:
    today = datetime.date(2026, 2, 11)
    month = span("month", today)
    assert (month.date_from, month.date_to) == (
        datetime.date(2026, 2, 1),
        datetime.date(2026, 2, 28),
    )
    year = span("year", today)
    assert (year.date_from, year.date_to) == (
        datetime.date(2026, 1, 1),
        datetime.date(2026, 12, 31),
    )
    assert span("all", today) == Span("all", None, None)
    custom = span("custom", today, datetime.date(2025, 5, 1), None)
    assert (custom.date_from, custom.date_to) == (datetime.date(2025, 5, 1), None)
    assert span("", today, None, today).choice == "custom"
    assert span("nonsense", today).choice == "all"


def test_a_merged_players_history_follows_the_kept_player(
    night: Session, group: Group, players: dict[str, Player], ann_user: User
) -> None:
    anne = services.add_player(group, "Anne", by=ann_user)
    later = services.start_session(
        group,
        [anne, players["Bob"], players["Cy"], players["Di"]],
        ann_user,
        date=night.date + datetime.timedelta(days=7),
    )
    services.record_deal(later, deal(Anne="B", Bob="A", Cy="C", Di="D"), ann_user)
    ReviewLine.objects.create(deal=later.deals.get(), player=anne, units_missed=2)
    services.merge_players(group, players["Ann"], anne, by=ann_user)

    report = assert_season_is_the_nights(group, [night, later])
    ann = by_name(report["players"])["Ann"]
    assert "Anne" not in by_name(report["players"])
    assert (ann["nights"], ann["deals"], ann["units"]) == (2, 12, D("7.5") + 4)
    assert ann["units_missed"] == 2
    assert {p["a"] for p in report["head_to_head"]} | {p["b"] for p in report["head_to_head"]} == {
        p.pk for p in players.values()
    }


def _nights(group: Group, players: dict[str, Player], user: User, count: int) -> None:
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    for k in range(count):
        session = services.start_session(
            group, seats, user, date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * k)
        )
        services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), user)
        services.record_deal(session, deal(Ann="B", Bob="C", Cy="D", Di="A"), user)
        ReviewLine.objects.create(
            deal=session.deals.get(number=1), player=players["Cy"], units_missed=k
        )


@pytest.mark.parametrize("count", [2, 20])
def test_a_season_reads_a_fixed_number_of_queries(
    group: Group, players: dict[str, Player], ann_user: User, count: int
) -> None:
    _nights(group, players, ann_user, count)
    Deal.objects.filter(session__group=group, number=2).update(tally=None)  # stored before tallies
    group = Group.objects.get(pk=group.pk)
    with CaptureQueriesContext(connection) as queries:
        report = season(group)
    assert len(queries) == QUERIES
    assert len(report["nights"]) == count
    assert by_name(report["players"])["Ann"]["deals"] == 2 * count


def test_big_two_counts_wins_and_cards_left(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    session = services.start_session(
        group, [players["Ann"], players["Bob"], players["Cy"]], ann_user, game="big-two"
    )
    for left in ((0, 5, 3), (2, 0, 1), (0, 1, 4)):
        services.record_deal(
            session,
            [{"name": n, "cards_left": c} for n, c in zip(("Ann", "Bob", "Cy"), left, strict=True)],
            ann_user,
        )
    report = season(group, game="big-two")
    rows = by_name(report["players"])
    assert {n: (p["wins"], p["cards_left"]) for n, p in rows.items()} == {
        "Ann": (2, 2),
        "Bob": (1, 6),
        "Cy": (0, 8),
    }
    assert report["games"] == ["big-two"]


# Ann's board has queens in front (fantasy land next); Bob's has nothing; Ann's trips in
# front (under a full house and quads, so no foul) keep her in fantasy land.
QUEENS = {"front": "Qc Qd 2h", "middle": "Kc Kd 3h 4h 5s", "back": "Ac Ad 6h 7h 8s"}
PLAIN = {"front": "2c 3c 4d", "middle": "5c 5d 7d 9h Js", "back": "Tc Td Th 9s 8c"}
TRIPS = {"front": "Qc Qd Qh", "middle": "Kc Kd Kh 3h 3c", "back": "Ac Ad Ah As 2d"}
BOB = {"front": "2s 3s 4s", "middle": "6c 6d 9c Jc Jd", "back": "Ks Qs Ts 7s 6s"}


def test_open_face_counts_fantasy_land_entries_and_stays(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    session = services.start_session(
        group, [players["Ann"], players["Bob"]], ann_user, rules_override="ofc"
    )
    # Ann enters (queens), stays (trips in fantasy land), then drops out; Bob never.
    for ann in (QUEENS, TRIPS, PLAIN):
        services.record_deal(session, [{"name": "Ann", **ann}, {"name": "Bob", **BOB}], ann_user)
    rows = by_name(season(group)["players"])
    assert (rows["Ann"]["fantasy_entries"], rows["Ann"]["fantasy_stays"]) == (1, 1)
    assert (rows["Bob"]["fantasy_entries"], rows["Bob"]["fantasy_stays"]) == (0, 0)
    assert rows["Ann"]["deals"] == 3


HANDS = ("A", "B", "C", "D")


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    nights=st.lists(
        st.lists(
            st.tuples(st.permutations(HANDS), st.booleans(), st.booleans()),
            min_size=1,
            max_size=4,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_any_season_is_the_sum_of_its_nights(
    group: Group, players: dict[str, Player], ann_user: User, nights: list[Any]
) -> None:
    """Random nights, some deals voided and some corrected: the season still adds up."""
    with transaction.atomic():
        sessions = []
        seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
        for k, deals in enumerate(nights):
            session = services.start_session(
                group, seats, ann_user, date=datetime.date(2026, 3, 1 + k)
            )
            sessions.append(session)
            for number, (hands, void, corrected) in enumerate(deals, start=1):
                holding = dict(zip(("Ann", "Bob", "Cy", "Di"), hands, strict=True))
                services.record_deal(session, deal(**holding), ann_user)
                if corrected:
                    swapped = dict(zip(("Bob", "Ann", "Di", "Cy"), hands, strict=True))
                    stored = session.deals.get(number=number)
                    services.edit_deal(stored, deal(**swapped), ann_user, reason="x")
                if void:
                    services.void_deal(session.deals.get(number=number), ann_user, reason="x")
        assert_season_is_the_nights(group, sessions)
        report = season(group)
        assert sum(p["deals"] for p in report["players"]) == 4 * report["deals"]
        assert all(set(COUNTED) <= set(p) for p in report["players"])
        transaction.set_rollback(True)
