"""A player's hand as scoring sees it (``Seat``: strengths, royalties, status) and what
scoring needs from a rule set (``ScoringTable``), shared by scoring and the arrangement search.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Final, cast

from .cards import RANK_CHARS, RANK_OF
from .games import GAMES
from .hands import ONE, ZERO, Foul, Hand, Status
from .naturals import holds_natural
from .ranking import (
    CATEGORY_SHIFT,
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


@dataclass(slots=True)
class Seat:
    """One player's hand at the table as scoring sees it: its status, each row's strength
    and royalty, and what made it foul or natural."""

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


class ScoringTable:
    """What scoring needs from a rule set, resolved once per ``Rules`` (see ``table_for``)."""

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


# The tables of the last rule sets seen. Rules read back from storage are a new object for
# every deal; an equal rule set shares the table built for the first, with everything
# cached on it (the royalty of every strength takes about 0.1 s to work out).
_RECENT: list[ScoringTable] = []
_RECENT_MOST: Final = 16


def table_for(rules: Rules) -> ScoringTable:
    """The scoring table of a rule set, kept with it (rules never change once built) and
    shared by equal rule sets."""
    table = rules.__dict__.get("_scoring_table")
    if table is None:
        table = next((known for known in _RECENT if known.rules == rules), None)
        if table is None:
            table = ScoringTable(rules)
            _RECENT.insert(0, table)
            del _RECENT[_RECENT_MOST:]
        rules.__dict__["_scoring_table"] = table
    return cast(ScoringTable, table)


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


_ACE: Final = RANK_CHARS.index("A")


def aces_played(seat: Seat) -> int | None:
    """The aces of a hand that played its rows, for Chi Á (RULES 13: live or fouled, its
    rows shown); None for one that did not (surrendered, a natural, a false natural, a
    hand not shown)."""
    rows = seat.hand.rows
    if seat.status not in ("live", "fouled") or rows is None or seat.hand.not_shown:
        return None
    if seat.false_natural is not None:  # a false natural pays exactly its penalty (RULES 4)
        return None
    return sum(1 for row in rows for c in row if RANK_OF[c] == _ACE)


def ace_units(rules: Rules, a: Seat, b: Seat) -> Decimal:
    """Chi Á (option ``ace_bonus``): what ``a`` collects from ``b`` for holding more aces,
    ``ace_bonus`` x the difference; nothing multiplies it (no scoop, no row value)."""
    if rules.ace_bonus is None:
        return ZERO
    mine, theirs = aces_played(a), aces_played(b)
    if mine is None or theirs is None:
        return ZERO
    return rules.ace_bonus * (mine - theirs)


def seat_for(table: ScoringTable, hand: Hand) -> Seat:
    """The hand evaluated under the table's rules: its status (live, fouled, surrendered or
    natural), its rows' strengths and, when live, the royalties it collects."""
    if hand.not_shown:
        return Seat(hand, "fouled", (0, 0, 0), (0, 0, 0), [ZERO, ZERO, ZERO])
    if hand.surrender or hand.rows is None:
        return Seat(hand, "surrendered", (0, 0, 0), (0, 0, 0), [ZERO, ZERO, ZERO])
    front, middle, back = hand.rows
    f = table.evaluate3(front)
    b = table.evaluate5(back)
    if table.lowball:
        m_raw = table.evaluate_low(middle)
        m = -m_raw
    else:
        m_raw = m = table.evaluate5(middle)
    raw = (f, m_raw, b)
    seat = Seat(hand, "live", (f, m, b), raw, [ZERO, ZERO, ZERO])
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
        if table.rules.royalties_declared:  # RULES 12: a royalty not declared does not count
            seat.royalties = [
                r if k in hand.declared else ZERO for k, r in enumerate(seat.royalties)
            ]
    return seat
