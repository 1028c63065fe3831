"""Owners rename and re-link players and delete what has no history; history is kept.

A renamed player keeps, in every earlier session, the name they sat down with: the deals
stored under it, the summaries, settlements and ledgers read the same as before.
"""

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.engine import ScoreError
from games.models import Deal, Group, LedgerEntry, PairStake, Player, Session
from tests.services.hands import deal
from tests.services.test_night import play_the_night

D = Decimal


@pytest.fixture
def night(session: Session, ann_user: User, bob_user: User) -> Session:
    """The hand-worked night of test_night.py, closed."""
    play_the_night(session, ann_user, bob_user)
    return services.close_session(session, bob_user)


@pytest.fixture
def next_night(
    night: Session, group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> Session:
    """The day after, Ann and Bob at four times the unit: Ann -8 units, -13 in money."""
    services.set_pair_stake(group, players["Bob"], players["Ann"], 4, by=ann_user)
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    later = services.start_session(
        group, seats, ann_user, date=night.date + datetime.timedelta(days=1)
    )
    services.record_deal(later, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)
    return later


def every_report(group: Group, sessions: list[Session], player: Player) -> dict[str, Any]:
    return reports.jsonable(
        {
            "summaries": [reports.session_summary(s) for s in sessions],
            "settlements": [reports.settlement(s) for s in sessions],
            "balances": [reports.balances(s) for s in sessions],
            "running": [reports.running_totals(s) for s in sessions],
            "ledger": reports.opponent_ledger(group, player),
            "standings": reports.group_standings(group),
        }
    )


def renamed(report: Any, names: dict[str, str]) -> Any:
    """The report with every occurrence of the old names, as values, replaced by new ones."""
    if isinstance(report, dict):
        return {key: renamed(value, names) for key, value in report.items()}
    if isinstance(report, list):
        return [renamed(item, names) for item in report]
    return names.get(report, report) if isinstance(report, str) else report


def test_a_rename_leaves_earlier_sessions_as_they_were_scored(
    night: Session,
    next_night: Session,
    group: Group,
    players: dict[str, Player],
    ann_user: User,
) -> None:
    sessions = [night, next_night]
    before = every_report(group, sessions, players["Ann"])

    services.update_player(players["Ann"], ann_user, name="Annie")
    services.update_player(players["Di"], ann_user, name="Dee")

    after = every_report(group, sessions, group.players.get(name="Annie"))
    # The nights speak in the names their deals were scored under...
    for key in ("summaries", "settlements", "balances", "running"):
        assert after[key] == before[key], key
    assert [p["name"] for p in after["summaries"][0]["players"]] == ["Ann", "Bob", "Cy", "Di"]
    # ...and the group's reports, keyed by player, give the same numbers under today's names.
    new_names = {"Ann": "Annie", "Di": "Dee"}
    assert after["ledger"] == renamed(before["ledger"], new_names)
    assert after["standings"]["players"] == renamed(before["standings"]["players"], new_names)
    # The multiple each deal was played at is still read from the deal's own stakes.
    bob = next(o for o in after["ledger"]["opponents"] if o["name"] == "Bob")
    assert bob["deals"][-1]["multiplier"] == "4"
    # Stored deals keep their names.
    names = {
        p["name"] for d in Deal.objects.filter(session__group=group) for p in d.request["players"]
    }
    assert names == {"Ann", "Bob", "Cy", "Di"}


def test_the_new_name_is_used_from_the_next_session_with_its_stakes(
    next_night: Session,
    group: Group,
    players: dict[str, Player],
    ann_user: User,
    bob_user: User,
) -> None:
    services.update_player(players["Ann"], ann_user, name="Annie")
    seats = [players[name] for name in ("Ann", "Bob")]
    third = services.start_session(group, seats, ann_user)

    recorded = services.record_deal(third, deal(Annie="A", Bob="B"), bob_user)

    assert [seat.name for seat in third.seats.order_by("seat")] == ["Annie", "Bob"]
    assert recorded.request["stakes"]["pairs"] == [{"players": ["Annie", "Bob"], "multiplier": "4"}]
    assert reports.balances(third)["Annie"] == reports.Amounts(D(-6), D(-12))
    with pytest.raises(ScoreError, match="Ann is not seated"):
        services.record_deal(third, deal(Ann="A", Bob="B"), bob_user)


def test_a_player_renamed_during_a_session_keeps_their_seat_name_there(
    session: Session, group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    services.set_pair_stake(group, players["Ann"], players["Di"], 5, by=ann_user)
    services.record_deal(session, deal(Ann="A", Di="D", sat_out=("Bob", "Cy")), bob_user)

    services.update_player(players["Ann"], ann_user, name="Annie")
    second = services.record_deal(session, deal(Ann="A", Di="D", sat_out=("Bob", "Cy")), bob_user)

    assert second.request["stakes"]["pairs"] == [{"players": ["Ann", "Di"], "multiplier": "5"}]
    assert reports.balances(session)["Ann"] == reports.Amounts(D(-2), D(-5))
    assert reports.session_summary(session)["players"][0]["deals"] == 2


def test_a_renamed_group_exports_and_imports_whole(
    night: Session, next_night: Session, group: Group, players: dict[str, Player], ann_user: User
) -> None:
    services.update_player(players["Ann"], ann_user, name="Annie")
    empty = services.create_group(ann_user, "Restored", "EUR", 1, "standard")

    restored = services.import_group(
        json.loads(json.dumps(services.export_group(group))), empty, ann_user
    )

    annie = restored.players.get(name="Annie")
    old = list(group.sessions.order_by("date"))
    new = list(restored.sessions.order_by("date"))
    for before, after in zip(old, new, strict=True):
        assert [s.name for s in after.seats.all()] == ["Ann", "Bob", "Cy", "Di"]
        assert after.seats.get(name="Ann").player == annie
        assert reports.jsonable(reports.balances(after)) == reports.jsonable(
            reports.balances(before)
        )


def test_names_stay_unique_and_links_go_to_members(
    group: Group, players: dict[str, Player], ann_user: User, stranger: User
) -> None:
    with pytest.raises(services.ServiceError, match="already has a player named 'Bob'") as caught:
        services.update_player(players["Cy"], ann_user, name=" Bob ")
    assert caught.value.field == "name"
    with pytest.raises(services.ServiceError) as caught:
        services.update_player(players["Cy"], ann_user, name="  ")
    assert caught.value.field == "name"
    with pytest.raises(services.ServiceError, match="eve is not a member") as caught:
        services.update_player(players["Cy"], ann_user, user=stranger)
    assert caught.value.field == "username"

    services.update_player(players["Ann"], ann_user, user=None)
    services.update_player(players["Cy"], ann_user, name="Cyril", user=ann_user)
    services.update_player(players["Bob"], ann_user, name="Bob")  # its own name is no clash

    assert list(group.players.values_list("name", "user__username")) == [
        ("Ann", None),
        ("Bob", "bob"),
        ("Cyril", "ann"),
        ("Di", None),
    ]


def test_members_neither_rename_nor_delete(
    group: Group, players: dict[str, Player], bob_user: User
) -> None:
    with pytest.raises(services.NotAllowed):
        services.update_player(players["Cy"], bob_user, name="Cyril")
    with pytest.raises(services.NotAllowed):
        services.delete_player(players["Cy"], bob_user)
    assert group.players.count() == 4


def test_only_a_player_never_seated_is_deleted(
    session: Session, group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    eve = services.add_player(group, "Eve", by=bob_user)
    services.set_pair_stake(group, eve, players["Ann"], 2, by=ann_user)

    with pytest.raises(services.HasHistory, match="Ann has history: seated in 1 session"):
        services.delete_player(players["Ann"], ann_user)
    services.delete_player(eve, ann_user)

    assert list(group.players.values_list("name", flat=True)) == ["Ann", "Bob", "Cy", "Di"]
    assert not PairStake.objects.exists()  # Eve's stake went with her


def test_a_deleted_stake_puts_the_pair_back_at_1x_from_then_on(
    session: Session, group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    stake = services.set_pair_stake(group, players["Ann"], players["Di"], 5, by=ann_user)
    first = services.record_deal(session, deal(Ann="A", Di="D", sat_out=("Bob", "Cy")), bob_user)
    with pytest.raises(services.NotAllowed):
        services.delete_pair_stake(stake, bob_user)

    services.delete_pair_stake(stake, ann_user)
    second = services.record_deal(session, deal(Ann="A", Di="D", sat_out=("Bob", "Cy")), bob_user)

    assert not group.pair_stakes.exists()
    money = dict(LedgerEntry.objects.values_list("deal__number", "money"))
    assert money == {first.number: D("-2.5"), second.number: D("-0.5")}  # -1 unit, 0.5 each


def test_a_session_is_deleted_only_while_open_and_without_deals(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User, stranger: User
) -> None:
    seats = [players["Ann"], players["Bob"]]
    mistaken = services.start_session(group, seats, ann_user)
    played = services.start_session(group, seats, ann_user)
    services.record_deal(played, deal(Ann="A", Bob="B"), bob_user)
    closed = services.start_session(group, seats, ann_user)
    services.close_session(closed, bob_user)

    with pytest.raises(services.NotAllowed):
        services.delete_session(mistaken, stranger)
    with pytest.raises(services.HasHistory, match="has 1 deal"):
        services.delete_session(played, bob_user)
    with pytest.raises(services.HasHistory, match="is closed"):
        services.delete_session(closed, bob_user)
    services.delete_session(mistaken, bob_user)  # any member

    assert set(group.sessions.all()) == {played, closed}


def test_a_voided_deal_is_still_history(session: Session, ann_user: User, bob_user: User) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    services.void_deal(recorded, ann_user)

    with pytest.raises(services.HasHistory):
        services.delete_session(session, ann_user)


def test_a_group_with_deals_is_deleted_only_when_confirmed_by_name(
    night: Session, next_night: Session, group: Group, ann_user: User, bob_user: User
) -> None:
    with pytest.raises(services.NotAllowed):
        services.delete_group(group, bob_user, confirm="Friday club")
    with pytest.raises(services.HasHistory, match="Friday club has 13 recorded deals"):
        services.delete_group(group, ann_user)
    with pytest.raises(services.HasHistory):
        services.delete_group(group, ann_user, confirm="friday club")

    services.delete_group(group, ann_user, confirm="Friday club")

    assert not Group.objects.exists()
    assert not Player.objects.exists() and not Deal.objects.exists()
    assert not LedgerEntry.objects.exists() and not Session.objects.exists()
    assert User.objects.filter(username="bob").exists()


def test_a_group_without_deals_is_deleted_at_once(
    session: Session, group: Group, ann_user: User
) -> None:
    services.delete_group(group, ann_user)

    assert not Group.objects.exists() and not Session.objects.exists()


@pytest.mark.parametrize("currency", ["EURO", "E1R", "", "€ur"])
def test_a_new_group_needs_a_three_letter_currency(ann_user: User, currency: str) -> None:
    with pytest.raises(services.ServiceError) as caught:
        services.create_group(ann_user, "Odd", currency, 1, "standard")

    assert caught.value.field == "currency"
    assert not Group.objects.exists()


def test_a_new_groups_currency_is_upper_case(ann_user: User) -> None:
    group = services.create_group(ann_user, "Tuesday", "usd", 1, "standard")

    assert group.currency == "USD"


def test_a_user_plays_as_one_player_of_a_group(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    with pytest.raises(
        services.ServiceError, match="bob is already linked to the player Bob"
    ) as caught:
        services.update_player(players["Cy"], ann_user, user=bob_user)
    assert caught.value.field == "username"
    with pytest.raises(services.ServiceError, match="ann is already linked to the player Ann"):
        services.add_player(group, "Annie", by=ann_user, user=ann_user)
    services.update_player(players["Ann"], ann_user, user=ann_user)  # their own link is fine

    assert list(group.players.values_list("name", "user__username")) == [
        ("Ann", "ann"),
        ("Bob", "bob"),
        ("Cy", None),
        ("Di", None),
    ]


def test_a_player_deleted_before_the_session_starts_is_named(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    eve = services.add_player(group, "Eve", by=ann_user)
    services.delete_player(Player.objects.get(pk=eve.pk), ann_user)

    with pytest.raises(services.ServiceError, match="no longer in the group: Eve") as caught:
        services.start_session(group, [players["Ann"], eve], ann_user)
    assert caught.value.field == "players"
    assert not Session.objects.exists()
