"""Naturals (instant wins): whether 13 cards, as laid out in rows, make a given one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Final

from .cards import RANK_OF, SUIT_OF, Card
from .ranking import STRAIGHT, STRAIGHT_FLUSH, Evaluator, category_of

_BROADWAY: Final = frozenset(range(8, 13))  # T J Q K A
_RED: Final = frozenset({1, 2})  # diamonds, hearts


def _ranks(cards: Sequence[Card]) -> list[int]:
    return [RANK_OF[c] for c in cards]


def _pairs(cards: Sequence[Card]) -> int:
    # Four of a kind counts as two pairs, three of a kind as one.
    return sum(n // 2 for n in Counter(_ranks(cards)).values())


def _consecutive_pairs(cards: Sequence[Card]) -> bool:
    # RULES 13: a pair (or more) of each of five consecutive ranks, aces high only
    # (2-3-4-5-6 up to T-J-Q-K-A; A-2-3-4-5 is not a run here).
    counts = Counter(_ranks(cards))
    return any(all(counts[r] >= 2 for r in range(low, low + 5)) for low in range(9))


def _three_card_run(cards: Sequence[Card]) -> bool:
    ranks = sorted(_ranks(cards))
    if ranks == [0, 1, 12]:  # A-2-3
        return True
    return ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1


def _one_suit(cards: Sequence[Card]) -> bool:
    return len({SUIT_OF[c] for c in cards}) == 1


def _colour_majority(cards: Sequence[Card]) -> int:
    red = sum(1 for c in cards if SUIT_OF[c] in _RED)
    return max(red, len(cards) - red)


def holds_natural(
    name: str,
    rows: tuple[Sequence[Card], Sequence[Card], Sequence[Card]],
    evaluate5: Evaluator,
) -> bool:
    """Whether the rows make natural ``name`` (a name from ``rules.NATURALS``)."""
    front, middle, back = rows
    cards = [*front, *middle, *back]
    checks: dict[str, Callable[[], bool]] = {
        "six_pairs": lambda: _pairs(cards) >= 6,
        "five_pairs_trips": lambda: (
            sorted(n for n in Counter(_ranks(cards)).values() if n % 2) == [3]
        ),
        "five_consecutive_pairs": lambda: _consecutive_pairs(cards),
        "dragon": lambda: len(set(_ranks(cards))) == 13,
        "clean_dragon": lambda: len(set(_ranks(cards))) == 13 and _one_suit(cards),
        "no_broadway": lambda: not _BROADWAY.intersection(_ranks(cards)),
        "same_color_13": lambda: _colour_majority(cards) == 13,
        "same_color_12": lambda: _colour_majority(cards) >= 12,
        "three_flushes": lambda: all(_one_suit(row) for row in rows),
        "three_straights": lambda: (
            _three_card_run(front)
            and all(
                category_of(evaluate5(row)) in (STRAIGHT, STRAIGHT_FLUSH) for row in (middle, back)
            )
        ),
    }
    return checks[name]()


def natural_rows(
    name: str, cards: Sequence[Card], evaluate5: Evaluator
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None:
    """Rows of the 13 ``cards`` that make natural ``name``, or None when no setting does.

    Only three flushes and three straights depend on the rows; any other natural is laid
    out in the order given. The search tries fronts that could qualify first, so it stays
    within a few thousand settings.
    """
    cards = tuple(cards)
    if name not in ("three_flushes", "three_straights"):
        rows = (cards[:3], cards[3:8], cards[8:])
        return rows if holds_natural(name, rows, evaluate5) else None
    fits = _one_suit if name == "three_flushes" else _three_card_run
    for front in combinations(cards, 3):
        if not fits(front):
            continue
        rest = [c for c in cards if c not in front]
        for middle in combinations(rest, 5):
            back = tuple(c for c in rest if c not in middle)
            rows = (front, middle, back)
            if holds_natural(name, rows, evaluate5):
                return rows
    return None
