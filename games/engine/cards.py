"""Cards as small integers, and the parser for every notation of RULES section 1.

A card is an int laid out for fast evaluation: bits 24 and up hold ``5 ** rank``
(rank 0 is a deuce, 12 an ace) and the suit adds 7 to one of four 6-bit fields
(clubs at bit 0, diamonds 6, hearts 12, spades 18). The sum of a hand's cards thus
holds, above bit 24, a number unique to its multiset of ranks; below, a field reaches
35 (its top bit set) only when all five cards share its suit, since 4 x 7 = 28 < 32.
``ranking`` keys its table on that sum with one mask. Cards sort by rank, then suit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from .errors import Message, ScoreError, english, message

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_NAMES: Final = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)  # fmt: skip
RANK_PLURALS: Final = (
    "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights",
    "Nines", "Tens", "Jacks", "Queens", "Kings", "Aces",
)  # fmt: skip

Card = int


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = deuce .. 12 = ace) and ``suit`` (0 = c, 1 = d, 2 = h, 3 = s)."""
    return int(5**rank) << 24 | 7 << (6 * suit)


DECK: Final[tuple[Card, ...]] = tuple(make_card(r, s) for r in range(13) for s in range(4))
RANK_OF: Final[dict[Card, int]] = {make_card(r, s): r for r in range(13) for s in range(4)}
SUIT_OF: Final[dict[Card, int]] = {make_card(r, s): s for r in range(13) for s in range(4)}
TEXT_OF: Final[dict[Card, str]] = {
    make_card(r, s): RANK_CHARS[r] + SUIT_CHARS[s] for r in range(13) for s in range(4)
}

# Every two-character spelling of every card: rank letter in either case, suit
# letter in either case or as a symbol. "10" is folded into "T" before lookup.
_TOKENS: Final[dict[str, Card]] = {}
for _r, _rc in enumerate(RANK_CHARS):
    for _s in range(4):
        for _rank_text in {_rc, _rc.lower()}:
            for _suit_text in (SUIT_CHARS[_s], SUIT_CHARS[_s].upper(), SUIT_SYMBOLS[_s]):
                _TOKENS[_rank_text + _suit_text] = make_card(_r, _s)

_TOKEN_OF: Final = _TOKENS.get
_VARIATION_SELECTOR: Final = "\ufe0f"
_SEPARATORS: Final = str.maketrans({",": " ", ";": " ", _VARIATION_SELECTOR: None})
_RANK_INPUTS: Final = frozenset(RANK_CHARS + RANK_CHARS.lower())
_SUIT_INPUTS: Final = frozenset(SUIT_CHARS + SUIT_CHARS.upper() + SUIT_SYMBOLS)


def card_text(card: Card) -> str:
    """Canonical two-letter text of a card, e.g. ``Ah``."""
    return TEXT_OF[card]


def cards_text(cards: Iterable[Card]) -> str:
    """Canonical text of several cards, space separated, in the order given."""
    return " ".join(map(TEXT_OF.__getitem__, cards))


def english_card_error(error: Message) -> str:
    """Why text is not cards, in the engine's words: "unknown rank 'Z' in 'Zh'"."""
    return english(error)


class CardError(ScoreError):
    """Text that is not cards; ``reason`` is the message without the place, and
    ``card_error`` the same as a message: ``unknown_rank``, ``no_suit`` or ``unknown_suit``.
    ``code`` says it with the place: the player ``who`` (if any) and the ``part``."""

    def __init__(self, part: str, card_error: Message, field: str | None, who: Any = None):
        self.reason = english(card_error)
        self.card_error = card_error
        if who is None:
            said = message("cards_unreadable", part=part, reason=card_error)
        else:
            said = message("player_cards_unreadable", who=who, part=part, reason=card_error)
        super().__init__(english(said), field, said)


def _token_error(token: str, chunk: str, part: str, field: str | None, who: Any) -> CardError:
    rank_text = "10" if token.startswith("10") else token[:1]
    suit_text = token[len(rank_text) :]
    if rank_text != "10" and rank_text not in _RANK_INPUTS:
        code = message("unknown_rank", rank=rank_text, text=chunk)
    elif not suit_text:
        code = message("no_suit", card=token)
    else:
        code = message("unknown_suit", suit=suit_text, text=chunk)
    return CardError(part, code, field, who)


def parse_cards(
    text: str | Sequence[str], part: str = "cards", field: str | None = None, who: Any = None
) -> tuple[Card, ...]:
    """Read cards written in any notation of the rule book.

    ``who`` (a player's name) and ``part`` ("front", "discards") name the place in the
    deal for error messages ("Ann, front: ...") and ``field`` its path in the request
    ("players[0].front"). Cards may be separated by spaces, commas or nothing; a list of
    strings is read as one text. Duplicates are not checked here: the deal checks all its
    cards at once.
    """
    if text.__class__ is str:
        if "," in text or ";" in text or _VARIATION_SELECTOR in text:
            text = text.translate(_SEPARATORS)
        fast = tuple(map(_TOKEN_OF, text.split()))
        if None not in fast:  # the usual case: every chunk is one card
            return fast  # type: ignore[return-value]
    return _parse_slowly(text, part, field, who)


def _parse_slowly(
    text: str | Sequence[str], part: str, field: str | None, who: Any
) -> tuple[Card, ...]:
    """Card strings with run-together cards, a list of strings, or errors."""
    if not isinstance(text, str):
        if isinstance(text, Sequence) and all(isinstance(t, str) for t in text):
            text = " ".join(text)
        elif who is None:
            raise ScoreError.refused("cards_not_text", field, part=part, kind=type(text).__name__)
        else:
            raise ScoreError.refused(
                "player_cards_not_text", field, who=who, part=part, kind=type(text).__name__
            )
    chunks = text.translate(_SEPARATORS).split()
    cards: list[Card] = []
    append = cards.append
    tokens = _TOKENS
    for chunk in chunks:
        card = tokens.get(chunk)
        if card is not None:
            append(card)
            continue
        pos, size = 0, len(chunk)
        while pos < size:
            rank_len = 2 if chunk.startswith("10", pos) else 1
            token = chunk[pos : pos + rank_len + 1]
            card = tokens.get("T" + token[2:] if rank_len == 2 else token)
            if card is None:
                raise _token_error(token, chunk, part, field, who)
            append(card)
            pos += rank_len + 1
    return tuple(cards)


def parse_card(text: str) -> Card:
    """One card from its text, for tests and tools."""
    cards = parse_cards(text, "card")
    if len(cards) != 1:
        raise ScoreError.refused("one_card", None, value=repr(text))
    return cards[0]
