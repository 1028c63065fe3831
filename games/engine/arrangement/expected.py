"""Auto-arrange: Monte Carlo over opponents' hands dealt from the unseen cards.

Every legal setting (or, when royalties grow with strength, the few undominated layers
that can hold the best ones) is scored against the sampled opponents over arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from itertools import combinations
from typing import Final, NamedTuple

import numpy as np

from ..cards import RANK_CHARS, RANK_OF, Card
from ..rules import Rules
from ..seats import ScoringTable
from .splits import (
    FIVES,
    FIVES_ARRAY,
    Hand13,
    Ints,
    Rowset,
    Setting,
    evaluate_many,
    front_beats_many,
    row_royalties,
)
from .versus import best_royalties_only, row_outcomes, versus_live

_ACE: Final = RANK_CHARS.index("A")


class Choice(NamedTuple):
    """A setting and its expected units against random opponents."""

    setting: Setting
    expected_units: float


class Arrangement(NamedTuple):
    best: Choice
    alternatives: tuple[Choice, ...]
    samples: int
    seed: int
    natural: str | None = None  # declare this natural instead: it is worth more
    natural_units: Decimal | None = None


_REST_OF_BACK: Final = np.array(
    [[p for p in range(13) if p not in back] for back in FIVES], dtype=np.int64
)
# The 8 cards left beside a back: each middle of 5 of them, and the front that leaves.
_MIDDLES_OF_8: Final = tuple(combinations(range(8), 5))
_MIDDLES_ARRAY: Final = np.array(_MIDDLES_OF_8, dtype=np.int64)
_FRONTS_ARRAY: Final = np.array(
    [[p for p in range(8) if p not in middle] for middle in _MIDDLES_OF_8], dtype=np.int64
)
_CHUNK: Final = 256


def _opponents(table: ScoringTable, hands: Ints) -> Rowset:
    """The heuristic setting of each row of ``hands`` (S x 13 cards), as arrays."""
    rules = table.rules
    fronts: list[Ints] = []
    middles: list[Ints] = []
    raws: list[Ints] = []
    backs: list[Ints] = []
    for start in range(0, len(hands), _CHUNK):
        deal = hands[start : start + _CHUNK]
        rows = np.arange(len(deal))[:, None]
        back_values = evaluate_many(deal[:, FIVES_ARRAY], rules.wheel)
        back_at = back_values.argmax(axis=1)
        rest = deal[rows, _REST_OF_BACK[back_at]]  # S x 8 cards
        middle_cards = rest[:, _MIDDLES_ARRAY]
        if table.lowball:
            middle_raw = evaluate_many(middle_cards, "none")
            middle = -middle_raw
        else:
            middle_raw = middle = evaluate_many(middle_cards, rules.wheel)
        middle_at = middle.argmax(axis=1)
        front_cards = rest[rows, _FRONTS_ARRAY[middle_at]]
        fronts.append(evaluate_many(front_cards, "low"))
        middles.append(middle[rows[:, 0], middle_at])
        raws.append(middle_raw[rows[:, 0], middle_at])
        backs.append(back_values[rows[:, 0], back_at])
    f, m, raw, b = (np.concatenate(x) for x in (fronts, middles, raws, backs))
    fouled = front_beats_many(f, b) if table.lowball else front_beats_many(f, raw) | (m > b)
    for k in np.flatnonzero(fouled):  # only a 2-7 middle can make the greedy choice foul
        h13 = Hand13([int(c) for c in hands[k]], rules)
        at = h13.heuristic()
        f[k], m[k], b[k] = h13.rows.f[at], h13.rows.m[at], h13.rows.b[at]
        raw[k] = -m[k] if table.lowball else m[k]
    royalties = (
        row_royalties(table, 0, f),
        row_royalties(table, 1, raw),
        row_royalties(table, 2, b),
    )
    return Rowset(f, m, b, royalties)


def _undominated(rows: Rowset) -> Ints:
    """Indices of the settings no other setting matches or beats in every row.

    Scoring only improves when a row gets stronger (royalties are checked to grow with
    strength before this is used), so a dominated setting can never score more.
    """
    order = np.lexsort((-rows.b, -rows.m, -rows.f))
    f, m, b = rows.f[order], rows.m[order], rows.b[order]
    m_levels, m_rank = np.unique(m, return_inverse=True)
    # best_b[r]: the strongest back among settings seen so far whose middle ranks >= r.
    best_b = np.full(len(m_levels), -(1 << 30))
    keep: list[Ints] = []
    starts = np.flatnonzero(np.r_[True, f[1:] != f[:-1]])
    ends = np.r_[starts[1:], len(f)]
    for start, end in zip(starts, ends, strict=True):
        gm, gb, gr = m[start:end], b[start:end], m_rank[start:end]
        earlier = np.maximum.accumulate(np.r_[-(1 << 30), gb[:-1]])
        alive = (earlier < gb) & (best_b[gr] < gb)
        keep.append(order[start:end][alive])
        np.maximum.at(best_b, gr, gb)
        best_b = np.maximum.accumulate(best_b[::-1])[::-1]
        del gm
    return np.concatenate(keep)


def _royalties_grow(rows: Rowset) -> bool:
    for values, royalty in zip((rows.f, rows.m, rows.b), rows.r, strict=True):
        order = np.argsort(values, kind="stable")
        if np.any(np.diff(royalty[order]) < 0):
            return False
    return True


def arrange_expected(
    cards13: Sequence[Card], rules: Rules, *, samples: int = 2000, seed: int = 0, top: int = 3
) -> Arrangement:
    """The legal setting with the most expected units against one random opponent.

    Each sample deals the opponent 13 of the 39 unseen cards, set by the heuristic
    (it never surrenders or declares a natural); every candidate is scored against it
    with the engine's pairwise rules. ``samples`` trades time for accuracy; the same
    ``seed`` gives the same answer. A natural the cards make is reported when its value
    beats the best expected units.
    """
    if samples < 1:
        raise ValueError("samples must be at least 1")
    h13 = Hand13(cards13, rules)
    table = h13.table
    candidates = h13.legal
    legal_rows = h13.rows
    if _royalties_grow(legal_rows):
        # The k-th best setting lies within the first k layers of undominated settings.
        layers: list[Ints] = []
        rest = np.arange(len(candidates))
        for _ in range(top + 1):
            if not rest.size:
                break
            layer = rest[_undominated(legal_rows.take(rest))]
            layers.append(layer)
            rest = np.setdiff1d(rest, layer, assume_unique=True)
        kept = np.concatenate(layers)
        candidates, legal_rows = candidates[kept], legal_rows.take(kept)
    dealt = sample_hands(h13.cards, samples, seed)
    opponents = _opponents(table, dealt)
    expected = np.empty(len(candidates))
    o = Rowset(
        opponents.f[None, :],
        opponents.m[None, :],
        opponents.b[None, :],
        (opponents.r[0][None, :], opponents.r[1][None, :], opponents.r[2][None, :]),
    )
    block = max(1, 2_000_000 // samples)
    for start in range(0, len(candidates), block):
        part = legal_rows.take(np.arange(start, min(start + block, len(candidates))))
        c = Rowset(
            part.f[:, None],
            part.m[:, None],
            part.b[:, None],
            tuple(r[:, None] for r in part.r),  # type: ignore[arg-type]
        )
        wins, losses = row_outcomes(c, o)
        if rules.royalty_best_only:
            units = versus_live(table, *best_royalties_only(c, o), wins, losses, 2.0, 2.0)
        else:
            units = versus_live(table, c, o, wins, losses, 2.0, 2.0)
        expected[start : start + len(part.f)] = units.mean(axis=1)
    if rules.ace_bonus is not None:  # Chi Á: the same for every setting, so added once
        their_aces = sum(1 for card in dealt.ravel() if RANK_OF[int(card)] == _ACE) / samples
        expected += float(rules.ace_bonus) * (h13.aces - their_aces)
    ranked = np.argsort(-expected, kind="stable")[: top + 1]
    choices = [Choice(h13.setting(int(candidates[i])), float(expected[i])) for i in ranked]
    natural: str | None = None
    natural_units: Decimal | None = None
    for name, value, _layout in h13.naturals():
        if value > Decimal(str(choices[0].expected_units)) and (
            natural_units is None or value > natural_units
        ):
            natural, natural_units = name, value
    return Arrangement(choices[0], tuple(choices[1:]), samples, seed, natural, natural_units)


def sample_hands(held: Sequence[Card], samples: int, seed: int) -> Ints:
    """``samples`` random 13-card hands (rows of card ints) from the cards not ``held``."""
    unseen = np.array([c for c in _deck() if c not in set(held)], dtype=np.int64)
    rng = np.random.default_rng(seed)
    picks = rng.random((samples, len(unseen))).argsort(axis=1)[:, :13]
    hands: Ints = unseen[picks]
    return hands


@cache
def _deck() -> tuple[Card, ...]:
    from ..cards import DECK

    return DECK
