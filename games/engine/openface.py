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
        raise ScoreError(f"{who}: these rules have no fantasy land", field)
    if value is True:
        return None if rules.progressive else base
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError(
            f"{who}: in_fantasyland must be true, false or the number of cards dealt", field
        )
    most = 17 if rules.progressive else base
    if not base <= value <= most:
        allowed = f"{base}" if most == base else f"{base} to {most}"
        raise ScoreError(
            f"{who}: fantasy land deals {allowed} cards under these rules, not {value}", field
        )
    return value


def read_open_face(entry: Mapping[str, Any], who: str, path: str, rules: Rules) -> OpenFace:
    """The player's fantasy land and discards; a wrong number of discards is an error."""
    dealt = fantasyland_dealt(entry.get("in_fantasyland", False), who, path, rules)
    discards: tuple[Card, ...] = ()
    if entry.get("discards") is not None:
        discards = parse_cards(entry["discards"], f"{who}, discards", f"{path}.discards")
    if discards:
        _check_count(discards, dealt, who, f"{path}.discards", rules)
    return OpenFace(dealt != 0, discards)


def _check_count(
    discards: tuple[Card, ...], dealt: int | None, who: str, field: str, rules: Rules
) -> None:
    given = f"{len(discards)} given ({cards_text(discards)})"
    if dealt == 0:
        if not rules.pineapple:
            raise ScoreError(
                f"{who}, discards: {given}, but plain open-face has no discards"
                " (only Pineapple and fantasy land discard)",
                field,
            )
        if len(discards) != PINEAPPLE_DISCARDS:
            raise ScoreError(
                f"{who}, discards: {given}; a Pineapple hand discards {PINEAPPLE_DISCARDS}", field
            )
        return
    if dealt is None:  # progressive fantasy land, the number of cards not given
        base = rules.fantasyland_cards or KEPT
        if not base - KEPT <= len(discards) <= 17 - KEPT:
            raise ScoreError(
                f"{who}, discards: {given}; fantasy land here discards {base - KEPT} to"
                f" {17 - KEPT}",
                field,
            )
        return
    if len(discards) != dealt - KEPT:
        if dealt == KEPT:
            reason = f"fantasy land deals {KEPT} cards here, so nothing is discarded"
        else:
            reason = f"fantasy land with {dealt} cards discards {dealt - KEPT}"
        raise ScoreError(f"{who}, discards: {given}; {reason}", field)


def played_in_fantasyland(request: object) -> bool:
    """Whether anyone played a stored deal's request in fantasy land."""
    players = request.get("players") if isinstance(request, Mapping) else None
    return any(
        isinstance(p, Mapping) and p.get("in_fantasyland") not in (None, False)
        for p in players or ()
    )
