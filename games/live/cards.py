"""The cards a seat's entry of a deal in progress holds, and the cards two seats share.

A draft may be incomplete or half typed: a field that does not read as cards holds none
here (the engine says what is wrong with it when the entry is submitted).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.engine import ScoreError
from games.engine.cards import card_text, parse_cards
from games.models import LiveEntry

CARD_FIELDS = ("front", "middle", "back", "cards", "discards")


def entry_cards(entry: Any) -> list[str]:
    """The cards of one entry, each once, as the engine writes them ("As")."""
    if not isinstance(entry, Mapping):
        return []
    seen: dict[str, None] = {}
    for field in CARD_FIELDS:
        value = entry.get(field)
        if not isinstance(value, (str, list)):
            continue
        try:
            cards = parse_cards(value, field)
        except (ScoreError, TypeError):
            continue
        seen.update(dict.fromkeys(card_text(card) for card in cards))
    return list(seen)


def shared_cards(entries: Mapping[int, Any]) -> dict[int, list[tuple[str, int]]]:
    """Seat -> the (card, other seat) pairs it shares with another seat's entry."""
    holders: dict[str, list[int]] = {}
    for seat, entry in entries.items():
        for card in entry_cards(entry):
            holders.setdefault(card, []).append(seat)
    out: dict[int, list[tuple[str, int]]] = {seat: [] for seat in entries}
    for card, seats in holders.items():
        for seat in seats:
            out[seat].extend((card, other) for other in seats if other != seat)
    return out


def submitted_clashes(entries: Iterable[LiveEntry]) -> dict[int, list[tuple[str, int]]]:
    """Player -> the (card, other player) pairs its submitted hand shares with another
    submitted hand. Drafts never count: a draft of guessed cards learns nothing."""
    return shared_cards({e.player_id: e.entry for e in entries if e.submitted_at is not None})
