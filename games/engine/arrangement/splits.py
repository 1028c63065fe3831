"""Every way to set 13 cards, evaluated as arrays, and the quick heuristic.

Each of the 286 three-card and 1,287 five-card subsets of a hand is evaluated once; a
setting is three indices into those strengths, so the 72,072 settings are index arrays
built once, and scoring them against opponents is array arithmetic (``versus``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal
from functools import cache
from itertools import combinations
from typing import Any, Final, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from ..cards import RANK_CHARS, RANK_OF, SUIT_OF, Card, cards_text
from ..games import GAMES
from ..hands import Rows
from ..naturals import holds_natural
from ..ranking import CATEGORY_SHIFT, FRONT_MASKS, KEY_MASK, STRAIGHT, STRAIGHT_FLUSH, Wheel, tables
from ..rules import Rules
from ..seats import ScoringTable, table_for

Ints = npt.NDArray[np.signedinteger[Any]]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

_ACE: Final = RANK_CHARS.index("A")
SPLITS: Final = 72_072  # C(13, 5) backs x C(8, 5) middles
_THREES: Final = tuple(combinations(range(13), 3))
FIVES: Final = tuple(combinations(range(13), 5))
THREES_ARRAY: Final = np.array(_THREES, dtype=np.int64)
FIVES_ARRAY: Final = np.array(FIVES, dtype=np.int64)


class Setting(NamedTuple):
    """Rows of a setting, each sorted high card first."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    @property
    def rows(self) -> Rows:
        return (self.front, self.middle, self.back)

    def text(self) -> tuple[str, str, str]:
        return (cards_text(self.front), cards_text(self.middle), cards_text(self.back))


def position_mask(positions: Sequence[int]) -> int:
    """The bits of a group of card positions (0-12) in the sorted hand."""
    return sum(1 << p for p in positions)


THREE_MASKS: Final = np.array([position_mask(t) for t in _THREES], dtype=np.int64)
FIVE_MASKS: Final = np.array([position_mask(f) for f in FIVES], dtype=np.int64)


@cache
def split_index() -> tuple[Ints, Ints, Ints]:
    """For each of the 72,072 splits: (front, middle, back) indices into the subsets."""
    three_at = {position_mask(c): i for i, c in enumerate(_THREES)}
    five_at = {position_mask(c): i for i, c in enumerate(FIVES)}
    fronts: list[int] = []
    middles: list[int] = []
    backs: list[int] = []
    full = (1 << 13) - 1
    for b, back in enumerate(FIVES):
        rest = full ^ position_mask(back)
        rest_positions = [p for p in range(13) if rest >> p & 1]
        for middle in combinations(rest_positions, 5):
            m = position_mask(middle)
            backs.append(b)
            middles.append(five_at[m])
            fronts.append(three_at[rest ^ m])
    return (
        np.array(fronts, dtype=np.int64),
        np.array(middles, dtype=np.int64),
        np.array(backs, dtype=np.int64),
    )


@cache
def _sorted_table(wheel: Wheel, size: int) -> tuple[Ints, Ints]:
    five, three = tables(wheel)
    table = five if size == 5 else three
    keys = np.array(sorted(table), dtype=np.int64)
    values = np.array([table[int(k)] for k in keys], dtype=np.int64)
    return keys, values


def evaluate_many(cards: Ints, wheel: Wheel) -> Ints:
    """Strengths of card groups (last axis: 3 or 5 cards), vectorised ``ranking`` lookups."""
    total = cards.sum(axis=-1)
    if cards.shape[-1] == 3:
        keys, values = _sorted_table("low", 3)
        found: Ints = values[np.searchsorted(keys, total >> 24)]
        return found
    keys, values = _sorted_table(wheel, 5)
    found = values[np.searchsorted(keys, total & KEY_MASK)]
    return found


FRONT_MASKS_ARRAY: Final = np.array([FRONT_MASKS.get(c, -1) for c in range(4)], dtype=np.int32)


def front_beats_many(front: Ints, behind: Ints) -> Bools:
    """``ranking.front_beats`` over arrays."""
    beats: Bools = front > (behind & FRONT_MASKS_ARRAY[front >> CATEGORY_SHIFT])
    return beats


def row_royalties(table: ScoringTable, row: int, values: Ints) -> Floats:
    """The royalty of each strength in ``row``, as floats (royalties are few and exact)."""
    if not table.has_royalties or (row == 1 and table.lowball):
        return np.zeros(values.shape)
    strengths, royalties = royalty_lookup(table, row)
    found: Floats = royalties[np.searchsorted(strengths, values)]
    return found


def royalty_lookup(table: ScoringTable, row: int) -> tuple[Ints, Floats]:
    """Every strength a row can have, sorted, with its royalty; kept with the rules."""
    cached = table.__dict__.setdefault("_arrange_royalties", {})
    if row not in cached:
        wheel: Wheel = table.rules.wheel
        five, three = tables(wheel)
        strengths = np.unique(np.fromiter((three if row == 0 else five).values(), np.int64))
        royalties = np.array([float(table.royalty(row, int(v))) for v in strengths])
        cached[row] = (strengths, royalties)
    return cast(tuple[Ints, Floats], cached[row])


class Rowset(NamedTuple):
    """Settings as arrays: comparable strengths (a lowball middle negated) and royalties."""

    f: Ints
    m: Ints
    b: Ints
    r: tuple[Floats, Floats, Floats]

    def take(self, idx: Ints) -> Rowset:
        f, m, b, r = self
        return Rowset(f[idx], m[idx], b[idx], (r[0][idx], r[1][idx], r[2][idx]))


class Hand13:
    """Every split of one 13-card hand, evaluated through its subsets."""

    def __init__(self, cards: Sequence[Card], rules: Rules) -> None:
        if len(cards) != 13 or len(set(cards)) != 13:
            raise ValueError("arrangement needs 13 different cards")
        if not GAMES[rules.game].rows:
            raise ValueError("Big Two has no rows to arrange")
        self.cards = tuple(sorted(cards, reverse=True))
        self.rules = rules
        self.table = table = table_for(rules)
        deck = np.array(self.cards, dtype=np.int64)
        self.deck = deck
        # Strengths fit 32 bits, and gathering 72,072 of them is then three times faster.
        threes = evaluate_many(deck[THREES_ARRAY], "low").astype(np.int32)
        fives = evaluate_many(deck[FIVES_ARRAY], rules.wheel).astype(np.int32)
        self.threes, self.fives = threes, fives
        fi, mi, bi = split_index()
        self.fi, self.mi, self.bi = fi, mi, bi
        front, back = threes[fi], fives[bi]
        if table.lowball:
            middles_raw = evaluate_many(deck[FIVES_ARRAY], "none").astype(np.int32)
            middles = -middles_raw
            middle = middles[mi]
            legal = ~front_beats_many(front, back)
        else:
            middles_raw = middles = fives
            middle = middles[mi]
            legal = ~front_beats_many(front, middle) & (middle <= back)
        self.legal: Ints = np.flatnonzero(legal)
        at = self.legal
        # Royalties per subset (1,573 lookups at most), then gathered per setting.
        royalties = (
            row_royalties(table, 0, threes)[fi[at]],
            row_royalties(table, 1, middles_raw)[mi[at]],
            row_royalties(table, 2, fives)[bi[at]],
        )
        self.rows = Rowset(front[at], middle[at], back[at], royalties)

    @property
    def aces(self) -> int:
        """How many aces the 13 cards hold (Chi Á, option ``ace_bonus``)."""
        return sum(1 for c in self.cards if RANK_OF[c] == _ACE)

    def setting(self, split: int) -> Setting:
        c = self.cards
        return Setting(
            tuple(c[p] for p in _THREES[int(self.fi[split])]),
            tuple(c[p] for p in FIVES[int(self.mi[split])]),
            tuple(c[p] for p in FIVES[int(self.bi[split])]),
        )

    def heuristic(self) -> int:
        """The position in ``legal`` of the legal split with the strongest back, then
        middle, then front."""
        a = self.rows
        return int(np.lexsort((a.f, a.m, a.b))[-1])

    def naturals(self) -> list[tuple[str, Decimal, Setting]]:
        """The naturals these cards make that the rules pay, with a layout that makes each."""
        found: list[tuple[str, Decimal, Setting]] = []
        evaluate5 = self.table.evaluate5
        plain = Setting(self.cards[:3], self.cards[3:8], self.cards[8:])
        for name, value in self.rules.naturals.items():
            if value is None:
                continue
            if name in ("three_flushes", "three_straights"):
                split = self.row_natural(name)
                if split is not None:
                    found.append((name, value, self.setting(split)))
            elif holds_natural(name, plain.rows, evaluate5):
                found.append((name, value, plain))
        return found

    def row_natural(self, name: str) -> int | None:
        """The first split (of the 72,072) whose rows make ``name`` (three flushes or
        three straights), or None."""
        if name == "three_flushes":
            suits = np.array([SUIT_OF[c] for c in self.cards], dtype=np.int64)
            three, five = suits[THREES_ARRAY], suits[FIVES_ARRAY]
            three_ok = (three == three[:, :1]).all(axis=1)
            five_ok = (five == five[:, :1]).all(axis=1)
        else:
            ranks = np.array([RANK_OF[c] for c in self.cards], dtype=np.int64)
            r = ranks[THREES_ARRAY]  # each row high card first
            in_sequence = (r[:, 0] == r[:, 1] + 1) & (r[:, 1] == r[:, 2] + 1)
            three_ok = in_sequence | ((r[:, 0] == 12) & (r[:, 1] == 1) & (r[:, 2] == 0))
            category = self.fives >> CATEGORY_SHIFT
            five_ok = (category == STRAIGHT) | (category == STRAIGHT_FLUSH)
        if not (three_ok.any() and five_ok.any()):
            return None
        hits = np.flatnonzero(three_ok[self.fi] & five_ok[self.mi] & five_ok[self.bi])
        return int(hits[0]) if hits.size else None


def settings(cards13: Sequence[Card], rules: Rules, *, legal_only: bool = True) -> list[Setting]:
    """Every split of 13 cards into 3/5/5 rows (72,072), without the fouls unless told."""
    hand = Hand13(cards13, rules)
    splits = hand.legal if legal_only else range(SPLITS)
    return [hand.setting(int(s)) for s in splits]


def iter_settings(cards13: Sequence[Card], rules: Rules) -> Iterator[Setting]:
    """The legal settings of 13 cards, one at a time."""
    hand = Hand13(cards13, rules)
    for s in hand.legal:
        yield hand.setting(int(s))


def arrange_heuristic(cards13: Sequence[Card], rules: Rules) -> Setting:
    """The strongest back, then the strongest middle of what is left, then the front;
    among legal settings only, so a foul is never suggested."""
    hand = Hand13(cards13, rules)
    return hand.setting(int(hand.legal[hand.heuristic()]))
