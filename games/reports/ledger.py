"""The one reader of the ledger: balances, pair sums, running totals and settlement.

Every amount is a sum of ``LedgerEntry`` rows, added up in the database. A void deal has
no ledger rows, so every sum here already leaves it out; nor has a payment until its payee
confirms it. A session's rows are its deals' (what was won at the table); the rows of
payments are read beside them (``payment_ledger``) where what is still owed is asked.
Players are named as they sat down at the session (``Session.seat_names``), in seat order.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from django.db.models import (
    Case,
    Count,
    DecimalField,
    ExpressionWrapper,
    F,
    IntegerField,
    Max,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.utils import translation

from games.engine.settlement import Transfer, fewest_transfers, pair_settlement
from games.models import Deal, Group, LedgerEntry, Session
from games.words.notes import payment_note

ZERO = Decimal(0)


class Amounts(NamedTuple):
    units: Decimal
    money: Decimal


NOTHING = Amounts(ZERO, ZERO)

# (a id, b id) with a < b -> what a won from b.
PairSums = dict[tuple[int, int], Amounts]


class RunningTotal(NamedTuple):
    """Every seated player's totals after one active deal."""

    number: int
    totals: dict[str, Amounts]


def session_ledger(session: Session) -> QuerySet[LedgerEntry]:
    return LedgerEntry.objects.filter(deal__session=session)


def dated(
    ledger: QuerySet[LedgerEntry],
    date_from: datetime.date | None,
    date_to: datetime.date | None,
) -> QuerySet[LedgerEntry]:
    """The rows of the sessions played between the two dates (both included; None: open)."""
    if date_from is not None:
        ledger = ledger.filter(deal__session__date__gte=date_from)
    if date_to is not None:
        ledger = ledger.filter(deal__session__date__lte=date_to)
    return ledger


def play_ledger(
    group: Group, date_from: datetime.date | None = None, date_to: datetime.date | None = None
) -> QuerySet[LedgerEntry]:
    """The rows of the group's deals, of sessions between the two dates."""
    return dated(LedgerEntry.objects.filter(deal__session__group=group), date_from, date_to)


def payment_ledger(
    group: Group,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    *,
    session: Session | None = None,
) -> QuerySet[LedgerEntry]:
    """The rows of the group's confirmed payments made between the two dates (or of those
    that settle one session): payer as ``player_a``, payee as ``player_b``, money only."""
    rows = LedgerEntry.objects.filter(payment__group=group)
    if session is not None:
        rows = rows.filter(payment__session=session)
    if date_from is not None:
        rows = rows.filter(payment__date__gte=date_from)
    if date_to is not None:
        rows = rows.filter(payment__date__lte=date_to)
    return rows


def payment_lines(
    rows: QuerySet[LedgerEntry], player_id: int, language: str | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The payment rows (in the order given) from one player's side: (opponent id, line),
    each line the payment's ``date``, ``payment`` id, the ``session`` it settles, the
    ``direction`` ("paid" or "received"), ``note`` (``games.words.notes``: in ``language``,
    by default the one active as the lines are read), no ``units`` and the ``money``
    (positive: the player paid, which the opponent now owes back). Read through a cursor."""
    values = rows.values_list(
        "payment_id",
        "payment__date",
        "payment__session_id",
        "payment__note",
        "payment__note_code",
        "payment__session__date",
        "player_a_id",
        "player_b_id",
        "money",
    )
    for payment, date, session_id, note, code, night, a, b, money in values.iterator(2000):
        other, sign = (b, 1) if a == player_id else (a, -1)
        if code:
            with translation.override(language or translation.get_language()):
                note = payment_note(note, code, night)
        yield (
            other,
            {
                "kind": "payment",
                "date": date,
                "payment": payment,
                "session": session_id,
                "direction": "paid" if sign == 1 else "received",
                "note": note,
                "units": ZERO,
                "money": sign * money,
            },
        )


def added(*sums: PairSums) -> PairSums:
    """Pair sums added pair by pair."""
    out: PairSums = {}
    for pairs in sums:
        for key, (units, money) in pairs.items():
            old = out.get(key, NOTHING)
            out[key] = Amounts(old.units + units, old.money + money)
    return out


def owed_pairs(
    group: Group, date_from: datetime.date | None = None, date_to: datetime.date | None = None
) -> PairSums:
    """What each pair's first player is owed by the second: the money won at the table
    (and the units) between the two dates, less the confirmed payments of those dates."""
    return added(
        pair_sums(play_ledger(group, date_from, date_to)),
        pair_sums(payment_ledger(group, date_from, date_to)),
    )


def night_pairs(session: Session) -> PairSums:
    """The session's pair sums, less the confirmed payments that settle it."""
    return added(
        pair_sums(session_ledger(session)),
        pair_sums(payment_ledger(session.group, session=session)),
    )


def pair_sums(ledger: QuerySet[LedgerEntry]) -> PairSums:
    """(a id, b id) -> the units and money that a won from b, summed in the database."""
    rows = ledger.values_list("player_a_id", "player_b_id").annotate(u=Sum("units"), m=Sum("money"))
    return sums_of(rows.order_by())


def night_pair_rows(ledger: QuerySet[LedgerEntry]) -> list[tuple[Any, ...]]:
    """The deal rows summed per session and pair in one query: (session id, a id, b id,
    units, money, deals), a pair perhaps in both orders within a session."""
    return list(
        ledger.values_list("deal__session_id", "player_a_id", "player_b_id")
        .annotate(u=Sum("units"), m=Sum("money"), n=Count("pk"))
        .order_by()
    )


def sums_of(rows: Iterable[Sequence[Any]]) -> PairSums:
    """``pair_sums`` from rows of (a id, b id, units, money, ...) as the database summed
    them, a pair perhaps in both orders."""
    out: PairSums = {}
    for a, b, units, money, *_ in rows:
        # One pair may be stored in either order by deals seated differently.
        if a > b:
            a, b, units, money = b, a, -units, -money
        old = out.get((a, b), NOTHING)
        out[(a, b)] = Amounts(old.units + units, old.money + money)
    return out


def nets(pairs: PairSums) -> dict[int, Amounts]:
    """Player id -> the player's total over the pairs they are in."""
    net: dict[int, Amounts] = {}
    for (a, b), (units, money) in pairs.items():
        for pk, sign in ((a, 1), (b, -1)):
            old = net.get(pk, NOTHING)
            net[pk] = Amounts(old.units + sign * units, old.money + sign * money)
    return net


def balances(session: Session, pairs: PairSums | None = None) -> dict[str, Amounts]:
    """Each seated player's units and money over the session's active deals, in seat order.

    ``pairs``: the session's ``pair_sums``, when already read.
    """
    if pairs is None:
        pairs = pair_sums(session_ledger(session))
    net = nets(pairs)
    return {name: net.get(pk, NOTHING) for pk, name in session.seat_names().items()}


def pair_matrix(session: Session, pairs: PairSums | None = None) -> dict[str, dict[str, Amounts]]:
    """``matrix[x][y]``: what x won from y over the session; ``matrix[y][x]`` is its negative."""
    if pairs is None:
        pairs = pair_sums(session_ledger(session))
    name_of = session.seat_names()
    names = list(name_of.values())
    matrix = {x: dict.fromkeys((y for y in names if y != x), NOTHING) for x in names}
    for (a, b), (units, money) in pairs.items():
        matrix[name_of[a]][name_of[b]] = Amounts(units, money)
        matrix[name_of[b]][name_of[a]] = Amounts(-units, -money)
    return matrix


def _player_columns(session: Session, field: str) -> dict[str, Sum]:
    """A ``Sum`` per seated player (``p<id>``) of ``field`` won by that player, seat order."""
    amount = DecimalField(max_digits=14, decimal_places=4)
    return {
        f"p{pk}": Sum(
            Case(
                When(player_a_id=pk, then=F(field)),
                When(player_b_id=pk, then=-F(field)),
                default=Value(ZERO),
                output_field=amount,
            )
        )
        for pk in session.seat_names()
    }


def running_sums(session: Session, field: str) -> Iterator[tuple[int, list[Decimal]]]:
    """After each active deal, in deal order: its number and every seated player's
    cumulative ``field`` ("units" or "money"), in seat order.

    The database sums each deal's rows into one row per deal, a column per player.
    """
    columns = _player_columns(session, field)
    rows = (
        session_ledger(session)
        .values("deal__number")
        .annotate(**columns)
        .order_by("deal__number")
        .values_list("deal__number", *columns)
    )
    totals = [ZERO] * len(columns)
    for number, *deltas in rows:
        totals = [total + delta for total, delta in zip(totals, deltas, strict=True)]
        yield number, totals


def running_window(
    session: Session, field: str, offset: int, limit: int, final: list[Decimal]
) -> list[tuple[int, list[Decimal]]]:
    """``running_sums`` from the ``offset``-th active deal (0 the first), at most ``limit``
    of them, reading only the rows from the window on, whatever the session's length.

    ``final`` is every seated player's total over the whole session (seat order): the total
    before the window is ``final`` less what the window's deals and those after it add,
    so the deals before the window are never read (the window at the end, the default,
    reads its own deals' rows alone)."""
    active = session.deals.filter(status=Deal.Status.ACTIVE).order_by("number")
    numbers = list(active.values_list("number", flat=True)[offset : offset + limit])
    if not numbers:
        return []
    columns = _player_columns(session, field)
    later = session_ledger(session).filter(deal__number__gte=numbers[0])
    rows = list(
        later.filter(deal__number__lte=numbers[-1])
        .values("deal__number")
        .annotate(**columns)
        .order_by("deal__number")
        .values_list("deal__number", *columns)
    )
    after: dict[str, Decimal | None] = dict.fromkeys(columns, ZERO)
    if active.filter(number__gt=numbers[-1]).exists():
        after = later.filter(deal__number__gt=numbers[-1]).aggregate(**columns)
    totals = [
        start - sum((row[k + 1] for row in rows), ZERO) - (after[column] or ZERO)
        for k, (start, column) in enumerate(zip(final, columns, strict=True))
    ]
    out = []
    for number, *deltas in rows:
        totals = [total + delta for total, delta in zip(totals, deltas, strict=True)]
        out.append((number, totals))
    return out


class Runs(NamedTuple):
    """A session's ledger summed run by run: see ``running_points``."""

    step: int
    points: list[tuple[int, list[Decimal]]]
    pairs: PairSums


def running_points(session: Session, points: int) -> Runs:
    """At most ``points`` of the running units, for a chart of a session of any length,
    and the session's ``pair_sums``, from one pass over its ledger rows.

    The deals are cut into runs of ``step`` consecutive numbers (1 while the session has
    at most ``points`` deals); the database sums each run's rows pair by pair, so what it
    sends back is at most ``points`` x pairs rows however long the session. Each point is
    the last active deal number of its run and every seated player's cumulative units
    after it, in seat order.
    """
    last = session.last_deal_number
    step = max(1, -(-last // points))
    run = ExpressionWrapper((F("deal__number") - 1) / step, output_field=IntegerField())
    rows = (
        session_ledger(session)
        .annotate(run=run)
        .values_list("run", "player_a_id", "player_b_id")
        .annotate(upto=Max("deal__number"), u=Sum("units"), m=Sum("money"))
        .order_by("run")
    )
    seat = {pk: k for k, pk in enumerate(session.seat_names())}
    totals = [ZERO] * len(seat)
    pairs: PairSums = {}
    out: list[tuple[int, list[Decimal]]] = []
    current, last_number = None, 0
    for at, a, b, upto, units, money in rows:
        if at != current:
            if current is not None:
                out.append((last_number, list(totals)))
            current, last_number = at, upto
        last_number = max(last_number, upto)
        totals[seat[a]] += units
        totals[seat[b]] -= units
        if a > b:
            a, b, units, money = b, a, -units, -money
        old = pairs.get((a, b), NOTHING)
        pairs[(a, b)] = Amounts(old.units + units, old.money + money)
    if current is not None:
        out.append((last_number, list(totals)))
    return Runs(step, out, pairs)


def running_totals(session: Session) -> list[RunningTotal]:
    """Everyone's units and money after each active deal, in deal order."""
    names = list(session.seat_names().values())
    units = running_sums(session, "units")
    money = running_sums(session, "money")
    return [
        RunningTotal(
            number,
            {
                name: Amounts(u, m)
                for name, u, m in zip(names, unit_totals, money_totals, strict=True)
            },
        )
        for (number, unit_totals), (_, money_totals) in zip(units, money, strict=True)
    ]


def transfers(
    session: Session, *, pair_by_pair: bool = False, pairs: PairSums | None = None
) -> list[Transfer]:
    """Who pays whom (payer, payee, money): the fewest transfers, or one per pair."""
    if pairs is None:
        pairs = pair_sums(session_ledger(session))
    if pair_by_pair:
        name_of = session.seat_names()
        return pair_settlement(
            {(name_of[a], name_of[b]): money for (a, b), (_, money) in pairs.items()}
        )
    return fewest_transfers(
        {name: amounts.money for name, amounts in balances(session, pairs).items()}
    )


def by_name(amounts: Mapping[str, Amounts]) -> dict[str, dict[str, Decimal]]:
    """``{name: {"units": ..., "money": ...}}``, as the reports give amounts."""
    return {name: {"units": a.units, "money": a.money} for name, a in amounts.items()}
