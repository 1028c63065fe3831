"""The review of a recorded deal: what each player could have done with the
same cards against the other hands as they were set.

Units are computed as floats for ranking (``versus``) and the chosen answers are
re-scored exactly with ``score_hands``.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from itertools import combinations
from typing import Literal, NamedTuple

import numpy as np

from ..cards import Card
from ..hands import DealResult, Hand, Rows
from ..rules import Rules
from ..scoring import score_hands
from ..seats import seat_for, table_for
from .splits import FIVE_MASKS, THREE_MASKS, Floats, Hand13, Setting, position_mask
from .versus import table_units


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


def _as_hands(deal: DealResult | Sequence[Hand]) -> tuple[Hand, ...]:
    if isinstance(deal, DealResult):
        return tuple(
            Hand(
                p.name,
                p.cards,
                surrender=p.status == "surrendered",
                natural=p.natural or p.false_natural,
                not_shown=p.not_shown,
                declared=tuple(k for k, r in enumerate(p.royalties) if r),
            )
            for p in deal.players
        )
    return tuple(deal)


def with_setting(hands: Sequence[Hand], k: int, rows: Rows, **changes: object) -> list[Hand]:
    """The hands with player ``k``'s set as ``rows`` (and ``changes``), the others as they were."""
    replaced = list(hands)
    replaced[k] = (
        hands[k]
        # Another setting is reviewed as declaring whatever royalties it holds.
        ._replace(rows=rows, surrender=False, natural=None, not_shown=False, declared=(0, 1, 2))
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
    h13 = Hand13(cards, rules)
    table = h13.table
    actual = score_hands(hands, rules).players[player_index]
    others = [seat_for(table, h) for k, h in enumerate(hands) if k != player_index]
    legal = h13.legal
    units = table_units(table, h13.rows, others, h13.aces)
    top = int(legal[int(np.argmax(units))])
    best = h13.setting(top)
    best_units = exact_units(hands, rules, player_index, best)
    declare: Literal["natural", "surrender"] | None = None
    natural_name: str | None = None
    for name, _value, layout in h13.naturals():
        won = score_hands(with_setting(hands, player_index, layout.rows, natural=name), rules)
        if won.players[player_index].units > best_units:
            best_units, declare, natural_name = won.players[player_index].units, "natural", name
    if rules.surrender_cost is not None:
        won = score_hands(with_setting(hands, player_index, hand.rows, surrender=True), rules)
        if won.players[player_index].units > best_units:
            best_units, declare, natural_name = won.players[player_index].units, "surrender", None
    nearest = nearest_legal_setting(h13, hand.rows, units) if actual.status == "fouled" else None
    missed = max(best_units - actual.units, Decimal(0))
    best_units = actual.units + missed  # a foul that paid off is still what was won
    return Review(hand.name, best, best_units, actual.units, missed, declare, natural_name, nearest)


def exact_units(hands: Sequence[Hand], rules: Rules, k: int, setting: Setting) -> Decimal:
    """What player ``k`` wins with ``setting``, the others as they were, scored exactly."""
    return score_hands(with_setting(hands, k, setting.rows), rules).players[k].units


def nearest_legal_setting(h13: Hand13, rows: Rows, units: Floats) -> Setting:
    """The legal setting sharing the most cards per row with ``rows``; the better scoring
    one among equals."""
    position = {c: p for p, c in enumerate(h13.cards)}
    masks = [position_mask([position[c] for c in row]) for row in rows]
    three = np.bitwise_count(THREE_MASKS & masks[0])
    middle = np.bitwise_count(FIVE_MASKS & masks[1])
    back = np.bitwise_count(FIVE_MASKS & masks[2])
    legal = h13.legal
    shared = three[h13.fi[legal]] + middle[h13.mi[legal]] + back[h13.bi[legal]]
    closest = np.flatnonzero(shared == shared.max())
    return h13.setting(int(legal[closest[int(np.argmax(units[closest]))]]))


def review_fantasyland(
    hands: Sequence[Hand], rules: Rules, player_index: int
) -> tuple[Review, tuple[Card, ...]]:
    """An open-face player in fantasy land who gave the discards: the best 13 of all the
    cards dealt, set against the other hands as they were, and what to discard then."""
    hand = hands[player_index]
    assert hand.rows is not None
    dealt = [c for row in hand.rows for c in row] + list(hand.discards)
    actual = score_hands(hands, rules).players[player_index]
    table = table_for(rules)
    others = [seat_for(table, h) for k, h in enumerate(hands) if k != player_index]
    top: tuple[float, Setting, tuple[Card, ...]] | None = None
    for dropped in combinations(sorted(dealt, reverse=True), len(dealt) - 13):
        h13 = Hand13([c for c in dealt if c not in dropped], rules)
        units = table_units(table, h13.rows, others, h13.aces)
        at = int(np.argmax(units))
        if top is None or float(units[at]) > top[0]:
            top = (float(units[at]), h13.setting(int(h13.legal[at])), dropped)
    assert top is not None
    best_units = exact_units(hands, rules, player_index, top[1])
    missed = max(best_units - actual.units, Decimal(0))
    found = Review(hand.name, top[1], actual.units + missed, actual.units, missed)
    return found, top[2]
