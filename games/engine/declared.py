"""What a player may declare at the table beyond rows (RULES 12), read from a request: a
hand not shown (``"fouled": true`` with no rows), a natural from the 13 cards
(``"cards"`` instead of rows) and the royalties declared before the reveal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .cards import Card, CardError, cards_text, parse_cards
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
        raise ScoreError(f"{who}: fouled must be true or false", f"{path}.fouled")
    shown = [key for key in (*ROWS, "cards") if entry.get(key) is not None]
    if shown:
        raise ScoreError(
            f"{who}: a hand declared fouled is not shown, so it has no {shown[0]}"
            " (give the rows without fouled: true, and the scorer finds any foul)",
            f"{path}.{shown[0]}",
        )
    for key in ("surrender", "natural"):
        if entry.get(key) not in (None, False):
            raise ScoreError(
                f"{who}: a hand declared fouled cannot also declare {key}", f"{path}.{key}"
            )
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
        raise ScoreError(
            f"{who}: the 13 cards without rows are only for declaring a natural", field
        )
    given = [row for row in ROWS if entry.get(row) is not None]
    if given:
        raise ScoreError(f"{who}: give the 13 cards or the rows, not both", f"{path}.{given[0]}")
    try:
        cards = parse_cards(text)
    except CardError as error:
        raise ScoreError(f"{who}, cards: {error.reason}", field) from None
    if len(cards) != 13:
        raise ScoreError(
            f"{who}, cards: {len(cards)} cards given ({cards_text(cards)}), a natural needs 13",
            field,
        )
    rows = natural_rows(str(natural), cards, five_card_evaluator(rules.wheel))
    if rows is None:
        raise ScoreError(
            f"{who} declared {natural}, but no setting of the 13 cards makes it",
            f"{path}.natural",
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
        raise ScoreError(
            f"{who}: royalties are declared only under royalties_declared: true", field
        )
    if not isinstance(value, list) or any(row not in ROWS for row in value):
        raise ScoreError(
            f"{who}: royalties must be a list of rows (front, middle, back), got {value!r}",
            field,
        )
    if len(set(value)) != len(value):
        raise ScoreError(f"{who}: a row is declared twice in royalties", field)
    if rows is None:
        raise ScoreError(f"{who}: royalties are declared on rows, and none were given", field)
    table = table_for(rules)
    values = (table.evaluate3(rows[0]), table.evaluate5(rows[1]), table.evaluate5(rows[2]))
    declared = tuple(sorted(ROWS.index(row) for row in value))
    for k in declared:
        no_royalty = (k == 1 and table.lowball) or not table.royalty(k, values[k])
        if no_royalty:
            raise ScoreError(
                f"{who} declared a royalty on the {ROWS[k]} row, which holds none "
                f"({cards_text(rows[k])})",
                field,
            )
    return declared
