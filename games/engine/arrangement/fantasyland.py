"""A fantasy-land hand of 14 to 17 cards (RULES 8a): which 13 to keep, set how, and which
to discard. Nobody's rows are known yet, so the best setting is the one whose royalties
add up to the most; among equals, the strongest back, then middle, then front.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from itertools import combinations
from typing import NamedTuple

import numpy as np

from ..cards import Card
from ..rules import Rules
from ..seats import table_for
from .splits import Floats, Hand13, Setting, evaluate_many, row_royalties


class FantasySetting(NamedTuple):
    setting: Setting
    discards: tuple[Card, ...]
    royalties: Decimal  # what the three rows' royalties add up to


def arrange_fantasyland(cards: Sequence[Card], rules: Rules) -> FantasySetting:
    """The 13 cards to keep, set for the most royalties, and the cards to discard.

    Every way to keep 13 of the cards is tried (17 cards: 2,380 ways, a few seconds);
    a setting that fouls is never chosen.
    """
    cards = tuple(sorted(cards, reverse=True))
    best: tuple[float, int, int, int] | None = None
    found: FantasySetting | None = None
    drops = list(combinations(range(len(cards)), len(cards) - 13))
    bounds = _royalty_bounds(cards, rules, drops)
    for k in np.argsort(-bounds, kind="stable"):
        if best is not None and bounds[k] < best[0]:
            break  # no setting of these or any later 13 cards can earn as much
        dropped = tuple(cards[p] for p in drops[k])
        kept = [c for c in cards if c not in dropped]
        hand = Hand13(kept, rules)
        rows = hand.rows
        total = rows.r[0] + rows.r[1] + rows.r[2]
        at = int(np.lexsort((rows.f, rows.m, rows.b, total))[-1])
        key = (float(total[at]), int(rows.b[at]), int(rows.m[at]), int(rows.f[at]))
        if best is None or key > best:
            best = key
            royalties = Decimal(str(total[at]))
            found = FantasySetting(hand.setting(int(hand.legal[at])), dropped, royalties)
    assert found is not None
    return found


def _royalty_bounds(
    cards: tuple[Card, ...], rules: Rules, drops: Sequence[tuple[int, ...]]
) -> Floats:
    """For each way to keep 13 cards, the most its rows' royalties could add up to: the
    best front, middle and back royalties among the kept cards, each on its own."""
    table = table_for(rules)
    deck = np.array(cards, dtype=np.int64)
    n = len(cards)
    threes = np.array(list(combinations(range(n), 3)), dtype=np.int64)
    fives = np.array(list(combinations(range(n), 5)), dtype=np.int64)
    three_masks = (1 << threes).sum(axis=1)
    five_masks = (1 << fives).sum(axis=1)
    front = row_royalties(table, 0, evaluate_many(deck[threes], "low"))
    values5 = evaluate_many(deck[fives], rules.wheel)
    middle = row_royalties(table, 1, values5)
    back = row_royalties(table, 2, values5)
    bounds = np.zeros(len(drops))
    for k, drop in enumerate(drops):
        gone = sum(1 << p for p in drop)
        fits3 = (three_masks & gone) == 0
        fits5 = (five_masks & gone) == 0
        bounds[k] = front[fits3].max() + middle[fits5].max() + back[fits5].max()
    return bounds
