"""Four 13-card hands that use the whole deck, and what they do to each other.

Rows, strongest first (classic-1-6: no royalty among them):
  front:  D pair of threes > B pair of twos > A ace high > C queen high
  middle: C trips 8 > D queens and jacks > B tens and fives > A pair of fours
  back:   C full house > B straight > A trips 7 > D aces and kings

So, one unit per row and a scoop doubled: A-B: B scoops, A -6; A-C: A wins the front
only, -1; A-D: A wins the back only, -1; B-C: -1; B-D: -1; C-D: C wins middle and back, +1.
Per hand: A -8, B +4, C +3, D +1. D also holds six pairs (AA KK QQ JJ 99 33), a natural.
"""

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

HANDS: dict[str, dict[str, str]] = {
    "A": {"front": "Ac Kc 3d", "middle": "4c 4d 9h Jd Qs", "back": "7c 7d 7h 2s 5d"},
    "B": {"front": "2c 2d 8s", "middle": "5c 5h Tc Ts Kd", "back": "3c 4h 5s 6d 7s"},
    "C": {"front": "Qc Jc 9d", "middle": "8c 8d 8h As 2h", "back": "6c 6h 6s Th Td"},
    "D": {"front": "4s 3h 3s", "middle": "Qd Qh Jh Js 9c", "back": "Ad Ah Ks Kh 9s"},
}

# What the first hand wins from the second (the reverse pays the negative).
HAND_VS_HAND = {
    ("A", "B"): Decimal(-6),
    ("A", "C"): Decimal(-1),
    ("A", "D"): Decimal(-1),
    ("B", "C"): Decimal(-1),
    ("B", "D"): Decimal(-1),
    ("C", "D"): Decimal(1),
}


def deal(sat_out: Sequence[str] = (), **holding: str) -> list[dict[str, Any]]:
    """The players list of a deal: deal(Ann="A", Bob="B") seats Ann with hand A, Bob with B.

    Every seated player is in a deal: those who sat it out are named in ``sat_out``
    (``deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))``), after those who played.
    """
    played = [{"name": name, **HANDS[hand]} for name, hand in holding.items()]
    return played + [{"name": name, "sat_out": True} for name in sat_out]


def fouled(hand: str) -> dict[str, str]:
    """The hand with middle and back swapped: a foul for every hand above."""
    rows = HANDS[hand]
    return {"front": rows["front"], "middle": rows["back"], "back": rows["middle"]}
