"""The rule book's tables as data: the games, the rows, the naturals, and the royalty and
naturals tables that presets (and rule overrides) name.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Final, Literal

from .cards import RANK_CHARS

Game = Literal["chinese", "open-face", "big-two"]
Row = Literal["front", "middle", "back"]
ROWS: Final[tuple[Row, Row, Row]] = ("front", "middle", "back")

NATURALS: Final = (
    "clean_dragon",
    "dragon",
    "same_color_13",
    "same_color_12",
    "five_pairs_trips",
    "five_consecutive_pairs",
    "six_pairs",
    "three_flushes",
    "three_straights",
    "no_broadway",
)

RoyaltyTable = Mapping[Row, Mapping[str, Decimal]]


def _d(value: str | int) -> Decimal:
    return Decimal(value)


def _table(front: dict[str, int], middle: dict[str, int], back: dict[str, int]) -> RoyaltyTable:
    return {
        "front": {k: _d(v) for k, v in front.items()},
        "middle": {k: _d(v) for k, v in middle.items()},
        "back": {k: _d(v) for k, v in back.items()},
    }


ROYALTY_TABLES: Final[dict[str, RoyaltyTable]] = {
    "none": _table({}, {}, {}),
    "baseline": _table(
        {"trips": 3},
        {"full_house": 2, "quads": 8, "straight_flush": 10, "royal_flush": 20},
        {"quads": 4, "straight_flush": 5, "royal_flush": 10},
    ),
    "open-face": _table(
        {
            **{f"pair_{RANK_CHARS[r]}": r - 3 for r in range(4, 13)},  # sixes 1 .. aces 9
            **{f"trips_{RANK_CHARS[r]}": r + 10 for r in range(13)},  # twos 10 .. aces 22
        },
        {
            "trips": 2,
            "straight": 4,
            "flush": 8,
            "full_house": 12,
            "quads": 20,
            "straight_flush": 30,
            "royal_flush": 50,
        },
        {
            "straight": 2,
            "flush": 4,
            "full_house": 6,
            "quads": 10,
            "straight_flush": 15,
            "royal_flush": 25,
        },
    ),
    "mau-binh": _table(
        {"trips": 3},
        {"full_house": 2, "quads": 8, "straight_flush": 10},
        {"quads": 4, "straight_flush": 5},
    ),
}

NO_NATURALS: Final[dict[str, Decimal | None]] = dict.fromkeys(NATURALS)
NATURAL_TABLES: Final[dict[str, Mapping[str, Decimal | None]]] = {
    "none": NO_NATURALS,
    "baseline": {
        **NO_NATURALS,
        "six_pairs": _d(3),
        "three_straights": _d(3),
        "three_flushes": _d(3),
        "dragon": _d(13),
    },
    "mau-binh": {
        **NO_NATURALS,
        "clean_dragon": _d(24),
        "dragon": _d(12),
        "same_color_13": _d(6),
        "same_color_12": _d(6),
        "five_pairs_trips": _d(6),
        "five_consecutive_pairs": _d(6),  # RULES 13: in the Mau Binh table from its addition
        "six_pairs": _d(6),
        "three_flushes": _d(6),
        "three_straights": _d(6),
    },
}
