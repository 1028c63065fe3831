"""One player's season: their nights, best and worst deals, record against each opponent,
their rates against the group's, and their balance across nights with payments.

Built on ``games.reports.season`` (the same figures, so a player's page and the group's
season never disagree) and the ledger: three more queries, whatever the season's length.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Case, DecimalField, F, Q, QuerySet, Sum, When

from games.lib.locales import name_key
from games.models import Group, LedgerEntry, Player
from games.reports import ledger
from games.reports.season import COUNTED, Scope, group_rates, season

ZERO = Decimal(0)
PLACES = Decimal("0.0001")
# The best and the worst deals listed.
EXTREMES = 3


def _mine(rows: QuerySet[LedgerEntry], pk: int, field: str) -> Sum:
    """The sum of ``field`` from player ``pk``'s side of each row."""
    return Sum(
        Case(
            When(player_a_id=pk, then=F(field)),
            default=-F(field),
            output_field=DecimalField(max_digits=18, decimal_places=4),
        )
    )


def _extremes(scope: Scope, pk: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The player's ``EXTREMES`` best and worst deals of the season by units won (two
    queries), each its ``session``, ``date``, ``number``, ``units`` and ``money``."""
    rows = scope.ledger().filter(Q(player_a_id=pk) | Q(player_b_id=pk))
    per_deal = (
        rows.values("deal_id", "deal__session_id", "deal__session__date", "deal__number")
        .annotate(u=_mine(rows, pk, "units"), m=_mine(rows, pk, "money"))
        .values_list("deal__session_id", "deal__session__date", "deal__number", "u", "m")
    )

    def listed(order: tuple[str, ...]) -> list[dict[str, Any]]:
        return [
            {"session": s, "date": d, "number": n, "units": u, "money": m}
            for s, d, n, u, m in per_deal.order_by(*order)[:EXTREMES]
        ]

    best = listed(("-u", "deal__session__date", "deal__number"))
    worst = listed(("u", "deal__session__date", "deal__number"))
    return best, worst


def _payments(scope: Scope, pk: int) -> list[dict[str, Any]]:
    """The player's confirmed payments of the season's dates (one query), date order:
    ``date``, ``payment``, the ``other`` player's id and ``money`` (positive: paid)."""
    rows = ledger.payment_ledger(scope.group, scope.date_from, scope.date_to).filter(
        Q(player_a_id=pk) | Q(player_b_id=pk)
    )
    return [
        {"date": line["date"], "payment": line["payment"], "other": other, "money": line["money"]}
        for other, line in ledger.payment_lines(rows.order_by("payment__date", "pk"), pk)
    ]


def season_player(
    group: Group,
    player: Player,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    *,
    game: str | None = None,
) -> dict[str, Any]:
    """One player's season over the group's nights between the two dates.

    ``player``: their row of the group's season (zeros when they sat at none of its
    nights), with ``foul_rate`` (fouls per deal). ``group``: the whole group's
    ``foul_rate`` and ``missed_per_deal``. ``nights``: each night they sat at, date order,
    with its ``units``, ``money``, ``deals``, units ``missed`` and ``reviewed`` deals.
    ``best`` and ``worst``: their deals that won and lost the most units. ``opponents``:
    each player they met, their ``units`` and ``money`` won from them and the ``deals``
    played together (most money first). ``balance``: nights and payments in date order
    (``kind`` "night" or "payment"), each with its ``money`` and the running ``balance``
    of money won at the table and paid since the season began (what the others owe them).
    """
    scope = Scope(group, date_from, date_to, game)
    report = season(group, date_from, date_to, game=game)
    pk = player.pk
    names = {row["id"]: row["name"] for row in report["players"]}
    row = next((r for r in report["players"] if r["id"] == pk), None)
    if row is None:
        row = season_row_zero(pk, player.name)
    row = row | {
        "foul_rate": (Decimal(row["fouls"]) / row["deals"]).quantize(PLACES)
        if row["deals"]
        else None
    }
    nights = [
        {"session": n["session"], "date": n["date"], "game": n["game"]} | n["players"][pk]
        for n in report["nights"]
        if pk in n["players"]
    ]
    opponents = []
    for pair in report["head_to_head"]:
        if pk not in (pair["a"], pair["b"]):
            continue
        other, sign = (pair["b"], 1) if pair["a"] == pk else (pair["a"], -1)
        opponents.append(
            {
                "id": other,
                "name": names.get(other, ""),
                "units": sign * pair["units"],
                "money": sign * pair["money"],
                "deals": pair["deals"],
            }
        )
    opponents.sort(key=lambda o: (-o["money"], name_key(o["name"])))
    best, worst = _extremes(scope, pk)
    payments = _payments(scope, pk)
    missing = {p["other"] for p in payments} - set(names)
    if missing:  # paid to or by someone who sat at none of the season's nights
        names.update(group.players.filter(pk__in=missing).values_list("pk", "name"))
    events: list[tuple[datetime.date, int, dict[str, Any]]] = [
        (n["date"], 0, {"kind": "night", "session": n["session"], "money": n["money"]})
        for n in nights
    ]
    events += [
        (
            p["date"],
            1,
            {
                "kind": "payment",
                "payment": p["payment"],
                "other": p["other"],
                "other_name": names.get(p["other"], ""),
                "money": p["money"],
            },
        )
        for p in payments
    ]
    balance = ZERO
    lines = []
    # A night's play before the payments of its date; sorted() keeps each kind's order.
    for date, _, event in sorted(events, key=lambda e: (e[0], e[1])):
        balance += event["money"]
        lines.append({"date": date, **event, "balance": balance})
    return {
        "group": group.pk,
        "currency": group.currency,
        "date_from": date_from,
        "date_to": date_to,
        "game": game,
        "games": report["games"],
        "player": row,
        "group_rates": group_rates(report),
        "nights": nights,
        "best": best,
        "worst": worst,
        "opponents": opponents,
        "balance": lines,
    }


def season_row_zero(pk: int, name: str) -> dict[str, Any]:
    """A season row of a player who sat at none of its nights."""
    return {
        "id": pk,
        "name": name,
        "nights": 0,
        "deals": 0,
        **dict.fromkeys(COUNTED, 0),
        "royalties": ZERO,
        "units": ZERO,
        "money": ZERO,
        "units_per_deal": None,
        "units_missed": ZERO,
        "reviewed_deals": 0,
        "missed_per_deal": None,
        "missed_trend": None,
    }
