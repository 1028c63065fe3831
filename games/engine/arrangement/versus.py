"""Scoring settings over arrays: a candidate's units against the other hands at a table.

These restate the pairwise rules of ``scoring`` for arrays of settings, so that the
review and the auto-arrange can score thousands of settings at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..rules import Rules
from ..seats import ScoringTable, Seat, aces_played
from .splits import Bools, Floats, Ints, Rowset

# Scoring a candidate (``c``, arrays) against one opponent (``o``): the pairwise rules of
# ``scoring._settle_rows`` and ``_settle_special`` restated over arrays. A test holds the
# two equal on random deals under every preset.


def _row_values(r: tuple[Floats, Floats, Floats]) -> tuple[Floats, Floats, Floats]:
    return (
        np.where(r[0] > 0, r[0], 1.0),
        np.where(r[1] > 0, r[1], 1.0),
        np.where(r[2] > 0, r[2], 1.0),
    )


def row_outcomes(c: Rowset, o: Rowset) -> tuple[Ints, Ints]:
    """Rows won and rows lost by ``c``."""
    wins = (c.f > o.f).astype(np.int8) + (c.m > o.m) + (c.b > o.b)
    losses = (c.f < o.f).astype(np.int8) + (c.m < o.m) + (c.b < o.b)
    return wins, losses


def versus_live(
    table: ScoringTable,
    c: Rowset,
    o: Rowset,
    wins: Ints,
    losses: Ints,
    c_factor: Floats | float,
    o_factor: Floats | float,
) -> Floats:
    """Units the candidates win from one live opponent, given the rows each candidate wins
    and loses and each side's scoop factor."""
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


def _versus_fouled(table: ScoringTable, c: Rowset, o: Seat, c_factor: Floats | float) -> Floats:
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
    if rules.fouled_hand == "played" and not o.hand.not_shown and o.hand.rows is not None:
        penalty = penalty + _played_rows(rules, c, _seat_rowset(table, o))
    return np.asarray(penalty, dtype=np.float64)


def _played_rows(rules: Rules, c: Rowset, o: Rowset) -> Floats:
    """``fouled_hand: "played"``: the fouled hand's rows as set, one unit a row and the
    bonus method's scoop or majority bonus (``scoring._played_foul`` over arrays)."""
    wins, losses = row_outcomes(c, o)
    units = (wins - losses).astype(np.float64)
    if rules.bonus == "1-6":
        units = np.where((wins == 3) | (losses == 3), units * 2.0, units)
    elif rules.bonus == "2-4":
        units = units + np.sign(wins - losses)
    return units


def _seat_rowset(table: ScoringTable, seat: Seat) -> Rowset:
    f, m, b = (np.array(v, dtype=np.int64) for v in seat.values)
    r = tuple(np.array(float(x)) for x in seat.royalties)
    return Rowset(f, m, b, (r[0], r[1], r[2]))


def table_units(
    table: ScoringTable, c: Rowset, others: Sequence[Seat], aces: int | None = None
) -> Floats:
    """Units a live candidate (arrays of settings) wins at a table of ``others``; ``aces``:
    how many the candidate's 13 cards hold, needed under ``ace_bonus``."""
    rules = table.rules
    n = len(others) + 1
    live = [o for o in others if o.status == "live"]
    rowsets = [_seat_rowset(table, o) for o in live]
    if rules.royalty_best_only and table.has_royalties:
        c, rowsets = _table_best_only(c, rowsets)
    outcomes = [row_outcomes(c, o) for o in rowsets]
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
        units = units + versus_live(table, c, rowsets[k], wins, losses, c_factor, o_factors[k])
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
    if rules.ace_bonus is not None:
        units = units + ace_term(rules, aces, others)
    return units


def ace_term(rules: Rules, aces: int | None, others: Sequence[Seat]) -> float:
    """Chi Á (``seats.ace_units``) for a candidate that plays rows holding ``aces``: the
    same for every setting of its cards."""
    if aces is None:
        raise ValueError("ace_bonus: the candidate's aces are needed")
    assert rules.ace_bonus is not None
    total = 0
    for o in others:
        theirs = aces_played(o)
        if theirs is not None:
            total += aces - theirs
    return float(rules.ace_bonus) * total


def _scoops_others(rules: Rules, seat: Seat, others: Sequence[Seat]) -> bool:
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


def best_royalties_only(c: Rowset, o: Rowset) -> tuple[Rowset, Rowset]:
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


def _table_best_only(c: Rowset, fixed: Sequence[Rowset]) -> tuple[Rowset, list[Rowset]]:
    """``royalty_best_only`` at a whole table (``scoring._keep_best_royalties`` over arrays):
    in each row only the strongest qualifying live hand(s) keep their royalty. The fixed
    hands' royalties become arrays, since whether they keep them depends on the candidate."""
    c_kept: list[Floats] = []
    o_kept: list[list[Floats]] = [[] for _ in fixed]
    for row in range(3):
        cv, cr = (c.f, c.m, c.b)[row], c.r[row]
        values = [int((o.f, o.m, o.b)[row]) for o in fixed]
        qualifies = [float(o.r[row]) > 0 for o in fixed]
        best = max((v for v, q in zip(values, qualifies, strict=True) if q), default=None)
        c_q = cr > 0
        c_kept.append(np.where(c_q & (cv >= best), cr, 0.0) if best is not None else cr)
        for k, o in enumerate(fixed):
            rest = [
                v for j, (v, q) in enumerate(zip(values, qualifies, strict=True)) if q and j != k
            ]
            if not qualifies[k] or (rest and values[k] < max(rest)):
                o_kept[k].append(np.zeros(cv.shape))
            else:
                o_kept[k].append(np.where(c_q & (cv > values[k]), 0.0, float(o.r[row])))
    kept = [o._replace(r=(r[0], r[1], r[2])) for o, r in zip(fixed, o_kept, strict=True)]
    return c._replace(r=(c_kept[0], c_kept[1], c_kept[2])), kept
