"""What a session summary counts of one scored deal, per player at it.

Stored beside each deal's result (``Deal.tally``), so a summary adds up a few numbers per
deal instead of reading every result whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypedDict

from .games import player_hands
from .rules import decimal_text


class Tally(TypedDict):
    fouls: int
    surrenders: int
    scoops: int  # pairs (Criss Cross: hands) whose three rows the player won
    scooped: int  # pairs (Criss Cross: hands) whose three rows the player lost
    naturals: int
    royalty_rows: int  # rows that carried a royalty
    royalties: str  # their sum, as exact text
    wins: int  # Big Two: 1 for the player who went out
    cards_left: int  # Big Two: the cards the player still held
    fantasy_entries: int  # open-face: 1 when the player earned fantasy land from outside it
    fantasy_stays: int  # open-face: 1 when the player, in fantasy land, stayed there


def in_fantasyland(request: Mapping[str, Any] | None) -> set[str]:
    """The names of the players a stored request says were dealt in fantasy land."""
    if request is None:
        return set()
    return {
        str(entry.get("name"))
        for entry in request.get("players") or ()
        if isinstance(entry, Mapping) and entry.get("in_fantasyland")
    }


def tally(result: Mapping[str, Any], request: Mapping[str, Any] | None = None) -> dict[str, Tally]:
    """Per player of the engine's ``result`` (by name, in its order): what they fouled,
    surrendered, scooped, declared and collected in royalties at this deal; Big Two's
    winner and cards left; and, given the deal's ``request`` (who was in fantasy land),
    open-face fantasy land earned from outside it or kept from inside it."""
    fantasy = in_fantasyland(request)
    out: dict[str, Tally] = {}
    for player in result["players"]:
        royalties = Decimal(0)
        royalty_rows = naturals = 0
        # Criss Cross keeps each hand's rows (and any natural) under "hands".
        for hand in player_hands(player):
            naturals += hand.get("natural") is not None
            for row in (hand.get("rows") or {}).values():
                if row["royalty"] != "0":
                    royalties += Decimal(row["royalty"])
                    royalty_rows += 1
        out[player["name"]] = {
            "fouls": int(bool(player.get("fouled"))),
            "surrenders": int(bool(player.get("surrendered"))),
            "scoops": 0,
            "scooped": 0,
            "naturals": naturals,
            "royalty_rows": royalty_rows,
            "royalties": decimal_text(royalties),
            "wins": int(bool(player.get("winner"))),
            "cards_left": int(player.get("cards_left") or 0),
            "fantasy_entries": int(
                player.get("fantasyland_next") is not None and player["name"] not in fantasy
            ),
            "fantasy_stays": int(
                player.get("fantasyland_next") is not None and player["name"] in fantasy
            ),
        }
    for pair in result["pairs"]:
        for hand in player_hands(pair):
            scoop = hand.get("scoop")
            winner = out.get(scoop) if scoop is not None else None
            if winner is not None:
                winner["scoops"] += 1
                loser = next((p for p in pair["players"] if p != scoop), None)
                if loser in out:
                    out[loser]["scooped"] += 1
    return out
