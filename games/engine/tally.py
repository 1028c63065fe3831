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
    naturals: int
    royalty_rows: int  # rows that carried a royalty
    royalties: str  # their sum, as exact text


def tally(result: Mapping[str, Any]) -> dict[str, Tally]:
    """Per player of the engine's ``result`` (by name, in its order): what they fouled,
    surrendered, scooped, declared and collected in royalties at this deal."""
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
            "naturals": naturals,
            "royalty_rows": royalty_rows,
            "royalties": decimal_text(royalties),
        }
    for pair in result["pairs"]:
        for hand in player_hands(pair):
            scoop = hand.get("scoop")
            winner = out.get(scoop) if scoop is not None else None
            if winner is not None:
                winner["scoops"] += 1
    return out
