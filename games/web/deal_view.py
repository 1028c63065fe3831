"""One deal opened up on the scoreboard, as after the showdown: every player's rows as
they were set (or the cards left, Big Two) and what passed between each pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine import Rules
from games.engine.games import player_hands
from games.models import Deal
from games.present import ROW_ORDER, pair_detail, pair_sides, signed, text_faces, units
from games.words import row_labels


def pair_lines(deal: Deal, names: Sequence[str], rules: Rules) -> list[dict[str, str]]:
    """The deal pair by pair, each told from the winner's side, in seat order."""
    seat = {name: k for k, name in enumerate(names)}
    hands = {p["name"]: player_hands(p) for p in deal.result["players"]}
    pairs = []
    for pair in deal.result["pairs"]:
        a, b = sorted(pair["players"], key=lambda name: seat.get(name, 0))
        winner, loser, won = pair_sides(pair, names)
        if won:
            text = _("%(winner)s wins %(units)s from %(loser)s") % {
                "winner": winner,
                "units": units(won),
                "loser": loser,
            }
        else:
            text = _("%(first)s and %(second)s are even") % {"first": a, "second": b}
        detail = pair_detail(pair, hands, rules)
        units_of_a = won if winner == a else -won
        pairs.append({"a": a, "b": b, "text": text, "units": signed(units_of_a), "detail": detail})
    return pairs


def _hand_rows(hand: Mapping[str, Any], rules: Rules) -> list[dict[str, Any]]:
    rows = hand.get("rows") or {}
    labels = row_labels(hand, rules) if rows else {}
    return [
        {"row": row, "label": labels.get(row, ""), "cards": text_faces(rows[row]["cards"])}
        for row in ROW_ORDER
        if row in rows
    ]


def showdown(deal: Deal, names: Sequence[str], rules: Rules) -> list[dict[str, Any]]:
    """Every seat's hand in seat order: its rows as set (each hand's, at a Criss Cross
    table), the cards left (Big Two), or why there is nothing to show."""
    by_name = {p["name"]: p for p in deal.result["players"]}
    seats: list[dict[str, Any]] = []
    for name in names:
        player = by_name.get(name)
        if player is None:
            seats.append({"name": name, "hands": [], "shown": _("sat out")})
            continue
        hands = [rows for rows in (_hand_rows(h, rules) for h in player_hands(player)) if rows]
        shown = ""
        if not hands:
            if "cards_left" in player:
                shown = _("%(count)s cards left") % {"count": player["cards_left"]}
            elif player.get("surrendered"):
                shown = _("surrendered")
            elif player.get("fouled"):
                shown = _("fouled, cards not shown")
            else:
                shown = _("no cards shown")
        seats.append({"name": name, "hands": hands, "shown": shown})
    return seats
