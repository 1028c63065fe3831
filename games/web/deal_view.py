"""One deal opened up on the scoreboard, as after the showdown: every player's rows as
they were set (or the cards left, Big Two) and what passed between each pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine import Rules
from games.engine.games import HANDS_FIELD, player_hands
from games.models import Deal
from games.present import natural_name, signed, text_faces, units

PAIR_KINDS = {
    "rows": "",
    "foul": gettext_noop("foul"),
    "surrender": gettext_noop("surrender"),
    "natural": "natural",
    "cards": gettext_noop("cards left"),
    "none": "",
}
ROW_ORDER = ("front", "middle", "back")


def _pair_detail(
    pair: Mapping[str, Any], hands: Mapping[str, tuple[Any, ...]], k: int | None, rules: Rules
) -> str:
    """How one pair was settled; a natural is named ("natural: six pairs"). ``k`` is the
    hand's index at a Criss Cross table, where each player holds two."""
    if pair.get("scoop"):
        return _("scoop")
    detail = PAIR_KINDS.get(pair.get("kind", ""), "")
    if detail == "natural":
        named = []
        for name in pair["players"]:
            player = hands.get(name, ())
            hand = player[k or 0] if len(player) > (k or 0) else {}
            if hand.get("natural"):
                named.append(natural_name(hand["natural"], rules))
        if named:
            return _("natural: %(names)s") % {"names": ", ".join(named)}
        return _("natural")
    return _(detail) if detail else ""


def pair_lines(deal: Deal, names: Sequence[str], rules: Rules) -> list[dict[str, str]]:
    """The deal pair by pair, each told from the winner's side, in seat order."""
    seat = {name: k for k, name in enumerate(names)}
    hands = {p["name"]: player_hands(p) for p in deal.result["players"]}
    pairs = []
    for pair in deal.result["pairs"]:
        a, b = sorted(pair["players"], key=lambda name: seat.get(name, 0))
        won = Decimal(pair["units"]) * (1 if a == pair["players"][0] else -1)
        if HANDS_FIELD in pair:  # Criss Cross: each hand's pair told on its own
            detail = "; ".join(
                _("hand %(k)s: %(detail)s")
                % {"k": k, "detail": _pair_detail(hand, hands, k - 1, rules) or _("rows")}
                for k, hand in enumerate(pair[HANDS_FIELD], start=1)
            )
        else:
            detail = _pair_detail(pair, hands, None, rules)
        if won < 0:
            text = _("%(winner)s wins %(units)s from %(loser)s") % {
                "winner": b,
                "units": units(-won),
                "loser": a,
            }
        elif won > 0:
            text = _("%(winner)s wins %(units)s from %(loser)s") % {
                "winner": a,
                "units": units(won),
                "loser": b,
            }
        else:
            text = _("%(first)s and %(second)s are even") % {"first": a, "second": b}
        pairs.append({"a": a, "b": b, "text": text, "units": signed(won), "detail": detail})
    return pairs


def _hand_rows(hand: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = hand.get("rows") or {}
    return [
        {"row": row, "label": rows[row].get("label", ""), "cards": text_faces(rows[row]["cards"])}
        for row in ROW_ORDER
        if row in rows
    ]


def showdown(deal: Deal, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every seat's hand in seat order: its rows as set (each hand's, at a Criss Cross
    table), the cards left (Big Two), or why there is nothing to show."""
    by_name = {p["name"]: p for p in deal.result["players"]}
    seats: list[dict[str, Any]] = []
    for name in names:
        player = by_name.get(name)
        if player is None:
            seats.append({"name": name, "hands": [], "shown": _("sat out")})
            continue
        hands = [rows for rows in map(_hand_rows, player_hands(player)) if rows]
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
