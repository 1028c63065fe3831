"""One player against each opponent: every deal from the player's side, with running balances.

Amounts are the ledger's rows; each deal's multiple of the unit is read from the stakes
stored with it (``games.stakes``).
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
import json
import re
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.db.models.fields.json import KeyTextTransform

from games import stakes as stored_stakes
from games.models import Group, LedgerEntry, Player, Session, SessionSeat
from games.reports.jsonable import jsonable
from games.reports.ledger import dated

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


def opponent_ledger(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[str, Any]:
    """One player's deals against each opponent, from the player's side, with running balances.

    ``opponents`` (by name): each with its ``deals`` in play order (session date, session,
    deal number), each deal's ``units`` and ``money`` won by the player, the pair's
    ``multiplier`` in force at that deal and the running ``balance_units`` and
    ``balance_money``; then the net ``units`` and ``money`` and the pair's current
    ``stake`` (multiple of the unit). Optionally one session, or a date range of sessions.
    """
    names = dict(group.players.values_list("pk", "name"))
    # A deal's stored stakes name the players as they sat at its session.
    seat_names = {
        (session_id, pk): name
        for session_id, pk, name in SessionSeat.objects.filter(
            session__group=group, session__seats__player=player
        ).values_list("session_id", "player_id", "name")
    }
    ledger = LedgerEntry.objects.filter(deal__session__group=group).filter(
        Q(player_a=player) | Q(player_b=player)
    )
    if session is not None:
        ledger = ledger.filter(deal__session=session)
    ledger = dated(ledger, date_from, date_to)
    # The stakes as JSON text (see ``_multiples``).
    ledger = ledger.annotate(stakes=KeyTextTransform("stakes", "deal__request"))
    rows = ledger.order_by("deal__session__date", "deal__session_id", "deal__number").values_list(
        "deal__session_id",
        "deal__session__date",
        "deal__number",
        "player_a_id",
        "player_b_id",
        "units",
        "money",
        "stakes",
    )
    stakes = {
        (a, b): multiplier
        for a, b, multiplier in group.pair_stakes.values_list(
            "player_a_id", "player_b_id", "multiplier"
        )
    }
    opponents: dict[int, dict[str, Any]] = {}
    for session_id, date, number, a, b, units, money, deal_stakes in rows:
        other, sign = (b, 1) if a == player.pk else (a, -1)
        entry = opponents.get(other)
        if entry is None:
            entry = opponents[other] = {
                "id": other,
                "name": names[other],
                "stake": stakes.get((min(a, b), max(a, b)), Decimal(1)),
                "units": ZERO,
                "money": ZERO,
                "deals": [],
            }
        entry["units"] += sign * units
        entry["money"] += sign * money
        entry["deals"].append(
            {
                "session": session_id,
                "date": date,
                "deal": number,
                "multiplier": _multiples(deal_stakes).get(
                    _pair(seat_names[session_id, a], seat_names[session_id, b]), ONE
                ),
                "units": sign * units,
                "money": sign * money,
                "balance_units": entry["units"],
                "balance_money": entry["money"],
            }
        )
    listed = sorted(opponents.values(), key=lambda entry: entry["name"])
    return {
        "player": {"id": player.pk, "name": player.name},
        "currency": group.currency,
        "session": None if session is None else session.pk,
        "date_from": date_from,
        "date_to": date_to,
        "units": sum((entry["units"] for entry in listed), ZERO),
        "money": sum((entry["money"] for entry in listed), ZERO),
        "opponents": listed,
    }


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


def opponent_ledger_csv(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> str:
    """``opponent_ledger`` as CSV: a header row, then one row per deal per opponent."""
    report = jsonable(
        opponent_ledger(group, player, session=session, date_from=date_from, date_to=date_to)
    )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LEDGER_CSV_HEADER)
    for opponent in report["opponents"]:
        for deal in opponent["deals"]:
            row = [player.name, opponent["name"]] + [deal[key] for key in LEDGER_CSV_HEADER[2:]]
            writer.writerow([spreadsheet_safe(value) for value in row])
    return out.getvalue()


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
