"""Scoring a 13-card deal (Chinese poker, Mau Binh, open-face boards): RULES sections 3-9, 11.

Every pair of players is settled on its own; a player's units are the sum over its
pairs, so a deal always sums to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

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
from .ranking import CATEGORY_SHIFT, FULL_HOUSE, PAIR, QUADS, TRIPS
from .rules import Rules
from .seats import ScoringTable, Seat, ace_units, seat_for, table_for
from .tables import NATURALS

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
    "describe_foul",
    "score_hands",
]


def _scoop_factor(rules: Rules, scoops_all: bool) -> Decimal:
    if scoops_all and rules.scoop_all_multiplier is not None:
        return rules.scoop_all_multiplier
    return TWO


def _sweep(table: ScoringTable, winner: Seat, scoops_all: bool) -> Decimal:
    """What a fouled player pays ``winner`` under ``foul_penalty: "sweep"``."""
    rules = table.rules
    rows = sum(winner.row_values, ZERO)
    if rules.bonus == "1-6":
        return rows * _scoop_factor(rules, scoops_all)
    if rules.bonus == "2-4":
        return rows + ONE
    return rows


def _play_rows(a: Seat, b: Seat) -> tuple[int, int, int]:
    va, vb = a.values, b.values
    return (
        (va[0] > vb[0]) - (va[0] < vb[0]),
        (va[1] > vb[1]) - (va[1] < vb[1]),
        (va[2] > vb[2]) - (va[2] < vb[2]),
    )


def _keep_best_royalties(seats: list[Seat]) -> None:
    """royalty_best_only: in each row only the best qualifying live hand(s) collect."""
    for row in range(3):
        holders = [s for s in seats if s.status == "live" and s.royalties[row] > 0]
        if len(holders) < 2:
            continue
        best = max(s.values[row] for s in holders)
        for s in holders:
            if s.values[row] != best:
                s.royalties[row] = ZERO


def score_hands(hands: Sequence[Hand], rules: Rules) -> DealResult:
    """Score a validated 13-card deal (cards parsed, no duplicates, naturals allowed)."""
    table = table_for(rules)
    seats = [seat_for(table, h) for h in hands]
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
                played = _played_foul(table, a, b) if kind == "foul" else None
                if played is not None:
                    won += played[0]
                pair = PairResult(
                    (a.hand.name, b.hand.name), won, kind, None if played is None else played[1]
                )
            aces = ace_units(rules, a, b)
            if aces:
                won += aces
                pair = pair._replace(units=pair.units + aces, aces=aces)
            if won:
                units[i] += won
                units[j] -= won
            pairs.append(pair)
    players = tuple(_player_result(table, seat, units[k]) for k, seat in enumerate(seats))
    return DealResult(players, tuple(pairs))


def _scoops_all(
    rules: Rules, seats: list[Seat], outcomes: dict[tuple[int, int], tuple[int, int, int]]
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
    table: ScoringTable, a: Seat, b: Seat, a_scoops_all: bool, b_scoops_all: bool
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
            if rules.natural_ranking == "order":  # the Mau Binh table, highest first
                assert a.natural is not None and b.natural is not None
                ra, rb = NATURALS.index(a.natural), NATURALS.index(b.natural)
                return (va if ra < rb else -vb if rb < ra else ZERO), "natural"
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


def _foul_payment(table: ScoringTable, live: Seat, fouled: Seat, scoops_all: bool) -> Decimal:
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


def _played_foul(
    table: ScoringTable, a: Seat, b: Seat
) -> tuple[Decimal, tuple[int, int, int]] | None:
    """``fouled_hand: "played"`` (RULES 12): after its penalty a fouled hand that was shown
    still plays its rows as set against a live one, one unit a row plus the scoop or
    majority bonus; no royalties, row values or scoop-all multiplier. Units won by ``a``."""
    if table.rules.fouled_hand != "played":
        return None
    fouled = a if a.status == "fouled" else b
    if fouled.hand.not_shown or fouled.false_natural is not None or fouled.hand.rows is None:
        return None
    if {a.status, b.status} != {"fouled", "live"}:
        return None
    rows = _play_rows(a, b)
    wins_a, wins_b = rows.count(1), rows.count(-1)
    units = Decimal(wins_a - wins_b)
    bonus = table.rules.bonus
    if bonus == "1-6" and 3 in (wins_a, wins_b):
        units *= TWO
    elif bonus == "2-4":
        units += (wins_a > wins_b) - (wins_a < wins_b)
    return units, rows


def _settle_rows(
    table: ScoringTable,
    a: Seat,
    b: Seat,
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


def _fantasyland_next(rules: Rules, seat: Seat) -> int | None:
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


def _player_result(table: ScoringTable, seat: Seat, units: Decimal) -> PlayerResult:
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
        hand.not_shown,
    )
