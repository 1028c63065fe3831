"""A statement: one player against each opponent (or one), nights and payments in date order.

Each night is one line (what the player won from the opponent that night, in units and
money, with the unit value and pair stake the night's deals were scored at); each confirmed
payment between the two is one line (money only). Every line carries the running balance
in money and units, starting from what was carried in from before ``date_from``; the last
balance is carried out. Positive: the opponent owes the player. Amounts are sums of ledger
rows read through ``games.reports.ledger``.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from decimal import Decimal
from typing import Any

from django.db.models import Max, Q, QuerySet, Sum
from django.db.models.fields.json import KeyTextTransform

from games import stakes as stored_stakes
from games.engine.rules import decimal_text
from games.lib.locales import by_name, plain_amount
from games.models import Deal, Group, LedgerEntry, Player, SessionSeat
from games.reports.ledger import NOTHING, Amounts, payment_ledger, payment_lines, play_ledger
from games.reports.opponents import spreadsheet_safe
from games.reports.opponents_csv import csv_header

ZERO = Decimal(0)


def _with(
    rows: QuerySet[LedgerEntry], player: Player, opponent: Player | None
) -> QuerySet[LedgerEntry]:
    mine = rows.filter(Q(player_a=player) | Q(player_b=player))
    if opponent is not None:
        mine = mine.filter(Q(player_a=opponent) | Q(player_b=opponent))
    return mine


def _carried(
    group: Group, player: Player, opponent: Player | None, before: datetime.date | None
) -> dict[int, Amounts]:
    """Opponent id -> the balance carried in from before ``before`` (nothing without it)."""
    out: dict[int, Amounts] = {}
    if before is None:
        return out
    day_before = before - datetime.timedelta(days=1)
    for rows in (play_ledger(group, None, day_before), payment_ledger(group, None, day_before)):
        sums = _with(rows, player, opponent).values_list("player_a_id", "player_b_id")
        for a, b, units, money in sums.annotate(u=Sum("units"), m=Sum("money")).order_by():
            other, sign = (b, 1) if a == player.pk else (a, -1)
            old = out.get(other, NOTHING)
            out[other] = Amounts(old.units + sign * units, old.money + sign * money)
    return out


def _night_stakes(session_ids: set[int]) -> dict[int, Any]:
    """Session id -> the stakes its last active deal was scored at (as stored)."""
    last = (
        Deal.objects.filter(session_id__in=session_ids, status=Deal.Status.ACTIVE)
        .values("session_id")
        .annotate(last=Max("number"))
    )
    numbers = {row["session_id"]: row["last"] for row in last}
    out: dict[int, Any] = {}
    if not numbers:
        return out
    query = Q()
    for session_id, number in numbers.items():
        query |= Q(session_id=session_id, number=number)
    for session_id, text in (
        Deal.objects.filter(query)
        .annotate(stakes=KeyTextTransform("stakes", "request"))
        .values_list("session_id", "stakes")
    ):
        out[session_id] = None if text is None else json.loads(text)
    return out


def statement(
    group: Group,
    player: Player,
    *,
    opponent: Player | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[str, Any]:
    """The player's statement against each opponent (or ``opponent`` only) over the dates."""
    names = dict(group.players.values_list("pk", "name"))
    carried = _carried(group, player, opponent, date_from)
    lines: dict[int, list[dict[str, Any]]] = {}
    nights = (
        _with(play_ledger(group, date_from, date_to), player, opponent)
        .values_list("deal__session_id", "deal__session__date", "player_a_id", "player_b_id")
        .annotate(u=Sum("units"), m=Sum("money"))
        .order_by()
    )
    per_night: dict[tuple[int, int], dict[str, Any]] = {}
    for session_id, date, a, b, units, money in nights:
        other, sign = (b, 1) if a == player.pk else (a, -1)
        line = per_night.setdefault(
            (other, session_id),
            {"kind": "session", "date": date, "session": session_id, "units": ZERO, "money": ZERO},
        )
        line["units"] += sign * units
        line["money"] += sign * money
    stakes = _night_stakes({session_id for _, session_id in per_night})
    seat_names = _seat_names(group, {session_id for _, session_id in per_night})
    for (other, session_id), line in per_night.items():
        night = stakes.get(session_id)
        unit_value = stored_stakes.unit_value(night) or group.unit_value
        me_name = seat_names.get((session_id, player.pk), player.name)
        other_name = seat_names.get((session_id, other), names[other])
        line["unit_value"] = unit_value
        line["stake"] = stored_stakes.multiple(night, me_name, other_name)
        lines.setdefault(other, []).append(line)
    payments = _with(payment_ledger(group, date_from, date_to), player, opponent).order_by(
        "payment__date", "payment_id"
    )
    for other, paid in payment_lines(payments, player.pk):
        lines.setdefault(other, []).append(paid)
    stakes_now = {
        (a, b): multiplier
        for a, b, multiplier in group.pair_stakes.values_list(
            "player_a_id", "player_b_id", "multiplier"
        )
    }
    opponents: list[dict[str, Any]] = []
    for other in by_name(set(lines) | set(carried), names.__getitem__):
        start = carried.get(other, NOTHING)
        units, money = start
        ordered = sorted(
            lines.get(other, []),
            key=lambda line: (line["date"], line["kind"] == "payment", line.get("session") or 0),
        )
        for line in ordered:
            units += line["units"]
            money += line["money"]
            line["balance_units"] = units
            line["balance_money"] = money
        opponents.append(
            {
                "id": other,
                "name": names[other],
                "stake": stakes_now.get((min(player.pk, other), max(player.pk, other)), Decimal(1)),
                "carried_in": {"units": start.units, "money": start.money},
                "lines": ordered,
                "carried_out": {"units": units, "money": money},
            }
        )
    return {
        "player": {"id": player.pk, "name": player.name},
        "currency": group.currency,
        "unit_value": group.unit_value,
        "date_from": date_from,
        "date_to": date_to,
        "opponents": opponents,
        "carried_in": sum((o["carried_in"]["money"] for o in opponents), ZERO),
        "carried_out": sum((o["carried_out"]["money"] for o in opponents), ZERO),
    }


def _seat_names(group: Group, session_ids: set[int]) -> dict[tuple[int, int], str]:
    return {
        (session_id, pk): name
        for session_id, pk, name in SessionSeat.objects.filter(
            session_id__in=session_ids
        ).values_list("session_id", "player_id", "name")
    }


STATEMENT_CSV_HEADER = (
    "player",
    "opponent",
    "kind",
    "date",
    "session",
    "payment",
    "unit_value",
    "stake",
    "units",
    "money",
    "balance_units",
    "balance_money",
    "note",
)
# The columns holding money, written with their currency's decimals.
MONEY_COLUMNS = frozenset({"unit_value", "money", "balance_money"})


def _text(value: Any, currency: str, key: str = "") -> str:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return plain_amount(value, currency) if key in MONEY_COLUMNS else decimal_text(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def statement_csv(data: dict[str, Any]) -> str:
    """A statement as CSV: a "carried in" row per opponent, its lines, a "carried out" row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_header(STATEMENT_CSV_HEADER))
    me = data["player"]["name"]
    currency = data["currency"]
    for entry in data["opponents"]:

        def row(kind: str, line: dict[str, Any], entry: dict[str, Any] = entry) -> None:
            cells = [me, entry["name"], kind] + [
                _text(line.get(key), currency, key) for key in STATEMENT_CSV_HEADER[3:]
            ]
            writer.writerow([spreadsheet_safe(cell) for cell in cells])

        carried_in = entry["carried_in"]
        row(
            "carried_in",
            {"balance_units": carried_in["units"], "balance_money": carried_in["money"]},
        )
        for line in entry["lines"]:
            row(line["kind"], line)
        carried_out = entry["carried_out"]
        row(
            "carried_out",
            {"balance_units": carried_out["units"], "balance_money": carried_out["money"]},
        )
    return out.getvalue()
