"""Hand ranking: five-card rows, three-card fronts, the wheel option and 2-7 lowball.

A hand's strength is one int: the category in bits 20 and up, then five 4-bit
slots of tie-breaking ranks, most significant first. Bigger is stronger, equal is a
tie (suits never break ties). Three-card fronts use the same scale, filling fewer
slots, so a front can be held against a middle for the foul rule.

Evaluation is one dict lookup keyed by the sum of the cards (see ``cards``) masked
down to the rank part and the four flush bits, so the key says nothing else about
suits. The tables are built once per wheel option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from typing import Final, Literal

from .cards import RANK_CHARS, Card
from .messages import Message, english_hand, message

CATEGORIES: Final = (
    "high_card",
    "pair",
    "two_pair",
    "trips",
    "straight",
    "flush",
    "full_house",
    "quads",
    "straight_flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_SHIFT: Final = 20
ROYAL_STRENGTH: Final = 9  # slot value of an ace-high straight under every wheel option

Wheel = Literal["low", "second", "none"]
"""``low``: A-2-3-4-5 is the lowest straight; ``second``: it ranks just below
T-J-Q-K-A; ``none``: it is no straight at all (aces are always high, as in 2-7 lowball)."""

_WHEEL_RANKS: Final = (12, 3, 2, 1, 0)


def category_of(value: int) -> int:
    """The category index (0 = high card .. 8 = straight flush) of a strength."""
    return value >> CATEGORY_SHIFT


def category_name(value: int) -> str:
    """The category's name, with an ace-high straight flush reported as ``royal_flush``."""
    cat = value >> CATEGORY_SHIFT
    if cat == STRAIGHT_FLUSH and _slot(value, 0) == ROYAL_STRENGTH:
        return "royal_flush"
    return CATEGORIES[cat]


def _slot(value: int, index: int) -> int:
    return (value >> (16 - 4 * index)) & 15


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = value << 4 | (ranks[i] if i < len(ranks) else 0)
    return value


def _straight_strength(ranks: Sequence[int], wheel: Wheel) -> int | None:
    """Position of a straight among the ten straights (9 = ace high), or None."""
    top = ranks[0]
    if ranks == tuple(range(top, top - 5, -1)):
        if wheel == "second":
            return 9 if top == 12 else top - 4
        return top - 3
    if ranks == _WHEEL_RANKS and wheel != "none":
        return 0 if wheel == "low" else 8
    return None


def _value_of_ranks(ranks: tuple[int, ...], flush: bool, wheel: Wheel) -> int:
    """Strength of a hand given its ranks (sorted high to low) and whether it is suited."""
    counts = Counter(ranks)
    # Groups first by size, then by rank: K K 9 5 3 -> (K, 9, 5, 3).
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if len(ranks) == 3:
        if shape[0] == 3:
            return _pack(TRIPS, groups)
        if shape[0] == 2:
            return _pack(PAIR, groups)
        return _pack(HIGH_CARD, groups)
    if len(counts) == 5:
        strength = _straight_strength(ranks, wheel)
        if strength is not None:
            return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, [strength])
        return _pack(FLUSH if flush else HIGH_CARD, groups)
    if shape[0] == 4:
        return _pack(QUADS, groups)
    if shape == [3, 2]:
        return _pack(FULL_HOUSE, groups)
    if shape[0] == 3:
        return _pack(TRIPS, groups)
    if shape == [2, 2, 1]:
        return _pack(TWO_PAIR, groups)
    return _pack(PAIR, groups)


# Keeps the rank part and the top bit of each 6-bit suit field.
KEY_MASK: Final = ~sum(0b011111 << (6 * suit) for suit in range(4))


def _rank_key(ranks: Sequence[int]) -> int:
    return sum(int(5**r) for r in ranks) << 24


@cache
def tables(wheel: Wheel) -> tuple[dict[int, int], dict[int, int]]:
    """The five-card and three-card lookup tables for one wheel option."""
    five: dict[int, int] = {}
    for combo in combinations_with_replacement(range(12, -1, -1), 5):
        if max(Counter(combo).values()) > 4:
            continue
        key = _rank_key(combo)
        five[key] = _value_of_ranks(combo, False, wheel)
        if len(set(combo)) == 5:
            suited = _value_of_ranks(combo, True, wheel)
            for suit in range(4):
                five[key | 32 << (6 * suit)] = suited
    three = {
        _rank_key(combo) >> 24: _value_of_ranks(combo, False, wheel)
        for combo in combinations_with_replacement(range(12, -1, -1), 3)
    }
    return five, three


Evaluator = Callable[[Sequence[Card]], int]


@cache
def five_card_evaluator(wheel: Wheel = "low") -> Evaluator:
    """A function from five cards to their strength under ``wheel``."""
    table = tables(wheel)[0]

    def evaluate5(hand: Sequence[Card], table: dict[int, int] = table, mask: int = KEY_MASK) -> int:
        return table[sum(hand) & mask]

    return evaluate5


@cache
def three_card_evaluator() -> Evaluator:
    """A function from three cards to their strength (straights and flushes do not count)."""
    table = tables("low")[1]

    def evaluate3(hand: Sequence[Card], table: dict[int, int] = table) -> int:
        return table[sum(hand) >> 24]

    return evaluate3


evaluate5 = five_card_evaluator("low")
evaluate3 = three_card_evaluator()


def evaluate(hand: Sequence[Card], wheel: Wheel = "low") -> int:
    """Strength of a three- or five-card hand."""
    if len(hand) == 3:
        return evaluate3(hand)
    if len(hand) == 5:
        return five_card_evaluator(wheel)(hand)
    raise ValueError(f"a hand has three or five cards, not {len(hand)}")


# Slots of a front's strength that mean anything, by its category: high card 3,
# pair 2 (pair, kicker), trips 1. The foul rule compares only those.
FRONT_MASKS: Final = {
    HIGH_CARD: ~((1 << 8) - 1),
    PAIR: ~((1 << 12) - 1),
    TRIPS: ~((1 << 16) - 1),
}


def front_beats(front: int, middle: int) -> bool:
    """Whether a front outranks the row behind it, over the front's own three cards."""
    return front > (middle & FRONT_MASKS[front >> CATEGORY_SHIFT])


def straight_top(value: int, wheel: Wheel) -> int:
    """The top rank of a straight or straight flush strength (a wheel's top is the five)."""
    strength = _slot(value, 0)
    if wheel == "second":
        if strength == 8:
            return 3
        return 12 if strength == 9 else strength + 4
    if strength == 0 and wheel == "low":
        return 3
    return strength + 3


def hand_code(value: int, size: int = 5, wheel: Wheel = "low", *, low: bool = False) -> Message:
    """A ``size``-card strength as a message: its code and the ranks that name it."""
    cat = value >> CATEGORY_SHIFT
    ranks = [RANK_CHARS[_slot(value, i)] for i in range(5)]
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        top = straight_top(value, wheel)
        if cat == STRAIGHT_FLUSH and top == 12:
            return message("royal_flush")
        code = "straight_flush" if cat == STRAIGHT_FLUSH else "straight"
        return message(code, high=RANK_CHARS[top], wheel=top == 3)
    if cat == QUADS:
        return message("quads", rank=ranks[0])
    if cat == FULL_HOUSE:
        return message("full_house", rank=ranks[0], over=ranks[1])
    if cat == FLUSH:
        return message("flush", ranks=ranks)
    if cat == TRIPS:
        return message("trips", rank=ranks[0])
    if cat == TWO_PAIR:
        return message("two_pair", high=ranks[0], low=ranks[1], kicker=ranks[2])
    if cat == PAIR:
        return message("pair", rank=ranks[0], kickers=ranks[1 : size - 1])
    if low:
        return message("low", rank=ranks[0], ranks=ranks[:size])
    return message("high_card", rank=ranks[0], kickers=ranks[1:size])


@cache
def describe(value: int, size: int = 5, wheel: Wheel = "low", *, low: bool = False) -> str:
    """A readable name of a ``size``-card strength: "Full house, Sevens over Nines"."""
    return english_hand(hand_code(value, size, wheel, low=low))
