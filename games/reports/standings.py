"""The group across its sessions: every player's standing."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q

from games.lib.locales import by_name, name_key, player_name
from games.models import Group, LedgerEntry, SessionSeat
from games.reports.ledger import NOTHING, dated, nets, pair_sums


def group_standings(
    group: Group,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[str, Any]:
    """Every player's totals across the group's sessions (optionally a date range of them).

    Per player: ``units`` and ``money`` (sums of ledger rows), ``sessions`` seated,
    ``deals`` played (active deals with a ledger row of theirs) and ``average`` units per
    deal (4 places; null without deals). Most money first.
    """
    players = by_name(group.players.all(), player_name)
    ledger = dated(LedgerEntry.objects.filter(deal__session__group=group), date_from, date_to)
    net = nets(pair_sums(ledger))
    deals = (
        ledger.aggregate(
            **{
                f"p{p.pk}": Count("deal", distinct=True, filter=Q(player_a=p) | Q(player_b=p))
                for p in players
            }
        )
        if players
        else {}
    )
    seats = SessionSeat.objects.filter(session__group=group)
    if date_from is not None:
        seats = seats.filter(session__date__gte=date_from)
    if date_to is not None:
        seats = seats.filter(session__date__lte=date_to)
    sessions = dict(seats.values_list("player_id").annotate(n=Count("session")).order_by())
    rows = []
    for player in players:
        units, money = net.get(player.pk, NOTHING)
        played = deals[f"p{player.pk}"]
        rows.append(
            {
                "id": player.pk,
                "name": player.name,
                "units": units,
                "money": money,
                "sessions": sessions.get(player.pk, 0),
                "deals": played,
                "average": (units / played).quantize(Decimal("0.0001")) if played else None,
            }
        )
    rows.sort(key=lambda row: (-row["money"], -row["units"], name_key(row["name"])))
    return {
        "group": group.pk,
        "currency": group.currency,
        "date_from": date_from,
        "date_to": date_to,
        "players": rows,
    }
