"""What is still owed: across nights per player and per opponent, and for one night.

A balance is the money won at the table less the confirmed payments, every amount a sum of
ledger rows read through ``games.reports.ledger`` (deals' rows by their session's date,
payments' rows by the payment's date). Positive: the player is owed. Pending payments are
shown beside the balances, never in them. Players are named by their current names.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from games.engine.settlement import Transfer, fewest_transfers, pair_settlement
from games.lib.locales import by_name
from games.models import Group, Payment, Player, Session
from games.reports.ledger import (
    NOTHING,
    Amounts,
    PairSums,
    added,
    nets,
    night_pairs,
    pair_sums,
    payment_ledger,
    play_ledger,
    session_ledger,
)
from games.words.notes import note_of

ZERO = Decimal(0)


def _pending(payments: Any) -> PairSums:
    """Pending payments as pair sums (what each pair's first player would get back)."""
    out: PairSums = {}
    rows = payments.filter(status=Payment.Status.PENDING).values_list("payer_id", "payee_id")
    for payer, payee, amount in rows.annotate(m=Sum("amount")).order_by():
        a, b, money = (payer, payee, amount) if payer < payee else (payee, payer, -amount)
        old = out.get((a, b), NOTHING)
        out[(a, b)] = Amounts(old.units, old.money + money)
    return out


def night_outstanding(session: Session) -> PairSums:
    """The night's pair sums less the payments recorded for it, pending ones included."""
    return added(night_pairs(session), _pending(Payment.objects.filter(session=session)))


def _names(group: Group) -> dict[int, str]:
    return dict(group.players.values_list("pk", "name"))


def _transfers(pairs: PairSums, names: dict[int, str], *, pair_by_pair: bool) -> list[Transfer]:
    if pair_by_pair:
        # Settled some other way (say, by the fewest transfers): nobody owes anything on
        # the whole, whatever each pair still shows.
        if not any(amounts.money for amounts in nets(pairs).values()):
            return []
        return pair_settlement(
            {(names[a], names[b]): money for (a, b), (_, money) in pairs.items() if money}
        )
    return fewest_transfers({names[pk]: amounts.money for pk, amounts in nets(pairs).items()})


def night_transfers(session: Session, *, pair_by_pair: bool = False) -> list[Transfer]:
    """Who still pays whom for the night (payer, payee, money), by current player names."""
    return _transfers(night_outstanding(session), _names(session.group), pair_by_pair=pair_by_pair)


def night_settlement(
    session: Session, *, listed: bool = True, play: PairSums | None = None
) -> dict[str, Any]:
    """The night's payments (unless not ``listed``) and what is still owed: each player's
    money won, paid and received (confirmed), pending, and ``outstanding``; the transfers
    still to record. A fixed number of queries, however many players and payments.
    ``play``: the session's ``pair_sums`` when the caller has them (the night's end page
    sums the ledger once for everything it shows)."""
    names = _names(session.group)
    if play is None:
        play = pair_sums(session_ledger(session))
    paid = pair_sums(payment_ledger(session.group, session=session))
    payments = Payment.objects.filter(session=session)
    asked = _pending(payments)
    outstanding = added(play, paid, asked)
    won, settled, pending = nets(play), nets(paid), nets(asked)
    players = [
        {
            "id": pk,
            "name": names[pk],
            "money": won.get(pk, NOTHING).money,
            "payments": settled.get(pk, NOTHING).money,
            "pending": pending.get(pk, NOTHING).money,
            "balance": won.get(pk, NOTHING).money + settled.get(pk, NOTHING).money,
        }
        for pk in session.seat_names()
    ]
    return {
        "currency": session.group.currency,
        "players": players,
        "payments": payment_list(payments) if listed else [],
        "transfers": [_transfer(t) for t in _transfers(outstanding, names, pair_by_pair=False)],
        "pairs": [_transfer(t) for t in _transfers(outstanding, names, pair_by_pair=True)],
    }


def _transfer(transfer: Transfer) -> dict[str, Any]:
    payer, payee, amount = transfer
    return {"payer": payer, "payee": payee, "amount": amount}


def payment_list(payments: Any) -> list[dict[str, Any]]:
    """Payments as the reports and the API show them, in date order."""
    rows = payments.select_related("payer", "payee", "session").order_by("date", "pk")
    return [payment_data(payment) for payment in rows]


def payment_data(payment: Payment) -> dict[str, Any]:
    return {
        "id": payment.pk,
        "session": payment.session_id,
        "payer": {"id": payment.payer_id, "name": payment.payer.name},
        "payee": {"id": payment.payee_id, "name": payment.payee.name},
        "amount": payment.amount,
        "date": payment.date,
        "note": note_of(payment),
        "note_code": payment.note_code,
        "status": payment.status,
        "version": payment.version,
    }


def _paid_received(
    group: Group, date_from: datetime.date | None, date_to: datetime.date | None
) -> tuple[dict[int, Decimal], dict[int, Decimal]]:
    rows = payment_ledger(group, date_from, date_to).order_by()
    paid = dict(rows.values_list("player_a_id").annotate(m=Sum("money")))
    received = dict(rows.values_list("player_b_id").annotate(m=Sum("money")))
    return paid, received


def group_balances(
    group: Group,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[str, Any]:
    """Each player's balance over the dates (money won at the table, paid, received, owed
    now) and against each opponent, and the fewest transfers that clear everything."""
    play = pair_sums(play_ledger(group, date_from, date_to))
    pay = pair_sums(payment_ledger(group, date_from, date_to))
    owed = added(play, pay)
    won, net = nets(play), nets(owed)
    paid, received = _paid_received(group, date_from, date_to)
    pending_payments = Payment.objects.filter(group=group)
    if date_from is not None:
        pending_payments = pending_payments.filter(date__gte=date_from)
    if date_to is not None:
        pending_payments = pending_payments.filter(date__lte=date_to)
    pending = nets(_pending(pending_payments))
    names = _names(group)
    players = [
        {
            "id": pk,
            "name": name,
            "units": won.get(pk, NOTHING).units,
            "won": won.get(pk, NOTHING).money,
            "paid": paid.get(pk, ZERO),
            "received": received.get(pk, ZERO),
            "pending": pending.get(pk, NOTHING).money,
            "balance": net.get(pk, NOTHING).money,
        }
        for pk, name in by_name(names.items(), lambda item: item[1])
        if pk in won or pk in net or pk in paid or pk in received
    ]
    return {
        "currency": group.currency,
        "unit_value": group.unit_value,
        "date_from": date_from,
        "date_to": date_to,
        "players": players,
        "opponents": _opponent_rows(play, pay, names),
        "transfers": [_transfer(t) for t in _transfers(owed, names, pair_by_pair=False)],
    }


def _opponent_rows(play: PairSums, pay: PairSums, names: dict[int, str]) -> list[dict[str, Any]]:
    """Each pair from both sides: what the player won from the opponent (units, money),
    the payments between them (net, paid by the player) and the balance."""
    rows = []
    for a, b in sorted(set(play) | set(pay)):
        won = play.get((a, b), NOTHING)
        paid = pay.get((a, b), NOTHING).money
        for me, other, sign in ((a, b, 1), (b, a, -1)):
            rows.append(
                {
                    "player": names[me],
                    "player_id": me,
                    "opponent": names[other],
                    "opponent_id": other,
                    "units": sign * won.units,
                    "won": sign * won.money,
                    "paid": sign * paid,
                    "balance": sign * (won.money + paid),
                }
            )
    rows.sort(key=lambda row: (row["player"], row["opponent"]))
    return rows


def clear_everything(group: Group) -> list[Transfer]:
    """The fewest transfers that bring every current balance (all dates) to zero."""
    return _transfers(owed_now(group), _names(group), pair_by_pair=False)


def owed_now(group: Group) -> PairSums:
    return added(pair_sums(play_ledger(group)), pair_sums(payment_ledger(group)))


def player_balance(group: Group, player: Player) -> Amounts:
    """One player's balance now: units won at the table, money owed (positive: is owed)."""
    return nets(owed_now(group)).get(player.pk, NOTHING)
