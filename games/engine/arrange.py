"""Arrangement analysis (issue 6): every way to set 13 cards, a quick heuristic, a Monte
Carlo auto-arrange, and the review of a recorded deal.

Each of the 286 three-card and 1,287 five-card subsets of a hand is evaluated once; a
setting is three indices into those strengths, so the 72,072 settings are index arrays
built once, and scoring them against opponents is array arithmetic. Units are computed
as floats for ranking and the chosen answers are re-scored exactly with ``score_hands``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from functools import cache
from itertools import combinations
from typing import Any, Final, Literal, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from .cards import RANK_OF, SUIT_OF, Card, cards_text, parse_cards
from .errors import ScoreError
from .naturals import holds_natural
from .ranking import _FRONT_MASK, _KEY_MASK, CATEGORY_SHIFT, STRAIGHT, STRAIGHT_FLUSH, Wheel, tables
from .request import parse_request
from .rules import Rules, decimal_text
from .scoring import DealResult, Hand, Rows, _Seat, _seat, _Table, _table_for, score_hands

Ints = npt.NDArray[np.signedinteger[Any]]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

SPLITS: Final = 72_072  # C(13, 5) backs x C(8, 5) middles
_THREES: Final = tuple(combinations(range(13), 3))
_FIVES: Final = tuple(combinations(range(13), 5))
_MIDDLES_OF_8: Final = tuple(combinations(range(8), 5))
_THREES_ARRAY: Final = np.array(_THREES, dtype=np.int64)
_FIVES_ARRAY: Final = np.array(_FIVES, dtype=np.int64)
_FRONTS_OF_8: Final = tuple(tuple(p for p in range(8) if p not in m) for m in _MIDDLES_OF_8)


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


class Review(NamedTuple):
    """What one player of a recorded deal could have done with the same cards."""

    player: str
    best: Setting
    best_units: Decimal
    actual_units: Decimal
    missed: Decimal  # best_units - actual_units, never negative
    declare: Literal["natural", "surrender"] | None = None  # the best choice is not rows
    natural: str | None = None
    nearest_legal: Setting | None = None  # for a fouled hand


def _mask(positions: Sequence[int]) -> int:
    return sum(1 << p for p in positions)


_THREE_MASKS: Final = np.array([_mask(t) for t in _THREES], dtype=np.int64)
_FIVE_MASKS: Final = np.array([_mask(f) for f in _FIVES], dtype=np.int64)


@cache
def _split_index() -> tuple[Ints, Ints, Ints]:
    """For each of the 72,072 splits: (front, middle, back) indices into the subsets."""
    three_at = {_mask(c): i for i, c in enumerate(_THREES)}
    five_at = {_mask(c): i for i, c in enumerate(_FIVES)}
    fronts: list[int] = []
    middles: list[int] = []
    backs: list[int] = []
    full = (1 << 13) - 1
    for b, back in enumerate(_FIVES):
        rest = full ^ _mask(back)
        rest_positions = [p for p in range(13) if rest >> p & 1]
        for middle in combinations(rest_positions, 5):
            m = _mask(middle)
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


def _evaluate(cards: Ints, wheel: Wheel) -> Ints:
    """Strengths of card groups (last axis: 3 or 5 cards), vectorised ``ranking`` lookups."""
    total = cards.sum(axis=-1)
    if cards.shape[-1] == 3:
        keys, values = _sorted_table("low", 3)
        found: Ints = values[np.searchsorted(keys, total >> 24)]
        return found
    keys, values = _sorted_table(wheel, 5)
    found = values[np.searchsorted(keys, total & _KEY_MASK)]
    return found


_FRONT_MASKS: Final = np.array([_FRONT_MASK.get(c, -1) for c in range(4)], dtype=np.int32)


def _front_beats(front: Ints, behind: Ints) -> Bools:
    """``ranking.front_beats`` over arrays."""
    beats: Bools = front > (behind & _FRONT_MASKS[front >> CATEGORY_SHIFT])
    return beats


def _royalties(table: _Table, row: int, values: Ints) -> Floats:
    """The royalty of each strength in ``row``, as floats (royalties are few and exact)."""
    if not table.has_royalties or (row == 1 and table.lowball):
        return np.zeros(values.shape)
    strengths, royalties = _royalty_table(table, row)
    found: Floats = royalties[np.searchsorted(strengths, values)]
    return found


def _royalty_table(table: _Table, row: int) -> tuple[Ints, Floats]:
    """Every strength a row can have, sorted, with its royalty; kept with the rules."""
    cached = table.__dict__.setdefault("_arrange_royalties", {})
    if row not in cached:
        wheel: Wheel = table.rules.wheel
        five, three = tables(wheel)
        strengths = np.unique(np.fromiter((three if row == 0 else five).values(), np.int64))
        royalties = np.array([float(table.royalty(row, int(v))) for v in strengths])
        cached[row] = (strengths, royalties)
    return cast(tuple[Ints, Floats], cached[row])


class _Rowset(NamedTuple):
    """Settings as arrays: comparable strengths (a lowball middle negated) and royalties."""

    f: Ints
    m: Ints
    b: Ints
    r: tuple[Floats, Floats, Floats]

    def take(self, idx: Ints) -> _Rowset:
        f, m, b, r = self
        return _Rowset(f[idx], m[idx], b[idx], (r[0][idx], r[1][idx], r[2][idx]))


class _Hand13:
    """Every split of one 13-card hand, evaluated through its subsets."""

    def __init__(self, cards: Sequence[Card], rules: Rules) -> None:
        if len(cards) != 13 or len(set(cards)) != 13:
            raise ValueError("arrangement needs 13 different cards")
        if rules.game == "big-two":
            raise ValueError("Big Two has no rows to arrange")
        self.cards = tuple(sorted(cards, reverse=True))
        self.rules = rules
        self.table = table = _table_for(rules)
        deck = np.array(self.cards, dtype=np.int64)
        self.deck = deck
        # Strengths fit 32 bits, and gathering 72,072 of them is then three times faster.
        threes = _evaluate(deck[_THREES_ARRAY], "low").astype(np.int32)
        fives = _evaluate(deck[_FIVES_ARRAY], rules.wheel).astype(np.int32)
        self.threes, self.fives = threes, fives
        fi, mi, bi = _split_index()
        self.fi, self.mi, self.bi = fi, mi, bi
        front, back = threes[fi], fives[bi]
        if table.lowball:
            middles_raw = _evaluate(deck[_FIVES_ARRAY], "none").astype(np.int32)
            middles = -middles_raw
            middle = middles[mi]
            legal = ~_front_beats(front, back)
        else:
            middles_raw = middles = fives
            middle = middles[mi]
            legal = ~_front_beats(front, middle) & (middle <= back)
        self.legal: Ints = np.flatnonzero(legal)
        at = self.legal
        # Royalties per subset (1,573 lookups at most), then gathered per setting.
        royalties = (
            _royalties(table, 0, threes)[fi[at]],
            _royalties(table, 1, middles_raw)[mi[at]],
            _royalties(table, 2, fives)[bi[at]],
        )
        self.rows = _Rowset(front[at], middle[at], back[at], royalties)

    def setting(self, split: int) -> Setting:
        c = self.cards
        return Setting(
            tuple(c[p] for p in _THREES[int(self.fi[split])]),
            tuple(c[p] for p in _FIVES[int(self.mi[split])]),
            tuple(c[p] for p in _FIVES[int(self.bi[split])]),
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
                split = self._row_natural(name)
                if split is not None:
                    found.append((name, value, self.setting(split)))
            elif holds_natural(name, plain.rows, evaluate5):
                found.append((name, value, plain))
        return found

    def _row_natural(self, name: str) -> int | None:
        if name == "three_flushes":
            suits = np.array([SUIT_OF[c] for c in self.cards], dtype=np.int64)
            three, five = suits[_THREES_ARRAY], suits[_FIVES_ARRAY]
            three_ok = (three == three[:, :1]).all(axis=1)
            five_ok = (five == five[:, :1]).all(axis=1)
        else:
            ranks = np.array([RANK_OF[c] for c in self.cards], dtype=np.int64)
            r = ranks[_THREES_ARRAY]  # each row high card first
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
    hand = _Hand13(cards13, rules)
    splits = hand.legal if legal_only else range(SPLITS)
    return [hand.setting(int(s)) for s in splits]


def iter_settings(cards13: Sequence[Card], rules: Rules) -> Iterator[Setting]:
    """The legal settings of 13 cards, one at a time."""
    hand = _Hand13(cards13, rules)
    for s in hand.legal:
        yield hand.setting(int(s))


def arrange_heuristic(cards13: Sequence[Card], rules: Rules) -> Setting:
    """The strongest back, then the strongest middle of what is left, then the front;
    among legal settings only, so a foul is never suggested."""
    hand = _Hand13(cards13, rules)
    return hand.setting(int(hand.legal[hand.heuristic()]))


# Scoring a candidate (``c``, arrays) against one opponent (``o``): the pairwise rules of
# ``scoring._settle_rows`` and ``_settle_special`` restated over arrays. A test holds the
# two equal on random deals under every preset.


def _row_values(r: tuple[Floats, Floats, Floats]) -> tuple[Floats, Floats, Floats]:
    return (
        np.where(r[0] > 0, r[0], 1.0),
        np.where(r[1] > 0, r[1], 1.0),
        np.where(r[2] > 0, r[2], 1.0),
    )


def _outcomes(c: _Rowset, o: _Rowset) -> tuple[Ints, Ints]:
    """Rows won and rows lost by ``c``."""
    wins = (c.f > o.f).astype(np.int8) + (c.m > o.m) + (c.b > o.b)
    losses = (c.f < o.f).astype(np.int8) + (c.m < o.m) + (c.b < o.b)
    return wins, losses


def _versus_live(
    table: _Table,
    c: _Rowset,
    o: _Rowset,
    wins: Ints,
    losses: Ints,
    c_factor: Floats | float,
    o_factor: Floats | float,
) -> Floats:
    rules = table.rules
    units: Floats
    if table.row_win:
        cv, ov = _row_values(c.r), _row_values(o.r)
        units = np.zeros(np.broadcast_shapes(wins.shape, losses.shape))
        for cs, os_, crv, orv in ((c.f, o.f, cv[0], ov[0]), (c.m, o.m, cv[1], ov[1])):
            units = units + np.where(cs > os_, crv, 0.0) - np.where(cs < os_, orv, 0.0)
        units = units + np.where(c.b > o.b, cv[2], 0.0) - np.where(c.b < o.b, ov[2], 0.0)
    else:
        units = (wins - losses).astype(np.float64)
    if rules.bonus == "1-6":
        units = np.where(
            wins == 3, units * c_factor, np.where(losses == 3, units * o_factor, units)
        )
    elif rules.bonus == "2-4":
        units = units + np.sign(wins - losses)
    if not table.row_win and table.has_royalties:
        units = units + (sum(c.r) - sum(o.r))
    return units


def _versus_fouled(table: _Table, c: _Rowset, o: _Seat, c_factor: Floats | float) -> Floats:
    rules = table.rules
    shape = c.f.shape
    if o.false_natural is not None:
        assert rules.false_natural_penalty is not None
        return np.full(shape, float(rules.false_natural_penalty))
    if rules.foul_penalty == "sweep":
        rows: Floats = sum(_row_values(c.r)) if table.row_win else np.full(shape, 3.0)  # type: ignore[assignment]
        if rules.bonus == "1-6":
            penalty = rows * c_factor
        elif rules.bonus == "2-4":
            penalty = rows + 1.0
        else:
            penalty = rows
        pays_royalties = not table.row_win
    else:
        penalty = np.full(shape, float(rules.foul_penalty))
        pays_royalties = True
    if pays_royalties and rules.foul_pays_royalties and table.has_royalties:
        penalty = penalty + sum(c.r)
    return np.asarray(penalty, dtype=np.float64)


def _seat_rowset(table: _Table, seat: _Seat) -> _Rowset:
    f, m, b = (np.array(v, dtype=np.int64) for v in seat.values)
    r = tuple(np.array(float(x)) for x in seat.royalties)
    return _Rowset(f, m, b, (r[0], r[1], r[2]))


def _table_units(table: _Table, c: _Rowset, others: Sequence[_Seat]) -> Floats:
    """Units a live candidate (arrays of settings) wins at a table of ``others``."""
    rules = table.rules
    n = len(others) + 1
    live = [o for o in others if o.status == "live"]
    rowsets = [_seat_rowset(table, o) for o in live]
    outcomes = [_outcomes(c, o) for o in rowsets]
    two = 2.0
    scoop_all = rules.scoop_all_multiplier is not None and n == 4
    c_factor: Floats | float = two
    o_factors: list[float | Floats] = [two] * len(live)
    if scoop_all:
        mult = float(rules.scoop_all_multiplier)  # type: ignore[arg-type]
        possible = all(
            o.status == "live" or (o.status == "fouled" and rules.foul_counts_as_scoop)
            for o in others
        )
        c_all: Bools = np.full(c.f.shape, possible)
        for wins, _ in outcomes:
            c_all = c_all & (wins == 3)
        c_factor = np.where(c_all, mult, two)
        for k, o in enumerate(live):
            fixed = _scoops_others(rules, o, [x for x in others if x is not o])
            if fixed:
                o_factors[k] = np.where(outcomes[k][1] == 3, mult, two)
    units: Floats = np.zeros(c.f.shape)
    for k, (wins, losses) in enumerate(outcomes):
        units = units + _versus_live(table, c, rowsets[k], wins, losses, c_factor, o_factors[k])
    for o in others:
        if o.status == "fouled":
            units = units + _versus_fouled(table, c, o, c_factor)
        elif o.status == "surrendered":
            assert rules.surrender_cost is not None
            units = units + float(rules.surrender_cost)
        elif o.status == "natural":
            assert o.natural is not None
            value = rules.naturals[o.natural]
            assert value is not None
            units = units - float(value)
    return units


def _scoops_others(rules: Rules, seat: _Seat, others: Sequence[_Seat]) -> bool:
    """Whether ``seat`` (live) wins every row against each of ``others`` (the fixed part of
    ``scoring._scoops_all``; the candidate is checked over arrays)."""
    for other in others:
        if other.status == "fouled" and rules.foul_counts_as_scoop:
            continue
        if other.status != "live":
            return False
        if not all(a > b for a, b in zip(seat.values, other.values, strict=True)):
            return False
    return True


def _as_hands(deal: DealResult | Sequence[Hand]) -> tuple[Hand, ...]:
    if isinstance(deal, DealResult):
        return tuple(
            Hand(
                p.name,
                p.cards,
                surrender=p.status == "surrendered",
                natural=p.natural or p.false_natural,
            )
            for p in deal.players
        )
    return tuple(deal)


def _with_setting(hands: Sequence[Hand], k: int, rows: Rows, **changes: object) -> list[Hand]:
    replaced = list(hands)
    replaced[k] = (
        hands[k]
        ._replace(rows=rows, surrender=False, natural=None)
        ._replace(
            **changes  # type: ignore[arg-type]
        )
    )
    return replaced


def review(deal: DealResult | Sequence[Hand], rules: Rules, player_index: int) -> Review:
    """The best a player could have done against the other hands as they were set.

    Every legal setting of the player's 13 cards is scored against the real opponents
    (and declaring a natural or surrendering, where the rules allow it); ``missed`` is
    what the best choice would have won over the actual result.
    """
    hands = _as_hands(deal)
    hand = hands[player_index]
    if hand.rows is None:
        raise ValueError(f"{hand.name} surrendered without cards: nothing to review")
    cards = [c for row in hand.rows for c in row]
    h13 = _Hand13(cards, rules)
    table = h13.table
    actual = score_hands(hands, rules).players[player_index]
    others = [_seat(table, h) for k, h in enumerate(hands) if k != player_index]
    legal = h13.legal
    if rules.royalty_best_only:
        # Royalties then depend on every hand at the table: score each setting in full.
        units = np.array(
            [float(_exact(hands, rules, player_index, h13.setting(int(s)))) for s in legal]
        )
    else:
        units = _table_units(table, h13.rows, others)
    top = int(legal[int(np.argmax(units))])
    best = h13.setting(top)
    best_units = _exact(hands, rules, player_index, best)
    declare: Literal["natural", "surrender"] | None = None
    natural_name: str | None = None
    for name, _value, layout in h13.naturals():
        won = score_hands(_with_setting(hands, player_index, layout.rows, natural=name), rules)
        if won.players[player_index].units > best_units:
            best_units, declare, natural_name = won.players[player_index].units, "natural", name
    if rules.surrender_cost is not None:
        won = score_hands(_with_setting(hands, player_index, hand.rows, surrender=True), rules)
        if won.players[player_index].units > best_units:
            best_units, declare, natural_name = won.players[player_index].units, "surrender", None
    nearest = _nearest_legal(h13, hand.rows, units) if actual.status == "fouled" else None
    missed = max(best_units - actual.units, Decimal(0))
    best_units = actual.units + missed  # a foul that paid off is still what was won
    return Review(hand.name, best, best_units, actual.units, missed, declare, natural_name, nearest)


def _exact(hands: Sequence[Hand], rules: Rules, k: int, setting: Setting) -> Decimal:
    return score_hands(_with_setting(hands, k, setting.rows), rules).players[k].units


def _nearest_legal(h13: _Hand13, rows: Rows, units: Floats) -> Setting:
    """The legal setting sharing the most cards per row with ``rows``; the better scoring
    one among equals."""
    position = {c: p for p, c in enumerate(h13.cards)}
    masks = [_mask([position[c] for c in row]) for row in rows]
    three = np.bitwise_count(_THREE_MASKS & masks[0])
    middle = np.bitwise_count(_FIVE_MASKS & masks[1])
    back = np.bitwise_count(_FIVE_MASKS & masks[2])
    legal = h13.legal
    shared = three[h13.fi[legal]] + middle[h13.mi[legal]] + back[h13.bi[legal]]
    closest = np.flatnonzero(shared == shared.max())
    return h13.setting(int(legal[closest[int(np.argmax(units[closest]))]]))


# Auto-arrange: Monte Carlo over opponents' hands dealt from the unseen cards.

_REST_OF_BACK: Final = np.array(
    [[p for p in range(13) if p not in back] for back in _FIVES], dtype=np.int64
)
_MIDDLES_ARRAY: Final = np.array(_MIDDLES_OF_8, dtype=np.int64)
_FRONTS_ARRAY: Final = np.array(_FRONTS_OF_8, dtype=np.int64)
_CHUNK: Final = 256


def _opponents(table: _Table, hands: Ints) -> _Rowset:
    """The heuristic setting of each row of ``hands`` (S x 13 cards), as arrays."""
    rules = table.rules
    fronts: list[Ints] = []
    middles: list[Ints] = []
    raws: list[Ints] = []
    backs: list[Ints] = []
    for start in range(0, len(hands), _CHUNK):
        deal = hands[start : start + _CHUNK]
        rows = np.arange(len(deal))[:, None]
        back_values = _evaluate(deal[:, _FIVES_ARRAY], rules.wheel)
        back_at = back_values.argmax(axis=1)
        rest = deal[rows, _REST_OF_BACK[back_at]]  # S x 8 cards
        middle_cards = rest[:, _MIDDLES_ARRAY]
        if table.lowball:
            middle_raw = _evaluate(middle_cards, "none")
            middle = -middle_raw
        else:
            middle_raw = middle = _evaluate(middle_cards, rules.wheel)
        middle_at = middle.argmax(axis=1)
        front_cards = rest[rows, _FRONTS_ARRAY[middle_at]]
        fronts.append(_evaluate(front_cards, "low"))
        middles.append(middle[rows[:, 0], middle_at])
        raws.append(middle_raw[rows[:, 0], middle_at])
        backs.append(back_values[rows[:, 0], back_at])
    f, m, raw, b = (np.concatenate(x) for x in (fronts, middles, raws, backs))
    fouled = _front_beats(f, b) if table.lowball else _front_beats(f, raw) | (m > b)
    for k in np.flatnonzero(fouled):  # only a 2-7 middle can make the greedy choice foul
        h13 = _Hand13([int(c) for c in hands[k]], rules)
        at = h13.heuristic()
        f[k], m[k], b[k] = h13.rows.f[at], h13.rows.m[at], h13.rows.b[at]
        raw[k] = -m[k] if table.lowball else m[k]
    royalties = (_royalties(table, 0, f), _royalties(table, 1, raw), _royalties(table, 2, b))
    return _Rowset(f, m, b, royalties)


def _undominated(rows: _Rowset) -> Ints:
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


def _royalties_grow(rows: _Rowset) -> bool:
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
    h13 = _Hand13(cards13, rules)
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
    opponents = _opponents(table, _sample_hands(h13.cards, samples, seed))
    expected = np.empty(len(candidates))
    o = _Rowset(
        opponents.f[None, :],
        opponents.m[None, :],
        opponents.b[None, :],
        (opponents.r[0][None, :], opponents.r[1][None, :], opponents.r[2][None, :]),
    )
    block = max(1, 2_000_000 // samples)
    for start in range(0, len(candidates), block):
        part = legal_rows.take(np.arange(start, min(start + block, len(candidates))))
        c = _Rowset(
            part.f[:, None],
            part.m[:, None],
            part.b[:, None],
            tuple(r[:, None] for r in part.r),  # type: ignore[arg-type]
        )
        wins, losses = _outcomes(c, o)
        if rules.royalty_best_only:
            units = _versus_live(table, *_best_royalties_only(c, o), wins, losses, 2.0, 2.0)
        else:
            units = _versus_live(table, c, o, wins, losses, 2.0, 2.0)
        expected[start : start + len(part.f)] = units.mean(axis=1)
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


def _best_royalties_only(c: _Rowset, o: _Rowset) -> tuple[_Rowset, _Rowset]:
    """``royalty_best_only`` between two live players: in each row only the stronger
    qualifying hand (both when equal) keeps its royalty."""
    c_kept: list[Floats] = []
    o_kept: list[Floats] = []
    for cv, ov, cr, orr in zip((c.f, c.m, c.b), (o.f, o.m, o.b), c.r, o.r, strict=True):
        c_kept.append(np.where((cr > 0) & ((orr <= 0) | (cv >= ov)), cr, 0.0))
        o_kept.append(np.where((orr > 0) & ((cr <= 0) | (ov >= cv)), orr, 0.0))
    return (
        c._replace(r=(c_kept[0], c_kept[1], c_kept[2])),
        o._replace(r=(o_kept[0], o_kept[1], o_kept[2])),
    )


def _sample_hands(held: Sequence[Card], samples: int, seed: int) -> Ints:
    """``samples`` random 13-card hands (rows of card ints) from the cards not ``held``."""
    unseen = np.array([c for c in _deck() if c not in set(held)], dtype=np.int64)
    rng = np.random.default_rng(seed)
    picks = rng.random((samples, len(unseen))).argsort(axis=1)[:, :13]
    hands: Ints = unseen[picks]
    return hands


@cache
def _deck() -> tuple[Card, ...]:
    from .cards import DECK

    return DECK


_ARRANGE_KEYS: Final = frozenset({"cards", "rules", "mode", "seed", "samples", "top"})


def _whole(request: Mapping[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    value = request.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ScoreError(f"{name}: a whole number from {lo} to {hi}, got {value!r}", name)
    return value


def _setting_json(setting: Setting) -> dict[str, str]:
    front, middle, back = setting.text()
    return {"front": front, "middle": middle, "back": back}


def arrange_request(request: object) -> dict[str, Any]:
    """``POST /api/v1/arrange/``: how to set 13 cards, as JSON (``ScoreError`` on bad input).

    ``{"cards": "<13 cards>", "rules": <as in a score request>, "mode": "heuristic" |
    "expected", "seed": n, "samples": n, "top": n}``; the answer has the setting's
    ``front``, ``middle`` and ``back``, and in expected mode its ``expected_units``, the
    ``alternatives`` and a ``natural`` worth declaring instead, if any.
    """
    if not isinstance(request, Mapping):
        raise ScoreError("the request must be an object", "request")
    extra = sorted(set(request) - _ARRANGE_KEYS)
    if extra:
        raise ScoreError(
            f"request: unknown field {extra[0]!r} (allowed: {', '.join(sorted(_ARRANGE_KEYS))})",
            extra[0],
        )
    if "rules" not in request:
        raise ScoreError("rules: a preset name or {'preset': ..., options} is required", "rules")
    rules = Rules.from_mapping(request["rules"])
    if rules.game == "big-two":
        raise ScoreError("rules: Big Two hands are not set in rows", "rules")
    cards = parse_cards(request.get("cards", ""), "cards", "cards")
    if len(cards) != 13 or len(set(cards)) != 13:
        raise ScoreError(
            f"cards: 13 different cards are needed, got {len(cards)} "
            f"({len(set(cards))} different): {cards_text(cards)}",
            "cards",
        )
    mode = request.get("mode", "heuristic")
    if mode == "heuristic":
        return {"mode": mode, **_setting_json(arrange_heuristic(cards, rules))}
    if mode != "expected":
        raise ScoreError(f"mode: 'heuristic' or 'expected', got {mode!r}", "mode")
    found = arrange_expected(
        cards,
        rules,
        samples=_whole(request, "samples", 2000, 1, 20_000),
        seed=_whole(request, "seed", 0, 0, 2**32 - 1),
        top=_whole(request, "top", 3, 0, 10),
    )
    return {
        "mode": mode,
        **_setting_json(found.best.setting),
        "expected_units": round(found.best.expected_units, 4),
        "alternatives": [
            {**_setting_json(c.setting), "expected_units": round(c.expected_units, 4)}
            for c in found.alternatives
        ],
        "samples": found.samples,
        "seed": found.seed,
        "natural": found.natural,
        "natural_units": None if found.natural_units is None else decimal_text(found.natural_units),
    }


def review_request(request: object) -> dict[str, Any]:
    """How each player of a scored deal could have set their cards, as JSON.

    ``request`` is what the deal was scored from (``rules``, ``players``, ``stakes``), so
    the review is exactly as stored deals are scored; bad input raises ``ScoreError`` as
    scoring does. Only the 13-card game is reviewed: open-face rows are placed card by
    card and Big Two is not set at all. A player who surrendered without showing their
    cards has nothing to review. Units are the player's units for the whole deal.
    """
    deal = parse_request(request)
    if deal.rules.game != "chinese":
        return _not_reviewed(f"{deal.rules.game} deals are not reviewed")
    if deal.hands is None:
        return _not_reviewed("criss cross deals are not reviewed")
    players: list[dict[str, Any]] = []
    for k, hand in enumerate(deal.hands):
        if hand.rows is None:
            players.append(
                {"name": hand.name, "reviewed": False, "reason": "surrendered without cards"}
            )
            continue
        found = review(deal.hands, deal.rules, k)
        players.append(
            {
                "name": hand.name,
                "reviewed": True,
                "actual_units": decimal_text(found.actual_units),
                "best_units": decimal_text(found.best_units),
                "units_missed": decimal_text(found.missed),
                "best": _setting_json(found.best),
                "declare": found.declare,
                "natural": found.natural,
                "nearest_legal": (
                    None if found.nearest_legal is None else _setting_json(found.nearest_legal)
                ),
            }
        )
    return {"reviewed": True, "reason": None, "players": players}


def _not_reviewed(reason: str) -> dict[str, Any]:
    return {"reviewed": False, "reason": reason, "players": []}
