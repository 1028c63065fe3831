"""One player against each opponent: every deal from the player's side, with running balances.

Amounts are the ledger's rows; each deal's multiple of the unit is read from the stakes
stored with it (``games.stakes``). The report is also written as it is read, in JSON or
CSV (``opponent_ledger_stream``, ``opponent_ledger_csv_stream``): the totals come first
from one summing query, then each opponent's deals from a cursor, so a ledger of any
length takes little memory and its first bytes come at once.
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from django.db.models import Case, IntegerField, Q, QuerySet, Sum, Value, When
from django.db.models.fields.json import KeyTextTransform

from games import stakes as stored_stakes
from games.engine.rules import decimal_text
from games.models import Group, LedgerEntry, Player, Session, SessionSeat
from games.reports.jsonable import jsonable
from games.reports.ledger import dated
from games.streaming import in_pieces

# Deals read from the database at a time, and characters written out at a time.
CHUNK = 2000
STREAM_PIECE = 64 * 1024

ZERO = Decimal(0)
ONE = Decimal(1)


def _pair(first: str, second: str) -> stored_stakes.Pair:
    return (first, second) if first <= second else (second, first)


@functools.lru_cache(maxsize=64)
def _multiples(text: str | None) -> dict[stored_stakes.Pair, Decimal]:
    """The pair multiples of a deal's stakes stored as JSON text, decoded once per distinct
    text (nearly every deal of a group is played at the same stakes), not once per row.
    Read-only: the same mapping is handed out again."""
    return stored_stakes.pair_multiples(None if text is None else json.loads(text))


@dataclass(frozen=True)
class _Ledger:
    """What every part of one player's ledger reads: the rows asked for and the names."""

    group: Group
    player: Player
    rows: QuerySet[LedgerEntry]
    names: dict[int, str]
    # (session id, player id) -> the name the player sat down with there.
    seat_names: dict[tuple[int, int], str]
    head: dict[str, Any]


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
    head = {
        "player": {"id": player.pk, "name": player.name},
        "currency": group.currency,
        "session": None if session is None else session.pk,
        "date_from": date_from,
        "date_to": date_to,
    }
    return _Ledger(group, player, rows, names, seat_names, head)


def _opponents(ledger: _Ledger) -> list[dict[str, Any]]:
    """Each opponent (by name) with the pair's current ``stake`` and the net ``units`` and
    ``money`` the player won from them: one summing query."""
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
    opponents: dict[int, dict[str, Any]] = {}
    for a, b, units, money in sums:
        other, sign = (b, 1) if a == ledger.player.pk else (a, -1)
        entry = opponents.setdefault(
            other,
            {
                "id": other,
                "name": ledger.names[other],
                "stake": stakes.get((min(a, b), max(a, b)), Decimal(1)),
                "units": ZERO,
                "money": ZERO,
            },
        )
        entry["units"] += sign * units
        entry["money"] += sign * money
    return sorted(opponents.values(), key=lambda entry: entry["name"])


def _deals(ledger: _Ledger, opponents: list[dict[str, Any]]) -> Iterator[tuple[int, LedgerDeal]]:
    """The player's deals opponent after opponent (in the order of ``opponents``), each in
    play order (session date, session, deal number), with the running balances: one
    query, read through a cursor. Yields (opponent id, deal)."""
    if not opponents:  # nothing to read (and no CASE without a WHEN)
        return
    me = ledger.player.pk
    position = Case(
        *(
            When(Q(player_a=entry["id"]) | Q(player_b=entry["id"]), then=Value(k))
            for k, entry in enumerate(opponents)
        ),
        output_field=IntegerField(),
    )
    # The stakes as JSON text (see ``_multiples``).
    rows = (
        ledger.rows.annotate(stakes=KeyTextTransform("stakes", "deal__request"), at=position)
        .order_by("at", "deal__session__date", "deal__session_id", "deal__number")
        .values_list(
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
    current = None
    balance_units = balance_money = ZERO
    for session_id, date, number, a, b, units, money, deal_stakes in rows.iterator(CHUNK):
        other, sign = (b, 1) if a == me else (a, -1)
        if other != current:
            current, balance_units, balance_money = other, ZERO, ZERO
        balance_units += sign * units
        balance_money += sign * money
        names = (ledger.seat_names[session_id, me], ledger.seat_names[session_id, other])
        yield (
            other,
            LedgerDeal(
                session_id,
                date,
                number,
                _multiples(deal_stakes).get(_pair(*names), ONE),
                sign * units,
                sign * money,
                balance_units,
                balance_money,
            ),
        )


class LedgerDeal(NamedTuple):
    """One deal of the ledger from the player's side (the report's keys, in its order)."""

    session: int
    date: datetime.date
    deal: int
    multiplier: Decimal
    units: Decimal
    money: Decimal
    balance_units: Decimal
    balance_money: Decimal

    def texts(self) -> tuple[str, ...]:
        """The values as the JSON report and the CSV write them."""
        return (
            str(self.session),
            self.date.isoformat(),
            str(self.deal),
            _text(self.multiplier),
            _text(self.units),
            _text(self.money),
            _text(self.balance_units),
            _text(self.balance_money),
        )

    def json(self) -> str:
        """``jsonable(self._asdict())`` as compact JSON, written directly."""
        session, date, deal, *amounts = self.texts()
        head = f'{{"session":{session},"date":"{date}","deal":{deal},'
        return (
            head
            + ",".join(
                f'"{key}":"{value}"' for key, value in zip(_AMOUNT_KEYS, amounts, strict=True)
            )
            + "}"
        )


_AMOUNT_KEYS = ("multiplier", "units", "money", "balance_units", "balance_money")


@functools.lru_cache(maxsize=4096)
def _text(value: Decimal) -> str:
    """``decimal_text``, remembered: a ledger repeats the same few amounts."""
    return decimal_text(value)


def _grouped(
    ledger: _Ledger, opponents: list[dict[str, Any]]
) -> Iterator[tuple[dict[str, Any], Iterator[LedgerDeal]]]:
    """Each opponent with an iterator over their deals, from the one query of ``_deals``;
    each iterator is to be read to its end before the next opponent is taken."""
    rows = _deals(ledger, opponents)
    pending: tuple[int, LedgerDeal] | None = next(rows, None)

    def of(other: int) -> Iterator[LedgerDeal]:
        nonlocal pending
        while pending is not None and pending[0] == other:
            yield pending[1]
            pending = next(rows, None)

    for entry in opponents:
        yield entry, of(entry["id"])


def opponent_ledger(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[str, Any]:
    """One player's deals against each opponent, from the player's side, with running balances.

    ``opponents`` (by name): each with the pair's current ``stake`` (multiple of the unit),
    the net ``units`` and ``money``, then its ``deals`` in play order (session date,
    session, deal number), each deal's ``units`` and ``money`` won by the player, the
    pair's ``multiplier`` in force at that deal and the running ``balance_units`` and
    ``balance_money``. Optionally one session, or a date range of sessions.
    """
    ledger = _ledger(group, player, session, date_from, date_to)
    opponents = [
        entry | {"deals": [deal._asdict() for deal in deals]}
        for entry, deals in _grouped(ledger, _opponents(ledger))
    ]
    return ledger.head | {
        "units": sum((entry["units"] for entry in opponents), ZERO),
        "money": sum((entry["money"] for entry in opponents), ZERO),
        "opponents": opponents,
    }


def _dumps(value: Any) -> str:
    return json.dumps(jsonable(value), ensure_ascii=False, separators=(",", ":"))


def opponent_ledger_stream(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Iterator[str]:
    """``opponent_ledger`` as compact JSON text (with ``jsonable``'s values), in pieces,
    reading the database as it goes."""
    ledger = _ledger(group, player, session, date_from, date_to)

    def parts() -> Iterator[str]:
        # The head goes out at once; the totals that follow it need the summing query.
        yield _dumps(ledger.head)[:-1] + ","
        opponents = _opponents(ledger)
        totals = {
            "units": sum((entry["units"] for entry in opponents), ZERO),
            "money": sum((entry["money"] for entry in opponents), ZERO),
        }
        # Each object is written without its closing brace, then its last key's list.
        yield _dumps(totals)[1:-1] + ',"opponents":['
        for k, (entry, deals) in enumerate(_grouped(ledger, opponents)):
            yield ("," if k else "") + _dumps(entry)[:-1] + ',"deals":['
            for j, deal in enumerate(deals):
                yield ("," if j else "") + deal.json()
            yield "]}"
        yield "]}"

    return in_pieces(parts(), STREAM_PIECE)


LEDGER_CSV_HEADER = (
    "player",
    "opponent",
    "session",
    "date",
    "deal",
    "multiplier",
    "units",
    "money",
    "balance_units",
    "balance_money",
)


def opponent_ledger_csv_stream(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Iterator[str]:
    """``opponent_ledger`` as CSV text in pieces: a header row, then one row per deal per
    opponent, reading the database as it goes."""
    ledger = _ledger(group, player, session, date_from, date_to)

    def parts() -> Iterator[str]:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(LEDGER_CSV_HEADER)
        # The header goes out at once, before the database is asked anything.
        yield out.getvalue()
        out.seek(0)
        out.truncate()
        for entry, deals in _grouped(ledger, _opponents(ledger)):
            for deal in deals:
                row = (player.name, entry["name"], *deal.texts())
                writer.writerow([spreadsheet_safe(value) for value in row])
                if out.tell() >= STREAM_PIECE:
                    yield out.getvalue()
                    out.seek(0)
                    out.truncate()
        yield out.getvalue()

    return parts()


def opponent_ledger_csv(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> str:
    """``opponent_ledger`` as CSV: a header row, then one row per deal per opponent."""
    return "".join(
        opponent_ledger_csv_stream(
            group, player, session=session, date_from=date_from, date_to=date_to
        )
    )


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
