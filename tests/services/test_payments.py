"""Payments: recorded, confirmed by the payee, corrected and voided with history;
a night settled in one action; balances across nights always the sum of their rows.

Ann owns the group (and plays as Ann), Bob is a member (and plays as Bob); Cy and Di are
guests with no user, so only Ann (an owner) confirms what they receive.
"""

from __future__ import annotations

import datetime
import itertools
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import reports, services
from games.errors import HasHistory, PaymentNotPending, PaymentVoid, ServiceError
from games.models import Deal, Group, LedgerEntry, Payment, Player, Session
from games.reports.balances import clear_everything, night_outstanding, night_transfers
from games.reports.ledger import nets, owed_pairs
from tests.services.hands import deal

D = Decimal
NAMES = ("Ann", "Bob", "Cy", "Di")
ROTATIONS = [dict(zip(NAMES, "ABCD"[k:] + "ABCD"[:k], strict=True)) for k in range(4)]


def play(session: Session, by: User, rotation: int = 0) -> Deal:
    return services.record_deal(session, deal(**ROTATIONS[rotation % 4]), by)


def money_of(group: Group) -> dict[str, Decimal]:
    """Every player's balance as the report gives it, by name."""
    return {row["name"]: row["balance"] for row in reports.group_balances(group)["players"]}


def summed_rows(group: Group) -> dict[int, Decimal]:
    """Each player's money straight from the rows: won as player_a, lost as player_b."""
    rows = LedgerEntry.objects.filter(deal__session__group=group) | LedgerEntry.objects.filter(
        payment__group=group
    )
    # Summed here, row by row: SQLite's SUM adds in floating point, which the oracle of a
    # test about exact money must not (-5.56 came back as -5.5600000000000001).
    out: dict[int, Decimal] = {}
    for a, b, money in rows.values_list("player_a_id", "player_b_id", "money"):
        out[a] = out.get(a, D(0)) + money
        out[b] = out.get(b, D(0)) - money
    return out


def summed_pair_rows(group: Group) -> dict[tuple[int, int], Decimal]:
    """(player, opponent) -> what the opponent owes the player, straight from the rows."""
    rows = LedgerEntry.objects.filter(deal__session__group=group) | LedgerEntry.objects.filter(
        payment__group=group
    )
    out: dict[tuple[int, int], Decimal] = {}
    for a, b, money in rows.values_list("player_a_id", "player_b_id", "money"):
        out[a, b] = out.get((a, b), D(0)) + money
        out[b, a] = out.get((b, a), D(0)) - money
    return out


def test_a_pending_payment_counts_nowhere_until_the_payee_confirms(
    session: Session, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    play(session, bob_user)  # Ann -8 units (x0.5 EUR): -4.00; Bob +2.00
    group = session.group
    assert money_of(group)["Ann"] == D("-4")
    payment = services.record_payment(
        group, players["Ann"], players["Bob"], "4", ann_user, session=session, note="cash"
    )
    assert payment.status == Payment.Status.PENDING
    assert money_of(group)["Ann"] == D("-4")
    assert not LedgerEntry.objects.filter(payment=payment).exists()
    carol = User.objects.create_user("carol")
    services.add_member(group, carol, "member", by=ann_user)
    with pytest.raises(ServiceError, match="only the payee"):  # Bob (the payee) or an owner
        services.confirm_payment(payment, carol)
    confirmed = services.confirm_payment(payment, bob_user)
    assert confirmed.status == Payment.Status.CONFIRMED
    assert money_of(group)["Ann"] == D("0")
    assert money_of(group)["Bob"] == D("-2")  # he was owed 2.00 and has 4.00 more
    row = LedgerEntry.objects.get(payment=payment)
    assert (row.kind, row.player_a_id, row.player_b_id, row.money, row.units) == (
        "payment",
        players["Ann"].pk,
        players["Bob"].pk,
        D("4"),
        D("0"),
    )
    with pytest.raises(PaymentNotPending):
        services.confirm_payment(payment, bob_user)


def test_only_the_payee_or_an_owner_confirms_and_voids(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    to_cy = services.record_payment(group, players["Bob"], players["Cy"], "3", bob_user)
    with pytest.raises(ServiceError, match="only the payee or an owner"):
        services.confirm_payment(to_cy, bob_user)  # Cy is a guest: an owner confirms
    services.confirm_payment(to_cy, ann_user)
    with pytest.raises(ServiceError, match="only the payee or an owner"):
        services.void_payment(to_cy, bob_user)
    with pytest.raises(ServiceError, match="only the payee or an owner"):
        services.record_payment(group, players["Cy"], players["Ann"], "1", bob_user, confirmed=True)
    mine = services.record_payment(
        group, players["Cy"], players["Bob"], "1", bob_user, confirmed=True
    )
    assert mine.status == Payment.Status.CONFIRMED


def test_a_correction_keeps_history_and_a_members_correction_needs_confirming_again(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    payment = services.record_payment(
        group, players["Ann"], players["Bob"], "10", ann_user, confirmed=False
    )
    services.confirm_payment(payment, bob_user)
    assert money_of(group)["Ann"] == D("10")
    edited = services.edit_payment(payment, {"amount": "7.5"}, ann_user, "it was 7.50")
    # Ann owns the group, so her correction stays confirmed.
    assert (edited.status, edited.amount, edited.version) == ("confirmed", D("7.5"), 3)
    assert money_of(group)["Ann"] == D("7.5")
    edited = services.edit_payment(edited, {"payee": players["Cy"]}, bob_user, "to Cy")
    # Bob is neither Cy's user nor an owner: back to pending, counting nowhere.
    assert edited.status == Payment.Status.PENDING
    assert money_of(group) == {}
    services.confirm_payment(edited, ann_user)
    voided = services.void_payment(edited, ann_user, "never happened")
    assert voided.status == Payment.Status.VOID
    assert not LedgerEntry.objects.filter(payment=voided).exists()
    history = list(voided.revisions.values_list("version", "action", "amount", "status", "reason"))
    assert history == [
        (1, "confirm", D("10"), "pending", ""),
        (2, "edit", D("10"), "confirmed", "it was 7.50"),
        (3, "edit", D("7.5"), "confirmed", "to Cy"),
        (4, "confirm", D("7.5"), "pending", ""),
        (5, "void", D("7.5"), "confirmed", "never happened"),
    ]
    with pytest.raises(PaymentVoid):
        services.edit_payment(voided, {"amount": "1"}, ann_user)


@pytest.mark.parametrize(
    ("amount", "field"),
    [
        ("0", "amount"),
        ("-1", "amount"),
        ("1.00001", "amount"),
        ("abc", "amount"),
        ("1e20", "amount"),
    ],
)
def test_amounts_are_checked(
    group: Group, players: dict[str, Player], ann_user: User, amount: str, field: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        services.record_payment(group, players["Ann"], players["Bob"], amount, ann_user)
    assert refused.value.field == field


def test_a_payment_is_between_two_players_of_the_group(
    group: Group, players: dict[str, Player], ann_user: User, stranger: User
) -> None:
    with pytest.raises(ServiceError, match="two different players"):
        services.record_payment(group, players["Ann"], players["Ann"], "1", ann_user)
    other = services.create_group(stranger, "Elsewhere", "EUR", D(1), "classic-1-6")
    eve = services.add_player(other, "Eve", by=stranger)
    with pytest.raises(ServiceError):
        services.record_payment(group, players["Ann"], eve, "1", ann_user)
    with pytest.raises(services.NotAllowed):
        services.record_payment(group, players["Ann"], players["Bob"], "1", stranger)


def test_a_player_with_payments_is_not_deleted(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    services.record_payment(group, players["Cy"], players["Di"], "1", ann_user)
    with pytest.raises(HasHistory):
        services.delete_player(players["Cy"], ann_user)


@pytest.mark.parametrize("pair_by_pair", [False, True])
def test_settling_a_night_records_pending_payments_that_zero_it_once_confirmed(
    session: Session, ann_user: User, bob_user: User, pair_by_pair: bool
) -> None:
    for k in range(3):
        play(session, bob_user, k)
    made = services.settle_session(session, bob_user, pair_by_pair=pair_by_pair)
    assert made and all(p.status == Payment.Status.PENDING and p.session == session for p in made)
    # Asked once: settling again finds nothing left to ask for.
    with pytest.raises(ServiceError, match="nothing is owed"):
        services.settle_session(session, bob_user, pair_by_pair=pair_by_pair)
    assert any(row["balance"] for row in reports.night_settlement(session)["players"])
    for payment in made:
        services.confirm_payment(payment, ann_user)
    night = reports.night_settlement(session)
    assert [row["balance"] for row in night["players"]] == [D(0)] * 4
    assert night["transfers"] == [] and night["pairs"] == []
    assert all(amounts.money == 0 for amounts in nets(night_outstanding(session)).values())


# --- properties -----------------------------------------------------------------------------

operations = st.lists(
    st.one_of(
        st.tuples(st.just("deal"), st.integers(0, 3)),
        st.tuples(st.just("edit"), st.integers(0, 20), st.integers(0, 3)),
        st.tuples(st.just("void"), st.integers(0, 20)),
        st.tuples(st.just("restore"), st.integers(0, 20)),
        st.tuples(
            st.just("pay"),
            st.sampled_from(list(itertools.permutations(NAMES, 2))),
            st.decimals(D("0.01"), D("50"), places=2),
            st.booleans(),
            st.integers(0, 1),
        ),
        st.tuples(st.just("confirm"), st.integers(0, 20)),
        st.tuples(st.just("repay"), st.integers(0, 20), st.decimals(D("0.01"), D("9"), places=2)),
        st.tuples(st.just("unpay"), st.integers(0, 20)),
    ),
    max_size=14,
)


def _apply(
    op: tuple[Any, ...],
    sessions: list[Session],
    players: dict[str, Player],
    owner: User,
) -> None:
    deals = list(Deal.objects.filter(session__in=sessions).order_by("pk"))
    payments = list(Payment.objects.filter(group=sessions[0].group).order_by("pk"))
    kind = op[0]
    try:
        if kind == "deal":
            play(sessions[op[1] % len(sessions)], owner, op[1])
        elif kind == "edit" and deals:
            chosen = deals[op[1] % len(deals)]
            services.edit_deal(chosen, deal(**ROTATIONS[op[2]]), owner, "fix")
        elif kind == "void" and deals:
            services.void_deal(deals[op[1] % len(deals)], owner, "twice")
        elif kind == "restore" and deals:
            services.restore_deal(deals[op[1] % len(deals)], owner, "back")
        elif kind == "pay":
            (payer, payee), amount, confirmed, night = op[1:]
            services.record_payment(
                sessions[0].group,
                players[payer],
                players[payee],
                amount,
                owner,
                session=sessions[night % len(sessions)],
                confirmed=confirmed,
            )
        elif kind == "confirm" and payments:
            services.confirm_payment(payments[op[1] % len(payments)], owner)
        elif kind == "repay" and payments:
            services.edit_payment(payments[op[1] % len(payments)], {"amount": op[2]}, owner)
        elif kind == "unpay" and payments:
            services.void_payment(payments[op[1] % len(payments)], owner, "no")
    except ServiceError:  # a void deal edited, a payment confirmed twice: refused, fine
        pass


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=operations)
def test_every_balance_is_the_sum_of_its_rows_and_settling_zeroes_a_night(
    ops: list[tuple[Any, ...]],
    group: Group,
    players: dict[str, Player],
    ann_user: User,
) -> None:
    with transaction.atomic():
        seats = [players[name] for name in NAMES]
        sessions = [
            services.start_session(group, seats, ann_user, date=datetime.date(2026, 11, day))
            for day in (6, 13)
        ]
        for op in ops:
            _apply(op, sessions, players, ann_user)
        # Every balance equals the sum of its rows, and the group sums to zero.
        by_pk = {row["id"]: row["balance"] for row in reports.group_balances(group)["players"]}
        rows = summed_rows(group)
        assert {pk: v for pk, v in by_pk.items() if v} == {pk: v for pk, v in rows.items() if v}
        assert sum(by_pk.values(), D(0)) == 0
        # Independently: the deals' stored results less the confirmed payments.
        expected: dict[int, Decimal] = {}
        for d in Deal.objects.filter(session__in=sessions, status="active"):
            seated = d.session.seated()
            for pair in d.result["pairs"]:
                a, b = (seated[name] for name in pair["players"])
                expected[a] = expected.get(a, D(0)) + D(pair["money"])
                expected[b] = expected.get(b, D(0)) - D(pair["money"])
        for p in Payment.objects.filter(group=group, status="confirmed"):
            expected[p.payer_id] = expected.get(p.payer_id, D(0)) + p.amount
            expected[p.payee_id] = expected.get(p.payee_id, D(0)) - p.amount
        assert {k: v for k, v in expected.items() if v} == {k: v for k, v in rows.items() if v}
        # Per opponent: each pair's balance is the sum of that pair's rows, from either side.
        against = {
            (row["player_id"], row["opponent_id"]): row["balance"]
            for row in reports.group_balances(group)["opponents"]
        }
        pair_rows = summed_pair_rows(group)
        assert {k: v for k, v in against.items() if v} == {k: v for k, v in pair_rows.items() if v}
        assert all(against[b, a] == -balance for (a, b), balance in against.items())
        # The per-opponent ledger (deals and payments) ends at the same balances.
        for player in seats:
            for entry in reports.opponent_ledger(group, player)["opponents"]:
                balance = against.get((player.pk, entry["id"]), D(0))
                assert entry["balance_money"] == balance
                assert entry["deals"][-1]["balance_money"] == balance
        # The suggested transfers recorded as confirmed payments bring each night to zero.
        for session in sessions:
            for payer, payee, amount in night_transfers(session):
                services.record_payment(
                    group,
                    group.players.get(name=payer),
                    group.players.get(name=payee),
                    amount,
                    ann_user,
                    session=session,
                    confirmed=True,
                )
            assert all(v.money == 0 for v in nets(night_outstanding(session)).values())
        transaction.set_rollback(True)


# --- clear everything against a brute force ------------------------------------------------


def brute_force_fewest(balances: dict[str, Decimal]) -> int:
    """The fewest transfers settling ``balances``: players with a balance less the most
    parts, each summing to zero, they split into (every set partition tried)."""
    people = [name for name, amount in balances.items() if amount]

    def partitions(items: list[str]) -> Any:
        if not items:
            yield []
            return
        first, rest = items[0], items[1:]
        for part in partitions(rest):
            for k in range(len(part)):
                yield [*part[:k], [first, *part[k]], *part[k + 1 :]]
            yield [[first], *part]

    best = 0
    for partition in partitions(people):
        if all(sum((balances[n] for n in part), D(0)) == 0 for part in partition):
            best = max(best, len(partition))
    return len(people) - best


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    payments=st.lists(
        st.tuples(st.sampled_from(list(itertools.permutations(range(6), 2))), st.integers(1, 6)),
        max_size=9,
    )
)
def test_clear_everything_is_as_few_transfers_as_a_brute_force_finds(
    payments: list[tuple[tuple[int, int], int]], group: Group, ann_user: User
) -> None:
    with transaction.atomic():
        people = [services.add_player(group, f"P{k}", by=ann_user) for k in range(6)]
        for (payer, payee), amount in payments:  # confirmed payments alone make balances
            services.record_payment(
                group, people[payer], people[payee], amount, ann_user, confirmed=True
            )
        balances = {p.name: a.money for p, a in ((p, _net(group, p)) for p in people)}
        transfers = clear_everything(group)
        assert len(transfers) == brute_force_fewest(balances)
        after = dict(balances)
        for giver, taker, paid in transfers:
            after[giver] += paid
            after[taker] -= paid
        assert all(v == 0 for v in after.values())
        transaction.set_rollback(True)


def _net(group: Group, player: Player) -> Any:
    from games.reports.ledger import NOTHING

    return nets(owed_pairs(group)).get(player.pk, NOTHING)


def test_a_group_with_payments_is_deleted_with_them(
    session: Session, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    play(session, bob_user)
    services.settle_session(session, ann_user)
    services.record_payment(
        session.group, players["Cy"], players["Di"], "1", ann_user, confirmed=True
    )
    services.delete_group(session.group, ann_user, confirm=session.group.name)
    assert not Payment.objects.exists() and not LedgerEntry.objects.exists()
