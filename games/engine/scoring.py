"""Scoring a 13-card deal (Chinese poker, Mau Binh, open-face boards): RULES sections 3-9, 11.

Every pair of players is settled on its own; a player's units are the sum over its
pairs, so a deal always sums to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import cast

from .cards import RANK_CHARS
from .games import GAMES
from .hands import (
    ONE,
    TWO,
    ZERO,
    DealResult,
    Foul,
    Hand,
    PairKind,
    PairResult,
    PlayerResult,
    RowResult,
    Rows,
    Status,
    describe_foul,
)
from .naturals import holds_natural
from .ranking import (
    CATEGORY_SHIFT,
    FULL_HOUSE,
    PAIR,
    QUADS,
    TRIPS,
    category_name,
    five_card_evaluator,
    front_beats,
    three_card_evaluator,
)
from .rules import Rules
from .tables import ROWS

__all__ = [
    "ONE",
    "TWO",
    "ZERO",
    "DealResult",
    "Foul",
    "Hand",
    "PairKind",
    "PairResult",
    "PlayerResult",
    "RowResult",
    "Rows",
    "Status",
    "_Seat",
    "_Table",
    "_seat",
    "_table_for",
    "describe_foul",
    "score_hands",
]


@dataclass(slots=True)
class _Seat:
    hand: Hand
    status: Status
    values: tuple[int, int, int]  # strengths; bigger wins (a lowball middle is negated)
    raw: tuple[int, int, int]
    royalties: list[Decimal]
    natural: str | None = None
    foul: Foul | None = None
    false_natural: str | None = None
    row_values: tuple[Decimal, ...] = (ONE, ONE, ONE)  # what each row is worth when it wins
    royalty_total: Decimal = ZERO


class _Table:
    """What scoring needs from a rule set, resolved once per ``Rules`` (see ``_table_for``)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.evaluate5 = five_card_evaluator(rules.wheel)
        self.evaluate3 = three_card_evaluator()
        self.lowball = rules.middle == "lowball-2-7"
        self.evaluate_low = five_card_evaluator("none") if self.lowball else self.evaluate5
        self.row_win = rules.royalty_mode == "row_win"
        self.royalty_rows = [rules.royalties[row] for row in ROWS]
        self.has_royalties = any(self.royalty_rows)
        self.has_fantasyland = GAMES[rules.game].has_fantasyland
        self._royalties: dict[tuple[int, int], Decimal] = {}

    def royalty(self, row: int, value: int) -> Decimal:
        """The royalty of a hand of strength ``value`` in ``row`` (0 front .. 2 back)."""
        key = (row, value)
        units = self._royalties.get(key)
        if units is None:
            units = self._royalties[key] = self._look_up_royalty(row, value)
        return units

    def _look_up_royalty(self, row: int, value: int) -> Decimal:
        table = self.royalty_rows[row]
        name = category_name(value)
        if value >> CATEGORY_SHIFT in (PAIR, TRIPS, QUADS):
            specific = table.get(f"{name}_{RANK_CHARS[(value >> 16) & 15]}")
            if specific is not None:
                return specific
        units = table.get(name)
        if units is None and name == "royal_flush":
            units = table.get("straight_flush")
        return units if units is not None else ZERO


def _table_for(rules: Rules) -> _Table:
    """The scoring table of a rule set, kept with it (rules never change once built)."""
    table = rules.__dict__.get("_scoring_table")
    if table is None:
        table = rules.__dict__["_scoring_table"] = _Table(rules)
    return cast(_Table, table)


def _foul(lowball: bool, raw: tuple[int, int, int]) -> Foul | None:
    """Which row outranks the row behind it, if any (RULES 3; 11 for a 2-7 middle)."""
    front, middle, back = raw
    if lowball:
        return ("front", "back") if front_beats(front, back) else None
    if front_beats(front, middle):
        return ("front", "middle")
    if middle > back:
        return ("middle", "back")
    return None


def _seat(table: _Table, hand: Hand) -> _Seat:
    if hand.surrender or hand.rows is None:
        return _Seat(hand, "surrendered", (0, 0, 0), (0, 0, 0), [ZERO, ZERO, ZERO])
    front, middle, back = hand.rows
    f = table.evaluate3(front)
    b = table.evaluate5(back)
    if table.lowball:
        m_raw = table.evaluate_low(middle)
        m = -m_raw
    else:
        m_raw = m = table.evaluate5(middle)
    raw = (f, m_raw, b)
    seat = _Seat(hand, "live", (f, m, b), raw, [ZERO, ZERO, ZERO])
    if hand.natural is not None:
        if holds_natural(hand.natural, hand.rows, table.evaluate5):
            seat.status = "natural"
            seat.natural = hand.natural
            return seat
        # Only reached when a false declaration is penalised rather than rejected.
        seat.status = "fouled"
        seat.false_natural = hand.natural
        return seat
    foul = _foul(table.lowball, raw)
    if foul is not None:
        seat.status = "fouled"
        seat.foul = foul
        return seat
    if table.has_royalties:
        seat.royalties = [
            table.royalty(0, f),
            ZERO if table.lowball else table.royalty(1, m_raw),
            table.royalty(2, b),
        ]
    return seat


def _keep_best_royalties(seats: list[_Seat]) -> None:
    """royalty_best_only: in each row only the best qualifying live hand(s) collect."""
    for row in range(3):
        holders = [s for s in seats if s.status == "live" and s.royalties[row] > 0]
        if len(holders) < 2:
            continue
        best = max(s.values[row] for s in holders)
        for s in holders:
            if s.values[row] != best:
                s.royalties[row] = ZERO


def _scoop_factor(rules: Rules, scoops_all: bool) -> Decimal:
    if scoops_all and rules.scoop_all_multiplier is not None:
        return rules.scoop_all_multiplier
    return TWO


def _sweep(table: _Table, winner: _Seat, scoops_all: bool) -> Decimal:
    """What a fouled player pays ``winner`` under ``foul_penalty: "sweep"``."""
    rules = table.rules
    rows = sum(winner.row_values, ZERO)
    if rules.bonus == "1-6":
        return rows * _scoop_factor(rules, scoops_all)
    if rules.bonus == "2-4":
        return rows + ONE
    return rows


def _play_rows(a: _Seat, b: _Seat) -> tuple[int, int, int]:
    va, vb = a.values, b.values
    return (
        (va[0] > vb[0]) - (va[0] < vb[0]),
        (va[1] > vb[1]) - (va[1] < vb[1]),
        (va[2] > vb[2]) - (va[2] < vb[2]),
    )


def score_hands(hands: Sequence[Hand], rules: Rules) -> DealResult:
    """Score a validated 13-card deal (cards parsed, no duplicates, naturals allowed)."""
    table = _table_for(rules)
    seats = [_seat(table, h) for h in hands]
    if rules.royalty_best_only:
        _keep_best_royalties(seats)
    live = [k for k, seat in enumerate(seats) if seat.status == "live"]
    if table.has_royalties:
        for k in live:
            seat = seats[k]
            seat.royalty_total = sum(seat.royalties, ZERO)
            if table.row_win:
                seat.row_values = tuple(r if r > 0 else ONE for r in seat.royalties)
    outcomes = {(i, j): _play_rows(seats[i], seats[j]) for i in live for j in live if i < j}
    scoops_all = _scoops_all(rules, seats, outcomes)
    n = len(seats)
    units = [ZERO] * n
    pairs: list[PairResult] = []
    for i in range(n):
        a = seats[i]
        for j in range(i + 1, n):
            b = seats[j]
            rows = outcomes.get((i, j))
            if rows is not None:
                pair = _settle_rows(table, a, b, rows, scoops_all[i], scoops_all[j])
                won = pair.units
            else:
                won, kind = _settle_special(table, a, b, scoops_all[i], scoops_all[j])
                pair = PairResult((a.hand.name, b.hand.name), won, kind)
            if won:
                units[i] += won
                units[j] -= won
            pairs.append(pair)
    players = tuple(_player_result(table, seat, units[k]) for k, seat in enumerate(seats))
    return DealResult(players, tuple(pairs))


def _scoops_all(
    rules: Rules, seats: list[_Seat], outcomes: dict[tuple[int, int], tuple[int, int, int]]
) -> list[bool]:
    """Which seats scoop all three opponents at a table of four (sập làng)."""
    flags = [False] * len(seats)
    if rules.scoop_all_multiplier is None or len(seats) != 4:
        return flags
    for i, seat in enumerate(seats):
        if seat.status != "live":
            continue
        flags[i] = True
        for j, other in enumerate(seats):
            if j == i:
                continue
            if other.status == "fouled" and rules.foul_counts_as_scoop:
                continue
            if other.status != "live":
                flags[i] = False
                break
            rows = outcomes[i, j] if i < j else tuple(-r for r in outcomes[j, i])
            if rows != (1, 1, 1):
                flags[i] = False
                break
    return flags


def _settle_special(
    table: _Table, a: _Seat, b: _Seat, a_scoops_all: bool, b_scoops_all: bool
) -> tuple[Decimal, PairKind]:
    """Units won by ``a`` when the two do not both play their rows."""
    rules = table.rules
    sa, sb = a.status, b.status
    if sa == "fouled" and sb == "fouled":
        return ZERO, "none"
    if sa == "natural" or sb == "natural":
        va = rules.naturals[a.natural] if a.natural else None
        vb = rules.naturals[b.natural] if b.natural else None
        if va is not None and vb is not None:
            return (va if va > vb else -vb if vb > va else ZERO), "natural"
        if va is not None:
            if sb == "surrendered" and not rules.natural_collects_from_surrendered:
                return _surrender_cost(rules), "surrender"
            return va, "natural"
        assert vb is not None
        if sa == "surrendered" and not rules.natural_collects_from_surrendered:
            return -_surrender_cost(rules), "surrender"
        return -vb, "natural"
    if sa == "surrendered" and sb == "surrendered":
        return ZERO, "none"
    if sa == "surrendered":
        return -_surrender_cost(rules), "surrender"
    if sb == "surrendered":
        return _surrender_cost(rules), "surrender"
    if sa == "fouled":
        return -_foul_payment(table, b, a, b_scoops_all), "foul"
    return _foul_payment(table, a, b, a_scoops_all), "foul"


def _surrender_cost(rules: Rules) -> Decimal:
    assert rules.surrender_cost is not None  # a surrender is rejected without a cost
    return rules.surrender_cost


def _foul_payment(table: _Table, live: _Seat, fouled: _Seat, scoops_all: bool) -> Decimal:
    rules = table.rules
    if fouled.false_natural is not None:
        # RULES 6: a false declaration pays exactly the penalty to each opponent.
        assert rules.false_natural_penalty is not None
        return rules.false_natural_penalty
    if rules.foul_penalty == "sweep":
        penalty = _sweep(table, live, scoops_all)
        # Under row_win a sweep is already paid in the winner's row values (royalties).
        pays_royalties = not table.row_win
    else:
        penalty = rules.foul_penalty
        pays_royalties = True
    if pays_royalties and rules.foul_pays_royalties:
        penalty += live.royalty_total
    return penalty


def _settle_rows(
    table: _Table,
    a: _Seat,
    b: _Seat,
    rows: tuple[int, int, int],
    a_scoops_all: bool,
    b_scoops_all: bool,
) -> PairResult:
    """Two live players: row by row, then the bonus, then royalties (RULES 4)."""
    rules = table.rules
    wins_a = rows.count(1)
    wins_b = rows.count(-1)
    if table.row_win:
        units = ZERO
        for k, outcome in enumerate(rows):
            if outcome > 0:
                units += a.row_values[k]
            elif outcome < 0:
                units -= b.row_values[k]
    else:
        units = Decimal(wins_a - wins_b)
    scoop: str | None = None
    if wins_a == 3:
        scoop = a.hand.name
    elif wins_b == 3:
        scoop = b.hand.name
    if rules.bonus == "1-6":
        if wins_a == 3:
            units *= _scoop_factor(rules, a_scoops_all)
        elif wins_b == 3:
            units *= _scoop_factor(rules, b_scoops_all)
    elif rules.bonus == "2-4":
        units += (wins_a > wins_b) - (wins_a < wins_b)
    if not table.row_win:
        units += a.royalty_total - b.royalty_total
    return PairResult((a.hand.name, b.hand.name), units, "rows", rows, scoop)


def _fantasyland_next(rules: Rules, seat: _Seat) -> int | None:
    """Cards of the next deal's fantasy land for this player, or None (RULES 8a)."""
    base = rules.fantasyland_cards
    if base is None or seat.status != "live":
        return None
    front, middle, back = seat.raw
    if seat.hand.in_fantasyland:
        stays = (
            front >> CATEGORY_SHIFT == TRIPS
            or middle >> CATEGORY_SHIFT >= FULL_HOUSE
            or back >> CATEGORY_SHIFT >= QUADS
        )
        return base if stays else None
    cat = front >> CATEGORY_SHIFT
    if cat == TRIPS:
        return 17 if rules.progressive else base
    top = (front >> 16) & 15
    if cat == PAIR and top >= 10:  # queens or better
        return 14 + (top - 10) if rules.progressive else base
    return None


def _player_result(table: _Table, seat: _Seat, units: Decimal) -> PlayerResult:
    hand = seat.hand
    fantasyland = None
    if table.has_fantasyland:
        fantasyland = _fantasyland_next(table.rules, seat)
    return PlayerResult(
        hand.name,
        units,
        seat.status,
        None if seat.status == "surrendered" else hand.rows,
        seat.raw,
        tuple(seat.royalties),
        seat.natural,
        seat.foul,
        seat.false_natural,
        fantasyland,
        table.rules.wheel,
        table.lowball,
    )
