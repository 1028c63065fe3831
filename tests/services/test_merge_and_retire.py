"""Merging two players (everything of the merged one follows the kept one) and retiring one.

Ann came to the first night as "Ann" and to the second as "Anne": merged, Ann's standing,
balance and ledgers are the sums of the two, the group still sums to zero and
``verify_ledger`` finds the ledger equal to the deals re-scored.
"""

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import reports, services
from games.models import (
    Group,
    LedgerEntry,
    PairStake,
    Payment,
    Player,
    PlayerMerge,
    ReviewLine,
    Session,
)
from games.reports.audit import Audit
from tests.pdf.night import play_random_night

ZERO = Decimal(0)


def audit(group: Group) -> list[str]:
    return [str(m) for m in Audit().mismatches([group])]


def night(group: Group, seats: list[Player], by: User, day: int, seed: int) -> Session:
    session = services.start_session(
        group, seats, by, date=datetime.date(2026, 11, day), place=f"night {day}"
    )
    play_random_night(session, by, deals=12, seed=seed)
    return session


Standing = tuple[Decimal, Decimal, int, int]  # units, money, sessions, deals


def plus(x: Standing, y: Standing) -> Standing:
    return (x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3])


def standing(group: Group) -> dict[str, Standing]:
    return {
        row["name"]: (row["units"], row["money"], row["sessions"], row["deals"])
        for row in reports.group_standings(group)["players"]
    }


def balance(group: Group) -> dict[str, Decimal]:
    return {row["name"]: row["balance"] for row in reports.group_balances(group)["players"]}


def without_ids(value: Any) -> Any:
    """A report with its player ids left out (the merged player's become the kept one's)."""
    if isinstance(value, dict):
        return {k: without_ids(v) for k, v in value.items() if k != "id" and k[-3:] != "_id"}
    if isinstance(value, list):
        return [without_ids(v) for v in value]
    return value


def against(group: Group, player: Player) -> dict[str, Decimal]:
    """Money the player won from each opponent at the table."""
    return {
        row["name"]: row["money"] for row in reports.opponent_ledger(group, player)["opponents"]
    }


def assert_sums(group: Group) -> None:
    """The group sums to zero, each balance is the sum of its rows, the audit is clean."""
    rows = LedgerEntry.objects.filter(player_a__group=group)
    by_player: dict[int, Decimal] = {}
    for a, b, money in rows.values_list("player_a_id", "player_b_id", "money"):
        by_player[a] = by_player.get(a, ZERO) + money
        by_player[b] = by_player.get(b, ZERO) - money
    balances = reports.group_balances(group)["players"]
    assert sum((row["balance"] for row in balances), ZERO) == 0
    for row in balances:
        assert row["balance"] == by_player.get(row["id"], ZERO)
    assert audit(group) == []


@pytest.fixture
def anne(group: Group, ann_user: User) -> Player:
    return services.add_player(group, "Anne", by=ann_user)


@pytest.fixture
def two_nights(
    group: Group, players: dict[str, Player], anne: Player, ann_user: User
) -> tuple[Session, Session]:
    ann, bob, cy, di = (players[n] for n in ("Ann", "Bob", "Cy", "Di"))
    services.set_pair_stake(group, ann, bob, 3, by=ann_user)
    services.set_pair_stake(group, anne, bob, 2, by=ann_user)
    services.set_pair_stake(group, anne, di, 4, by=ann_user)
    services.set_pair_stake(group, ann, anne, 5, by=ann_user)
    first = night(group, [ann, bob, cy, di], ann_user, 20, seed=1)
    second = night(group, [bob, anne, cy, di], ann_user, 21, seed=2)
    services.record_payment(group, bob, anne, "4.5", ann_user, confirmed=True)
    services.record_payment(group, anne, cy, "2", ann_user, session=second)
    deal = second.deals.filter(status="active").first()
    assert deal is not None
    ReviewLine.objects.create(deal=deal, player=anne, units_missed=Decimal(3))
    return first, second


def test_everything_of_the_merged_player_follows(
    group: Group,
    players: dict[str, Player],
    anne: Player,
    two_nights: tuple[Session, Session],
    ann_user: User,
) -> None:
    _, second = two_nights
    ann = players["Ann"]
    before, money_before = standing(group), balance(group)
    ann_against, anne_against = against(group, ann), against(group, anne)
    summary_before = without_ids(reports.jsonable(reports.session_summary(second)))
    assert_sums(group)

    record = services.merge_players(group, ann, anne, ann_user)

    assert not Player.objects.filter(pk=anne.pk).exists()
    after = standing(group)
    assert "Anne" not in after
    assert after["Ann"] == plus(before["Ann"], before["Anne"])
    for name in ("Bob", "Cy", "Di"):
        assert after[name] == before[name]
    assert balance(group)["Ann"] == money_before["Ann"] + money_before["Anne"]
    assert_sums(group)
    # The second night reads the same: the seat keeps the name "Anne", now Ann's seat.
    seat = second.seats.get(name="Anne")
    assert seat.player_id == ann.pk
    second = Session.objects.get(pk=second.pk)  # seat names are read once per object
    summary = reports.jsonable(reports.session_summary(second))
    assert [p["id"] for p in summary["players"]][1] == ann.pk
    assert without_ids(summary) == summary_before
    payment = Payment.objects.get(payer=players["Bob"])
    assert payment.payee_id == ann.pk and payment.ledger.get().player_b_id == ann.pk
    assert Payment.objects.get(payee=players["Cy"]).payer_id == ann.pk
    assert ReviewLine.objects.get(units_missed=3).player_id == ann.pk
    # Stakes: Ann's own with Bob stays (x3), Anne's with Di follows, Ann-Anne is gone.
    stakes = {
        frozenset((s.player_a.name, s.player_b.name)): s.multiplier
        for s in PairStake.objects.filter(group=group).select_related("player_a", "player_b")
    }
    assert stakes == {frozenset(("Ann", "Bob")): 3, frozenset(("Ann", "Di")): 4}
    assert all(s.player_a_id < s.player_b_id for s in PairStake.objects.all())
    assert record.kept_name == "Ann" and record.gone_name == "Anne"
    assert record.moved["seats"] == 1 and record.moved["payments"] == 2
    assert record.moved["stakes"] == 1 and record.moved["stakes_dropped"] == 2
    assert (
        record.moved["ledger"]
        == LedgerEntry.objects.filter(deal__session=second, player_a=ann).count()
        + LedgerEntry.objects.filter(deal__session=second, player_b=ann).count()
        + 1
    )
    assert PlayerMerge.objects.get().merged_by == ann_user
    # Against each opponent, Ann now has what Anne had plus her own (Anne was no opponent:
    # they never sat together).
    assert "Anne" not in ann_against
    now = against(group, ann)
    for name in ("Bob", "Cy", "Di"):
        assert now[name] == ann_against[name] + anne_against[name]


def test_a_merged_group_exports_and_imports_whole(
    group: Group,
    players: dict[str, Player],
    anne: Player,
    two_nights: tuple[Session, Session],
    ann_user: User,
) -> None:
    services.merge_players(group, players["Ann"], anne, ann_user)
    services.update_player(players["Di"], ann_user, retired=True)
    empty = services.create_group(ann_user, "Restored", "EUR", 1, "standard")

    restored = services.import_group(
        json.loads(json.dumps(services.export_group(group))), empty, ann_user
    )

    assert standing(restored) == standing(group)
    assert balance(restored) == balance(group)
    assert restored.players.get(name="Di").is_retired
    assert not restored.players.get(name="Ann").is_retired
    assert audit(restored) == []


def test_a_linked_user_follows_and_two_users_refuse(
    group: Group, players: dict[str, Player], anne: Player, ann_user: User, bob_user: User
) -> None:
    with pytest.raises(services.ServiceError, match="two different users") as caught:
        services.merge_players(group, players["Bob"], players["Ann"], ann_user)
    assert caught.value.field == "into"
    services.merge_players(group, anne, players["Ann"], ann_user)
    anne.refresh_from_db()
    assert anne.user == ann_user


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("session", "both sat at the session of 2026-11-20"),
        ("payment", "payment \\d+ of .* is from Anne to Ann"),
        ("pending", "payment \\d+ of .* is from Anne to Ann"),
        ("self", "into themself"),
        ("other-group", "both players must belong"),
    ],
)
def test_refusals_change_nothing(
    group: Group,
    players: dict[str, Player],
    anne: Player,
    ann_user: User,
    setup: str,
    message: str,
) -> None:
    ann, gone = players["Ann"], anne
    if setup == "session":
        night(group, [ann, anne, players["Cy"]], ann_user, 20, seed=4)
    elif setup in ("payment", "pending"):
        services.record_payment(group, anne, ann, "1", ann_user, confirmed=setup == "payment")
    elif setup == "self":
        gone = ann
    else:
        other = services.create_group(ann_user, "Elsewhere", "EUR", 1, "standard")
        gone = services.add_player(other, "Zed", by=ann_user)
    rows_before = list(LedgerEntry.objects.values_list("pk", "player_a_id", "player_b_id"))

    with pytest.raises(services.ServiceError, match=message) as caught:
        services.merge_players(group, ann, gone, ann_user)

    assert caught.value.field == "into"
    assert Player.objects.filter(pk=anne.pk).exists()
    assert list(LedgerEntry.objects.values_list("pk", "player_a_id", "player_b_id")) == (
        rows_before
    )
    assert not PlayerMerge.objects.exists()


def test_only_owners_merge(
    group: Group, players: dict[str, Player], anne: Player, bob_user: User
) -> None:
    with pytest.raises(services.NotAllowed):
        services.merge_players(group, players["Ann"], anne, bob_user)
    assert Player.objects.filter(pk=anne.pk).exists()


def test_a_retired_player_keeps_history_and_sits_at_no_new_session(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    seats = [players[n] for n in ("Ann", "Bob", "Cy", "Di")]
    first = night(group, seats, ann_user, 20, seed=5)
    before = standing(group)
    with pytest.raises(services.NotAllowed):
        services.update_player(players["Di"], bob_user, retired=True)

    di = services.update_player(players["Di"], ann_user, retired=True)

    assert di.is_retired
    assert standing(group) == before
    assert "Di" in balance(group)
    assert [p["name"] for p in reports.session_summary(first)["players"]] == [
        "Ann",
        "Bob",
        "Cy",
        "Di",
    ]
    with pytest.raises(services.ServiceError, match="Di retired") as caught:
        services.start_session(group, seats, ann_user)
    assert caught.value.field == "players"
    with pytest.raises(services.ServiceError, match="already has a player named 'Di'"):
        services.add_player(group, "di", by=ann_user)
    services.update_player(di, ann_user, retired=False)
    assert services.start_session(group, seats, ann_user).seats.count() == 4


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seeds=st.lists(st.integers(0, 10_000), min_size=1, max_size=3),
    who=st.sampled_from(["Ann", "Cy"]),
    paid=st.decimals(min_value=1, max_value=50, places=2),
)
def test_random_nights_and_a_merge_keep_every_sum(
    ann_user: User, seeds: list[int], who: str, paid: Decimal
) -> None:
    group = services.create_group(ann_user, "Random club", "EUR", Decimal("0.5"), "classic-1-6")
    named: dict[str, Any] = {
        name: services.add_player(group, name, by=ann_user)
        for name in ("Ann", "Bob", "Cy", "Di", "Twin")
    }
    for k, seed in enumerate(seeds):
        # The twin sits at the odd nights in the place of the one they will be merged into.
        table = ["Bob", "Di", "Twin" if k % 2 else who]
        night(group, [named[n] for n in table], ann_user, 1 + k, seed)
    services.record_payment(group, named["Twin"], named["Bob"], paid, ann_user, confirmed=True)
    before = standing(group)

    services.merge_players(group, named[who], named["Twin"], ann_user)

    after = standing(group)
    assert after[who] == plus(before[who], before.get("Twin", (ZERO, ZERO, 0, 0)))
    assert_sums(group)
