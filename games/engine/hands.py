"""A 13-card deal's hands as read from a request, and what scoring makes of them.

``Hand`` is one player's entry; ``DealResult`` holds a ``PlayerResult`` per player and a
``PairResult`` per pair of players (``scoring.score_hands`` builds them).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Final, Literal, NamedTuple, cast

from .cards import Card
from .messages import Message, english_foul, english_hand, message
from .ranking import Wheel, category_name, hand_code
from .tables import ROWS, Row

ZERO: Final = Decimal(0)
ONE: Final = Decimal(1)
TWO: Final = Decimal(2)

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
Foul = tuple[Row, Row]
Status = Literal["live", "fouled", "surrendered", "natural"]


class Hand(NamedTuple):
    """One player's entry in a 13-card deal, as read from the request."""

    name: str
    rows: Rows | None  # None only for a surrender given without cards
    surrender: bool = False
    natural: str | None = None  # the declared natural
    in_fantasyland: bool = False
    discards: tuple[Card, ...] = ()
    not_shown: bool = False  # declared fouled without rows (RULES 12): a foul in every respect
    declared: tuple[int, ...] = ()  # rows (0 front .. 2 back) whose royalty was declared


class RowResult(NamedTuple):
    cards: tuple[Card, ...]
    value: int  # strength (for a 2-7 lowball middle: its high-hand strength, aces high)
    royalty: Decimal
    low: bool = False

    @property
    def category(self) -> str:
        return category_name(self.value)

    def label(self, wheel: str) -> str:
        return english_hand(self.code(wheel))

    def code(self, wheel: str) -> Message:
        """The row's hand as a message (``messages``): code and ranks."""
        wheel_used = "none" if self.low else wheel
        return hand_code(self.value, len(self.cards), cast(Wheel, wheel_used), low=self.low)


class PlayerResult(NamedTuple):
    name: str
    units: Decimal
    status: Status
    cards: Rows | None  # the rows as played; None for a surrender
    values: tuple[int, int, int]  # each row's strength
    royalties: tuple[Decimal, ...]  # each row's royalty collected
    natural: str | None = None  # a natural that was held and scored
    foul: Foul | None = None  # (row, row behind it) when a row outranks the one behind
    false_natural: str | None = None  # a declared natural the cards do not make
    fantasyland_next: int | None = None
    wheel: str = "low"
    lowball: bool = False  # the middle is a 2-7 low hand
    not_shown: bool = False  # declared fouled, no rows shown

    @property
    def rows(self) -> tuple[RowResult, RowResult, RowResult] | None:
        """Front, middle and back with their strengths and royalties."""
        if self.cards is None:
            return None
        front, middle, back = self.cards
        values, royalties = self.values, self.royalties
        return (
            RowResult(front, values[0], royalties[0]),
            RowResult(middle, values[1], royalties[1], self.lowball),
            RowResult(back, values[2], royalties[2]),
        )

    @property
    def foul_reason(self) -> str | None:
        code = self.foul_code
        return None if code is None else english_foul(code)

    @property
    def foul_code(self) -> Message | None:
        """Why the hand fouled, as a message (``messages``); None when it did not."""
        if self.false_natural is not None:
            return message("false_natural", natural=self.false_natural)
        if self.not_shown:
            return message("not_shown")
        rows = self.rows
        if self.foul is None or rows is None:
            return None
        return foul_code(self.foul, rows, self.wheel)

    @property
    def fouled(self) -> bool:
        return self.status == "fouled"

    @property
    def surrendered(self) -> bool:
        return self.status == "surrendered"


PairKind = Literal["rows", "foul", "surrender", "natural", "cards", "none"]


class PairResult(NamedTuple):
    """What passed between two players: ``units`` won by ``players[0]``."""

    players: tuple[str, str]
    units: Decimal
    kind: PairKind
    rows: tuple[int, int, int] | None = None  # +1 won by players[0], -1 lost, 0 tied
    scoop: str | None = None  # the name of the player who won all three rows
    aces: Decimal = ZERO  # of ``units``, what Chi Á (``ace_bonus``) moved (RULES 13)


class DealResult(NamedTuple):
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]


def foul_code(foul: Foul, rows: Sequence[RowResult], wheel: str) -> Message:
    """The foul as a message: which row beats which, and each row's hand."""
    ahead, behind = rows[ROWS.index(foul[0])], rows[ROWS.index(foul[1])]
    return message(
        "row_beats_row",
        ahead=foul[0],
        ahead_hand=ahead.code(wheel),
        behind=foul[1],
        behind_hand=behind.code(wheel),
        lowball=foul == ("front", "back"),
    )


def describe_foul(foul: Foul, rows: Sequence[RowResult], wheel: str) -> str:
    """A readable reason: "front Pair of Kings, Q kicker beats middle Pair of Kings, ..."."""
    return english_foul(foul_code(foul, rows, wheel))
