"""The review of a whole deal at once: every player's answer as ``review`` gives
it, with the work the players share done once.

``review.review`` reviews one player: it evaluates that player's subsets, scores the deal
as it was, seats the others and looks for naturals. Reviewing the four players of a deal
that way scores the deal four times and builds each player's arrays with separate array
calls. Here the four hands' 3- and 5-card subsets are evaluated and their settings'
legality worked out in one array pass (players x 72,072), the deal as it was is scored
once, the table is seated once, and naturals that the cards cannot make are ruled out
from card counts before any array is built. The answers are the same, setting for setting:
a test holds them equal to ``review`` on random deals under every preset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from typing import Final, Literal, NamedTuple, cast

import numpy as np

from ..cards import SUIT_OF, Card
from ..hands import Hand, PlayerResult
from ..naturals import holds_natural
from ..ranking import CATEGORY_SHIFT, STRAIGHT, STRAIGHT_FLUSH
from ..rules import Rules
from ..scoring import score_hands
from ..seats import ScoringTable, Seat, seat_for, table_for
from .review import Review, exact_units, nearest_legal_setting, with_setting
from .splits import (
    FIVES_ARRAY,
    FRONT_MASKS_ARRAY,
    THREES_ARRAY,
    Floats,
    Hand13,
    Ints,
    Rowset,
    Setting,
    evaluate_many,
    row_royalties,
    royalty_lookup,
    split_index,
)
from .versus import table_units

# The suit counts of 13 cards that three flush rows (3, 5 and 5 cards) can be made from.
_FLUSH_COUNTS: Final = {(3, 5, 5), (5, 8), (3, 10), (13,)}


class _Subsets(NamedTuple):
    """One row of a hand's legal settings, through its subsets: each subset's comparable
    strength and royalty, and which subset each legal setting puts in the row."""

    values: Ints
    royalties: Floats
    at: Ints


def review_all(hands: Sequence[Hand], rules: Rules) -> list[Review | None]:
    """``review(hands, rules, k)`` for every player ``k`` with rows, in seat order (None for
    a player without rows: surrendered without cards or hand not shown)."""
    hands = tuple(hands)
    shown = [k for k, h in enumerate(hands) if h.rows is not None]
    if not shown:
        return [None] * len(hands)
    built = _hands13([[c for row in hands[k].rows or () for c in row] for k in shown], rules)
    table = table_for(rules)
    scored = score_hands(hands, rules)
    seats = [seat_for(table, h) for h in hands]
    found: list[Review | None] = [None] * len(hands)
    for k, (h13, rows) in zip(shown, built, strict=True):
        others = [s for j, s in enumerate(seats) if j != k]
        units = _cell_units(h13, rows, others)
        found[k] = _review_one(hands, rules, k, h13, scored.players[k], units)
    return found


def _cell_units(h13: Hand13, rows: tuple[_Subsets, ...], others: Sequence[Seat]) -> Floats:
    """``versus.table_units`` of every legal setting, scored once per cell.

    A setting's units depend on its rows only through how each row compares with the
    others' rows (below, equal to or above each of their strengths) and the row's royalty.
    The subsets of each row fall into a few such classes; every combination of one class
    per row (a cell) is scored with ``table_units`` from a representative, and each
    setting takes its cell's units: the same floats, from far fewer array elements.
    """
    if not h13.table.has_royalties:  # a few array passes a setting: cells do not pay
        return table_units(h13.table, _legal_rowset(rows), others, h13.aces)
    inverse: list[Ints] = []
    picked: list[tuple[Ints, Floats]] = []
    for row, sub in enumerate(rows):
        theirs = np.array(sorted({s.values[row] for s in others}), dtype=np.int64)
        bucket = np.searchsorted(theirs, sub.values, "left") + np.searchsorted(
            theirs, sub.values, "right"
        )
        levels = _royalty_levels(h13.table, row)
        classes = bucket * len(levels) + np.searchsorted(levels, sub.royalties)
        # Each class present, numbered in order, and the first subset of each.
        first = np.full((2 * len(theirs) + 1) * len(levels), -1, dtype=np.int64)
        first[classes[::-1]] = np.arange(len(classes) - 1, -1, -1)
        present = np.flatnonzero(first >= 0)
        number = np.zeros(len(first), dtype=np.int64)
        number[present] = np.arange(len(present))
        inverse.append(number[classes])
        picked.append((sub.values[first[present]], sub.royalties[first[present]]))
    sizes = [len(v) for v, _r in picked]
    cells = sizes[0] * sizes[1] * sizes[2]
    if cells >= len(h13.legal):  # no fewer cells than settings: score the settings
        return table_units(h13.table, _legal_rowset(rows), others, h13.aces)
    grid = np.indices(sizes).reshape(3, -1)
    reps = [(v[g], r[g]) for (v, r), g in zip(picked, grid, strict=True)]
    rowset = Rowset(reps[0][0], reps[1][0], reps[2][0], (reps[0][1], reps[1][1], reps[2][1]))
    per_cell = table_units(h13.table, rowset, others, h13.aces)
    key = (inverse[0][rows[0].at] * sizes[1] + inverse[1][rows[1].at]) * sizes[2]
    key += inverse[2][rows[2].at]
    units: Floats = per_cell[key]
    return units


def _legal_rowset(rows: tuple[_Subsets, ...]) -> Rowset:
    """The legal settings as ``Rowset`` arrays, one element a setting."""
    f, m, b = (sub.values[sub.at] for sub in rows)
    r = tuple(sub.royalties[sub.at] for sub in rows)
    return Rowset(f, m, b, (r[0], r[1], r[2]))


def _royalty_levels(table: ScoringTable, row: int) -> Floats:
    """Every royalty a row can have (0 among them), sorted; kept with the rules."""
    cached = table.__dict__.setdefault("_review_royalty_levels", {})
    if row not in cached:
        cached[row] = np.unique(np.r_[0.0, royalty_lookup(table, row)[1]])
    return cast(Floats, cached[row])


def _review_one(
    hands: tuple[Hand, ...],
    rules: Rules,
    k: int,
    h13: Hand13,
    actual: PlayerResult,
    units: Floats,
) -> Review:
    """``review.review`` for player ``k``, from the units of each legal setting."""
    hand = hands[k]
    assert hand.rows is not None
    actual_units = actual.units
    best = h13.setting(int(h13.legal[int(np.argmax(units))]))
    best_units = exact_units(hands, rules, k, best)
    declare: Literal["natural", "surrender"] | None = None
    natural_name: str | None = None
    for name, _value, layout in _naturals(h13):
        won = score_hands(with_setting(hands, k, layout.rows, natural=name), rules)
        if won.players[k].units > best_units:
            best_units, declare, natural_name = won.players[k].units, "natural", name
    if rules.surrender_cost is not None:
        won = score_hands(with_setting(hands, k, hand.rows, surrender=True), rules)
        if won.players[k].units > best_units:
            best_units, declare, natural_name = won.players[k].units, "surrender", None
    nearest = nearest_legal_setting(h13, hand.rows, units) if actual.status == "fouled" else None
    missed = max(best_units - actual_units, Decimal(0))
    best_units = actual_units + missed  # a foul that paid off is still what was won
    return Review(hand.name, best, best_units, actual_units, missed, declare, natural_name, nearest)


def _hands13(
    cardsets: Sequence[Sequence[Card]], rules: Rules
) -> list[tuple[Hand13, tuple[_Subsets, ...]]]:
    """Each set of cards as ``Hand13`` (without its ``rows``) and its rows' subsets: the
    subsets of all the hands evaluated in one call, then each hand's legal settings found
    (hand by hand: one hand's 72,072 settings stay in the processor's cache)."""
    if any(len(cards) != 13 or len(set(cards)) != 13 for cards in cardsets):
        for cards in cardsets:
            Hand13(cards, rules)  # raises as one hand does
    table = table_for(rules)
    ordered = [tuple(sorted(cards, reverse=True)) for cards in cardsets]
    decks = np.array(ordered, dtype=np.int64)
    five_cards = decks[:, FIVES_ARRAY]
    all_threes = evaluate_many(decks[:, THREES_ARRAY], "low").astype(np.int32)
    all_fives = evaluate_many(five_cards, rules.wheel).astype(np.int32)
    all_raw = evaluate_many(five_cards, "none").astype(np.int32) if table.lowball else all_fives
    fi, mi, bi = split_index()
    built: list[tuple[Hand13, tuple[_Subsets, ...]]] = []
    for p, cards in enumerate(ordered):
        threes, fives, middles_raw = all_threes[p], all_fives[p], all_raw[p]
        middles = -middles_raw if table.lowball else fives
        front, back, middle = threes[fi], fives[bi], middles[mi]
        # ``splits.front_beats_many`` with each front's mask found once per subset.
        mask = FRONT_MASKS_ARRAY[threes >> CATEGORY_SHIFT][fi]
        if table.lowball:
            legal = front <= (back & mask)
        else:
            legal = (front <= (middle & mask)) & (middle <= back)
        h13 = object.__new__(Hand13)
        h13.cards, h13.rules, h13.table, h13.deck = cards, rules, table, decks[p]
        h13.threes, h13.fives = threes, fives
        h13.fi, h13.mi, h13.bi = fi, mi, bi
        at = np.flatnonzero(legal)
        h13.legal = at
        rows = (
            _Subsets(threes, row_royalties(table, 0, threes), fi[at]),
            _Subsets(middles, row_royalties(table, 1, middles_raw), mi[at]),
            _Subsets(fives, row_royalties(table, 2, fives), bi[at]),
        )
        built.append((h13, rows))
    return built


def _naturals(h13: Hand13) -> list[tuple[str, Decimal, Setting]]:
    """``h13.naturals()``, with the row naturals the cards cannot make ruled out first."""
    found: list[tuple[str, Decimal, Setting]] = []
    plain = Setting(h13.cards[:3], h13.cards[3:8], h13.cards[8:])
    for name, value in h13.rules.naturals.items():
        if value is None:
            continue
        if name in ("three_flushes", "three_straights"):
            if not _row_natural_possible(h13, name):
                continue
            split = h13.row_natural(name)
            if split is not None:
                found.append((name, value, h13.setting(split)))
        elif holds_natural(name, plain.rows, h13.table.evaluate5):
            found.append((name, value, plain))
    return found


def _row_natural_possible(h13: Hand13, name: str) -> bool:
    """False when the cards cannot make three flushes (their suit counts cannot be split
    3, 5, 5) or three straights (no five of them make a straight)."""
    if name == "three_flushes":
        counts = tuple(sorted(Counter(SUIT_OF[c] for c in h13.cards).values()))
        return counts in _FLUSH_COUNTS
    category = h13.fives >> CATEGORY_SHIFT
    return bool(((category == STRAIGHT) | (category == STRAIGHT_FLUSH)).any())
