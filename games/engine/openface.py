"""An open-face player's fantasy land and discards, read from a request and checked against
the rules (RULES 8a): Pineapple discards four cards a hand; in fantasy land a player keeps
13 of the cards dealt and discards the rest; plain open-face has no discards otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from .cards import Card, cards_text, parse_cards
from .errors import ScoreError
from .rules import Rules

PINEAPPLE_DISCARDS: Final = 4  # four rounds of three cards after the first five, one discarded each
KEPT: Final = 13  # every board holds 13 cards


class OpenFace(NamedTuple):
    in_fantasyland: bool
    discards: tuple[Card, ...]


def fantasyland_dealt(value: object, who: str, path: str, rules: Rules) -> int | None:
    """How many cards a player's ``in_fantasyland`` says were dealt: 0 when not in fantasy
    land, None when in it with the number not given (``true`` under progressive rules)."""
    field = f"{path}.in_fantasyland"
    if value is False:
        return 0
    base = rules.fantasyland_cards
    if base is None:
        raise ScoreError.refused("no_fantasyland", field, who=who)
    if value is True:
        return None if rules.progressive else base
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError.refused("fantasyland_value", field, who=who)
    most = 17 if rules.progressive else base
    if not base <= value <= most:
        raise ScoreError.refused(
            "fantasyland_deals" if most == base else "fantasyland_deals_between",
            field,
            who=who,
            base=base,
            most=most,
            value=value,
        )
    return value


def read_open_face(entry: Mapping[str, Any], who: str, path: str, rules: Rules) -> OpenFace:
    """The player's fantasy land and discards; a wrong number of discards is an error."""
    dealt = fantasyland_dealt(entry.get("in_fantasyland", False), who, path, rules)
    discards: tuple[Card, ...] = ()
    if entry.get("discards") is not None:
        discards = parse_cards(entry["discards"], "discards", f"{path}.discards", who)
    if discards:
        _check_count(discards, dealt, who, f"{path}.discards", rules)
    return OpenFace(dealt != 0, discards)


def _check_count(
    discards: tuple[Card, ...], dealt: int | None, who: str, field: str, rules: Rules
) -> None:
    given = {"who": who, "count": len(discards), "cards": cards_text(discards)}
    if dealt == 0:
        if not rules.pineapple:
            raise ScoreError.refused("discards_plain", field, **given)
        if len(discards) != PINEAPPLE_DISCARDS:
            raise ScoreError.refused(
                "discards_pineapple", field, **given, allowed=PINEAPPLE_DISCARDS
            )
        return
    if dealt is None:  # progressive fantasy land, the number of cards not given
        base = rules.fantasyland_cards or KEPT
        if not base - KEPT <= len(discards) <= 17 - KEPT:
            raise ScoreError.refused(
                "discards_progressive", field, **given, low=base - KEPT, high=17 - KEPT
            )
        return
    if len(discards) != dealt - KEPT:
        if dealt == KEPT:
            raise ScoreError.refused("discards_none", field, **given, kept=KEPT)
        raise ScoreError.refused(
            "discards_fantasyland", field, **given, dealt=dealt, allowed=dealt - KEPT
        )


def played_in_fantasyland(request: object) -> bool:
    """Whether anyone played a stored deal's request in fantasy land."""
    players = request.get("players") if isinstance(request, Mapping) else None
    return any(
        isinstance(p, Mapping) and p.get("in_fantasyland") not in (None, False)
        for p in players or ()
    )
