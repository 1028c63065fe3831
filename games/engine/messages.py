"""What the engine says to people, as message codes with their arguments.

A hand's name and a foul's reason are a ``Message``: a code ("pair", "row_beats_row") and
the arguments that fill it (ranks as the letters of ``cards.RANK_CHARS``, rows by name).
The codes are the same in every language; ``english`` renders one as the engine's own
text, and the pages render the same codes in the reader's language.
"""

from __future__ import annotations

from typing import Final

from .cards import RANK_CHARS, RANK_NAMES, RANK_PLURALS, english_card_error
from .errors import REFUSALS, Message, english, message

# Card errors and the refusals of bad input are messages too.
__all__ = ["REFUSALS", "Message", "english", "english_card_error", "message"]


HAND_CODES: Final = (
    "high_card",
    "low",
    "pair",
    "two_pair",
    "trips",
    "straight",
    "flush",
    "full_house",
    "quads",
    "straight_flush",
    "royal_flush",
)
FOUL_CODES: Final = ("row_beats_row", "false_natural", "not_shown")
CARD_ERROR_CODES: Final = ("unknown_rank", "no_suit", "unknown_suit")
REVIEW_CODES: Final = (
    "not_reviewed_game",
    "hand_not_shown",
    "surrendered_without_cards",
    "set_card_by_card",
)


def _plural(rank: str) -> str:
    return RANK_PLURALS[RANK_CHARS.index(rank)]


def _name(rank: str) -> str:
    return RANK_NAMES[RANK_CHARS.index(rank)]


def _kickers(kickers: list[str]) -> str:
    return f"{' '.join(kickers)} kicker{'s' if len(kickers) > 1 else ''}"


def english_hand(hand: Message) -> str:
    """A hand's message in the engine's words: "Pair of Kings, Q 9 5 kickers"."""
    code, a = hand["code"], hand["args"]
    if code == "royal_flush":
        return "Royal flush"
    if code in ("straight", "straight_flush"):
        kind = "Straight flush" if code == "straight_flush" else "Straight"
        return f"{kind}, {_name(a['high'])} high{' (wheel)' if a['wheel'] else ''}"
    if code == "quads":
        return f"Four of a kind, {_plural(a['rank'])}"
    if code == "full_house":
        return f"Full house, {_plural(a['rank'])} over {_plural(a['over'])}"
    if code == "flush":
        return f"Flush, {'-'.join(a['ranks'])}"
    if code == "trips":
        return f"Three of a kind, {_plural(a['rank'])}"
    if code == "two_pair":
        return f"Two pair, {_plural(a['high'])} and {_plural(a['low'])}, {a['kicker']} kicker"
    if code == "pair":
        return f"Pair of {_plural(a['rank'])}, {_kickers(a['kickers'])}"
    if code == "low":
        return f"{_name(a['rank'])} low, {'-'.join(a['ranks'])}"
    return f"{_name(a['rank'])} high, {_kickers(a['kickers'])}"


def english_foul(foul: Message) -> str:
    """A foul's message in the engine's words."""
    code, a = foul["code"], foul["args"]
    if code == "false_natural":
        return f"declared {a['natural']} but the cards do not make it"
    if code == "not_shown":
        return "the hand was declared fouled without being shown"
    text = (
        f"{a['ahead']} {english_hand(a['ahead_hand'])} beats "
        f"{a['behind']} {english_hand(a['behind_hand'])}"
    )
    if a["lowball"]:
        text += " (with a 2-7 middle only the back must beat the front)"
    return text


def english_review(reason: Message) -> str:
    """Why a deal, or one player of it, was not reviewed, in the engine's words."""
    code, a = reason["code"], reason["args"]
    if code == "not_reviewed_game":
        name = "criss cross" if a["game"] == "criss-cross" else a["game"]
        return f"{name} deals are not reviewed"
    return {
        "hand_not_shown": "hand not shown",
        "surrendered_without_cards": "surrendered without cards",
        "set_card_by_card": "set card by card",
    }[code]
