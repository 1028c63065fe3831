"""One player against each opponent: every deal and payment from the player's side.

Amounts are the ledger's rows; each deal's multiple of the unit is read from the stakes
stored with it (``games.stakes``). The report is also written as it is read, in JSON or
CSV (``opponent_ledger_stream``, ``games.reports.opponents_csv``): the totals come first
from summing queries, then each opponent's deals and payments from two cursors merged as
they are read, so a ledger of any length takes little memory and its first bytes come at
once. A payment moves money, no units.
"""

from __future__ import annotations

import datetime
import functools
import heapq
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, NamedTuple

from django.db.models import Case, IntegerField, Q, QuerySet, Sum, Value, When
from django.db.models.fields.json import KeyTextTransform
from django.utils import translation

from games import stakes as stored_stakes
from games.engine.rules import decimal_text
from games.lib.locales import by_name
from games.lib.streaming import in_pieces
from games.models import Group, LedgerEntry, Player, Session, SessionSeat
from games.reports.ledger import dated, payment_ledger, payment_lines

# Deals read from the database at a time, and characters written out at a time.
CHUNK = 2000
STREAM_PIECE = 64 * 1024

ZERO = Decimal(0)
ONE = Decimal(1)


def _pair(first: str, second: str) -> stored_stakes.Pair:
    return (first, second) if first <= second else (second, first)


@functools.lru_cache(maxsize=64)
def _stakes(text: str | None) -> tuple[Decimal | None, dict[stored_stakes.Pair, Decimal]]:
    """The unit value and pair multiples of a deal's stakes stored as JSON text, decoded
    once per distinct text (nearly every deal of a group is played at the same stakes), not
    once per row. Read-only: the same mapping is handed out again."""
    stakes = None if text is None else json.loads(text)
    return stored_stakes.unit_value(stakes), stored_stakes.pair_multiples(stakes)


@dataclass(frozen=True)
class _Ledger:
    """What every part of one player's ledger reads: the rows asked for and the names."""

    group: Group
    player: Player
    rows: QuerySet[LedgerEntry]
    # The rows of the confirmed payments between the player and another player.
    payments: QuerySet[LedgerEntry]
    names: dict[int, str]
    # (session id, player id) -> the name the player sat down with there.
    seat_names: dict[tuple[int, int], str]
    head: dict[str, Any]
    # The language asked in: the payments' notes are written in it when read (a CSV
    # streams after its view has returned).
    language: str | None


def _ledger(
    group: Group,
    player: Player,
    session: Session | None,
    date_from: datetime.date | None,
    date_to: datetime.date | None,
) -> _Ledger:
    names = dict(group.players.values_list("pk", "name"))
    # A deal's stored stakes name the players as they sat at its session.
    seat_names = {
        (session_id, pk): name
        for session_id, pk, name in SessionSeat.objects.filter(
            session__group=group, session__seats__player=player
        ).values_list("session_id", "player_id", "name")
    }
    rows = LedgerEntry.objects.filter(deal__session__group=group).filter(
        Q(player_a=player) | Q(player_b=player)
    )
    if session is not None:
        rows = rows.filter(deal__session=session)
    rows = dated(rows, date_from, date_to)
    payments = payment_ledger(group, date_from, date_to, session=session).filter(
        Q(player_a=player) | Q(player_b=player)
    )
    head = {
        "player": {"id": player.pk, "name": player.name},
        "currency": group.currency,
        "unit_value": group.unit_value,
        "session": None if session is None else session.pk,
        "date_from": date_from,
        "date_to": date_to,
    }
    language = translation.get_language()
    return _Ledger(group, player, rows, payments, names, seat_names, head, language)


def _opponents(ledger: _Ledger) -> list[dict[str, Any]]:
    """Each opponent (by name) with the pair's current ``stake`` and the net ``units`` and
    ``money`` the player won from them, the net money ``paid`` between them (positive: the
    player paid) and the ``balance_money`` (won plus paid: what the opponent owes the
    player): a summing query for the deals, one for the payments."""
    stakes = {
        (a, b): multiplier
        for a, b, multiplier in ledger.group.pair_stakes.values_list(
            "player_a_id", "player_b_id", "multiplier"
        )
    }
    sums = (
        ledger.rows.values_list("player_a_id", "player_b_id")
        .annotate(u=Sum("units"), m=Sum("money"))
        .order_by()
    )
    pairs = ledger.payments.values_list("player_a_id", "player_b_id")
    paid = pairs.annotate(m=Sum("money")).order_by().values_list("player_a_id", "player_b_id", "m")
    opponents: dict[int, dict[str, Any]] = {}

    def of(a: int, b: int) -> tuple[dict[str, Any], int]:
        other, sign = (b, 1) if a == ledger.player.pk else (a, -1)
        entry = opponents.setdefault(
            other,
            {
                "id": other,
                "name": ledger.names[other],
                "stake": stakes.get((min(a, b), max(a, b)), Decimal(1)),
                "units": ZERO,
                "money": ZERO,
                "paid": ZERO,
                "balance_money": ZERO,
            },
        )
        return entry, sign

    for a, b, units, money in sums:
        entry, sign = of(a, b)
        entry["units"] += sign * units
        entry["money"] += sign * money
        entry["balance_money"] += sign * money
    for a, b, money in paid:
        entry, sign = of(a, b)
        entry["paid"] += sign * money
        entry["balance_money"] += sign * money
    return by_name(opponents.values(), lambda entry: entry["name"])


def _position(opponents: list[dict[str, Any]]) -> Case:
    """Each row's opponent's place in ``opponents`` (a row names the player and them)."""
    return Case(
        *(
            When(Q(player_a=entry["id"]) | Q(player_b=entry["id"]), then=Value(k))
            for k, entry in enumerate(opponents)
        ),
        output_field=IntegerField(),
    )


# The order of a ledger's lines: the opponent's place, the date, then a date's deals (in
# play order) before its payments (in the order they were recorded).
_Key = tuple[int, datetime.date, int, int, int]


def _deal_rows(
    ledger: _Ledger, opponents: list[dict[str, Any]]
) -> Iterator[tuple[_Key, int, tuple[Any, ...]]]:
    me = ledger.player.pk
    # The stakes as JSON text (see ``_stakes``).
    rows = (
        ledger.rows.annotate(
            stakes=KeyTextTransform("stakes", "deal__request"), at=_position(opponents)
        )
        .order_by("at", "deal__session__date", "deal__session_id", "deal__number")
        .values_list(
            "at",
            "deal__session_id",
            "deal__session__date",
            "deal__number",
            "player_a_id",
            "player_b_id",
            "units",
            "money",
            "stakes",
        )
    )
    for at, session_id, date, number, a, b, units, money, deal_stakes in rows.iterator(CHUNK):
        other, sign = (b, 1) if a == me else (a, -1)
        yield (
            (at, date, 0, session_id, number),
            other,
            (session_id, date, number, sign * units, sign * money, deal_stakes),
        )


def _payment_rows(
    ledger: _Ledger, opponents: list[dict[str, Any]]
) -> Iterator[tuple[_Key, int, dict[str, Any]]]:
    places = {entry["id"]: k for k, entry in enumerate(opponents)}
    rows = ledger.payments.annotate(at=_position(opponents)).order_by(
        "at", "payment__date", "payment_id"
    )
    for other, line in payment_lines(rows, ledger.player.pk, ledger.language):
        yield (places[other], line["date"], 1, line["payment"], 0), other, line


def _lines(ledger: _Ledger, opponents: list[dict[str, Any]]) -> Iterator[tuple[int, Line]]:
    """The player's deals and payments opponent after opponent (in the order of
    ``opponents``), each opponent's in date order (a date's deals in play order, then its
    payments), with the running balances: a query for the deals and one for the payments,
    each read through a cursor and merged as they come. Yields (opponent id, line)."""
    if not opponents:  # nothing to read (and no CASE without a WHEN)
        return
    me = ledger.player.pk
    current = None
    balance_units = balance_money = ZERO
    lines = heapq.merge(
        _deal_rows(ledger, opponents),
        _payment_rows(ledger, opponents),
        key=lambda row: row[0],
    )
    for _key, other, row in lines:
        if other != current:
            current, balance_units, balance_money = other, ZERO, ZERO
        if isinstance(row, dict):
            balance_money += row["money"]
            yield other, row | {"balance_units": balance_units, "balance_money": balance_money}
            continue
        session_id, date, number, units, money, deal_stakes = row
        balance_units += units
        balance_money += money
        names = (ledger.seat_names[session_id, me], ledger.seat_names[session_id, other])
        unit_value, multiples = _stakes(deal_stakes)
        yield (
            other,
            {
                "kind": "deal",
                "session": session_id,
                "date": date,
                "deal": number,
                "unit_value": unit_value or ledger.group.unit_value,
                "multiplier": multiples.get(_pair(*names), ONE),
                "units": units,
                "money": money,
                "balance_units": balance_units,
                "balance_money": balance_money,
            },
        )


# A line of the ledger, plain values by key in the report's order: a deal ("kind" "deal":
# session, date, deal, unit_value, multiplier, units, money and the balances) or a payment
# (``payment_lines``'s, with the balances).
Line = dict[str, Any]


class Row(NamedTuple):
    """One row of a player's ledger, as every way of writing it reads them.

    ``kind`` "head" (``value``: the player, currency, unit value and the period asked
    for), then "totals" (the opponents' sums added up), then for each opponent "opponent"
    (``value``: its sums, as ``opponent_ledger`` gives them without the lines) followed by
    one "line" per deal or payment (``value``: the ``Line``; ``opponent``: whose)."""

    kind: Literal["head", "totals", "opponent", "line"]
    value: dict[str, Any]
    opponent: dict[str, Any] | None = None


def _totals(opponents: list[dict[str, Any]]) -> dict[str, Any]:
    """The opponents' ``units``, ``money``, ``paid`` and ``balance_money`` added up."""
    keys = ("units", "money", "paid", "balance_money")
    return {key: sum((entry[key] for entry in opponents), ZERO) for key in keys}


def _rows(ledger: _Ledger) -> Iterator[Row]:
    """The rows of ``ledger`` (see ``Row``), reading the database as it goes: the head
    before any query, the totals and opponents from the summing queries, then the lines
    through cursors."""
    yield Row("head", ledger.head)
    opponents = _opponents(ledger)
    yield Row("totals", _totals(opponents))
    at = -1
    for other, line in _lines(ledger, opponents):
        # Every opponent has a line: its sums are those of its lines.
        while at < 0 or opponents[at]["id"] != other:
            at += 1
            yield Row("opponent", opponents[at])
        yield Row("line", line, opponents[at])
    for entry in opponents[at + 1 :]:
        yield Row("opponent", entry)


def ledger_rows(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Iterator[Row]:
    """One player's ledger against each opponent as ``Row``s, in order: what the report,
    its JSON, its CSV and the ledger PDF are all written from. The names and seats are read
    at once; the rest as the rows are taken."""
    return _rows(_ledger(group, player, session, date_from, date_to))


def opponent_ledger(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[str, Any]:
    """One player's deals and payments against each opponent, from the player's side, with
    running balances.

    ``opponents`` (by name): each with the pair's current ``stake`` (multiple of the unit),
    the net ``units`` and ``money`` won at play, the net money ``paid`` (positive: the player
    paid) and the ``balance_money`` (what the opponent owes the player: money plus paid),
    then its lines (``deals``) in date order. A deal (``kind`` "deal", in play order: session
    date, session, deal number): its ``units`` and ``money`` won by the player, the
    ``unit_value`` and the pair's ``multiplier`` in force at that deal. A confirmed payment
    between the two (``kind`` "payment", after the deals of its date): its ``payment`` id,
    ``session`` (None if it settles none), ``direction`` ("paid" or "received"), ``note``,
    no ``units`` and its ``money``. Every line carries the running ``balance_units`` and
    ``balance_money``. Optionally one session (and the payments that settle it), or a date
    range (sessions by their date, payments by theirs).
    """
    report: dict[str, Any] = {}
    opponents: list[dict[str, Any]] = []
    for row in ledger_rows(group, player, session=session, date_from=date_from, date_to=date_to):
        if row.kind == "opponent":
            opponents.append(row.value | {"deals": []})
        elif row.kind == "line":
            opponents[-1]["deals"].append(row.value)
        else:
            report |= row.value
    return report | {"opponents": opponents}


@functools.lru_cache(maxsize=4096)
def amount_text(value: Decimal) -> str:
    """``decimal_text``, remembered: a ledger repeats the same few amounts."""
    return decimal_text(value)


def _plain(value: object) -> str:
    """What ``jsonable`` makes of a Decimal or a date, for the JSON encoder."""
    if isinstance(value, Decimal):
        return amount_text(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


# ``jsonable``'s values as compact JSON.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_plain)


def _members(value: dict[str, Any]) -> str:
    """An object's members as JSON, without its braces: '"a":1,"b":"x"'."""
    return _ENCODER.encode(value)[1:-1]


def opponent_ledger_stream(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Iterator[str]:
    """``opponent_ledger`` as compact JSON text (with ``jsonable``'s values), in pieces,
    reading the database as it goes: every value is written by the ``json`` module, the
    rows' objects put together as they come."""
    rows = ledger_rows(group, player, session=session, date_from=date_from, date_to=date_to)

    def parts() -> Iterator[str]:
        opened = False  # an opponent's object is open
        lines = 0  # lines written of the opponent
        for row in rows:
            if row.kind == "head":
                # It goes out at once; the totals that follow it need the summing query.
                yield "{" + _members(row.value) + ","
            elif row.kind == "totals":
                yield _members(row.value) + ',"opponents":['
            elif row.kind == "opponent":
                yield ("]}," if opened else "") + "{" + _members(row.value) + ',"deals":['
                opened, lines = True, 0
            else:
                yield ("," if lines else "") + _ENCODER.encode(row.value)
                lines += 1
        yield ("]}" if opened else "") + "]}"

    return in_pieces(parts(), STREAM_PIECE)


# A spreadsheet reads a cell that starts with one of these as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell no spreadsheet runs: text that would start a formula gets a leading
    apostrophe (shown as text, never evaluated); numbers, signed ones included, stay
    numbers."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    if _NUMBER.fullmatch(value):
        return value
    return "'" + value
