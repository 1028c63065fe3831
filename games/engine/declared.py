"""What a player may declare at the table beyond rows (RULES 12), read from a request: a
hand not shown (``"fouled": true`` with no rows), a natural from the 13 cards
(``"cards"`` instead of rows) and the royalties declared before the reveal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .cards import Card, cards_text, parse_cards
from .errors import ScoreError
from .hands import Rows
from .naturals import natural_rows
from .ranking import five_card_evaluator
from .rules import Rules
from .seats import table_for
from .tables import ROWS

DECLARED_FIELDS: Final = ("fouled", "cards", "royalties")


def declared_not_shown(entry: Mapping[str, Any], who: str, path: str) -> bool:
    """Whether the player's hand was declared fouled without rows; rows, cards, a
    surrender or a natural given with it are errors."""
    fouled = entry.get("fouled", False)
    if fouled is False:
        return False
    if fouled is not True:
        raise ScoreError.refused("fouled_not_bool", f"{path}.fouled", who=who)
    shown = [key for key in (*ROWS, "cards") if entry.get(key) is not None]
    if shown:
        raise ScoreError.refused("fouled_shown", f"{path}.{shown[0]}", who=who, part=shown[0])
    for key in ("surrender", "natural"):
        if entry.get(key) not in (None, False):
            raise ScoreError.refused("fouled_declares", f"{path}.{key}", who=who, key=key)
    return True


def rows_from_cards(
    entry: Mapping[str, Any], natural: object, who: str, path: str, rules: Rules
) -> tuple[Rows, tuple[Card, ...]] | None:
    """A natural declared with its 13 ``cards``: rows that make it, and the cards; None
    when the player gave rows instead."""
    text = entry.get("cards")
    if text is None:
        return None
    field = f"{path}.cards"
    if natural is None:
        raise ScoreError.refused("cards_without_natural", field, who=who)
    given = [row for row in ROWS if entry.get(row) is not None]
    if given:
        raise ScoreError.refused("cards_and_rows", f"{path}.{given[0]}", who=who)
    cards = parse_cards(text, "cards", field, who)
    if len(cards) != 13:
        raise ScoreError.refused(
            "natural_size", field, who=who, count=len(cards), cards=cards_text(cards)
        )
    rows = natural_rows(str(natural), cards, five_card_evaluator(rules.wheel))
    if rows is None:
        raise ScoreError.refused(
            "natural_not_settable", f"{path}.natural", who=who, natural=str(natural)
        )
    return rows, cards


def declared_royalties(
    entry: Mapping[str, Any], rows: Rows | None, who: str, path: str, rules: Rules
) -> tuple[int, ...]:
    """The rows whose royalty the player declared (``"royalties": ["back"]``), under
    ``royalties_declared``; a row that holds no royalty is an error naming it."""
    value = entry.get("royalties")
    field = f"{path}.royalties"
    if value is None:
        return ()
    if not rules.royalties_declared:
        raise ScoreError.refused("royalties_not_declared", field, who=who)
    if not isinstance(value, list) or any(row not in ROWS for row in value):
        raise ScoreError.refused("royalties_not_rows", field, who=who, value=repr(value))
    if len(set(value)) != len(value):
        raise ScoreError.refused("royalty_twice", field, who=who)
    if rows is None:
        raise ScoreError.refused("royalties_without_rows", field, who=who)
    table = table_for(rules)
    values = (table.evaluate3(rows[0]), table.evaluate5(rows[1]), table.evaluate5(rows[2]))
    declared = tuple(sorted(ROWS.index(row) for row in value))
    for k in declared:
        no_royalty = (k == 1 and table.lowball) or not table.royalty(k, values[k])
        if no_royalty:
            raise ScoreError.refused(
                "royalty_none", field, who=who, row=ROWS[k], cards=cards_text(rows[k])
            )
    return declared
