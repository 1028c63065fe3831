"""How numbers, cards, games and naturals read, for the pages and the PDFs alike.

Everything a person sees of a number or a card goes through here, so that a page and a
sheet never disagree on how "+7.5 units", "1,250.00 VND", "K♥" or "six pairs" look.
Mau Binh rule sets get the Vietnamese names of their naturals beside the English ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from games.engine.cards import RANK_NAMES, SUIT_CHARS, SUIT_SYMBOLS, Card, card_text, make_card
from games.engine.games import GAMES
from games.engine.rules import NATURALS, Rules, decimal_text

# --- numbers -------------------------------------------------------------------------------


def number(value: Decimal, *, places: int = 0) -> str:
    """The one way a number reads on the pages and the sheets: exact, with thousands
    separators and at least ``places`` decimals: "1,250.5", "-3", "325,000.00"."""
    places = max(places, -value.normalize().as_tuple().exponent)  # type: ignore[operator]
    text = f"{value:,.{places}f}"
    return text[1:] if text.startswith("-") and not value else text  # "-0.00" -> "0.00"


def units(value: Decimal) -> str:
    """Units as exact text: "7.5", "-3", "0", "1,250"."""
    return number(value)


def signed(value: Decimal) -> str:
    """Units with their sign: "+7.5", "-3", "0", "+1,250"."""
    text = number(value)
    return f"+{text}" if value > 0 else text


def money(value: Decimal, *, sign: bool = False) -> str:
    """An amount with thousands separators, at least two decimals and never fewer than it
    has: "4.50", "0.125", "325,000.00"; with ``sign``, "+4.50" for a gain."""
    text = number(value, places=2)
    return f"+{text}" if sign and value > 0 else text


def money_in(value: Decimal, currency: str, *, sign: bool = True) -> str:
    """An amount with its currency: "+4.50 EUR", "-1,250.00 VND"."""
    return f"{money(value, sign=sign)} {currency}"


def multiple(value: Decimal) -> str:
    """A pair's multiple of the unit: "x2", "x0.5"."""
    return f"x{decimal_text(value)}"


# --- cards ---------------------------------------------------------------------------------


def card_faces(cards: Iterable[Card]) -> list[dict[str, Any]]:
    """Cards as rank, suit symbol and whether the suit is red (never colour alone)."""
    faces = []
    for card in cards:
        text = card_text(card)
        faces.append(
            {
                "rank": "10" if text[0] == "T" else text[0],
                "suit": SUIT_SYMBOLS[SUIT_CHARS.index(text[1])],
                "red": text[1] in "dh",
                "text": text,
            }
        )
    return faces


def text_faces(text: str | None) -> list[dict[str, Any]]:
    """``card_faces`` of cards as the engine writes them in a result ("Ah Td 4s")."""
    faces = []
    for card in (text or "").split():
        rank, suit = card[:-1].upper(), card[-1].lower()
        symbol = SUIT_SYMBOLS[SUIT_CHARS.index(suit)] if suit in SUIT_CHARS else suit
        faces.append(
            {
                "rank": "10" if rank == "T" else rank,
                "suit": symbol,
                "red": suit in "dh",
                "text": f"{rank}{suit}",
            }
        )
    return faces


SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def picker_rows() -> list[list[dict[str, Any]]]:
    """The whole deck as the deal page's card picker lays it out: one row per suit
    (spades, hearts, diamonds, clubs), aces first; each card with its spoken name."""
    rows = []
    for suit in (3, 2, 1, 0):
        faces = card_faces(make_card(rank, suit) for rank in range(12, -1, -1))
        for rank, face in zip(range(12, -1, -1), faces, strict=True):
            face["name"] = f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"
        rows.append(faces)
    return rows


# --- games and naturals --------------------------------------------------------------------

# Each game's name for people, as its descriptor gives it.
GAME_NAMES: Mapping[str, str] = {key: game.display_name for key, game in GAMES.items()}

# English name, and the Vietnamese one used at Mau Binh tables (None where there is none).
NATURAL_NAMES: Mapping[str, tuple[str, str | None]] = {
    "clean_dragon": ("clean dragon", "rồng cuốn"),
    "dragon": ("dragon", "sảnh rồng"),
    "same_color_13": ("13 of one colour", "đồng hoa"),
    "same_color_12": ("12 of one colour", None),
    "five_pairs_trips": ("five pairs and trips", "5 đôi 1 sám"),
    "six_pairs": ("six pairs", "lục phé bôn"),
    "three_flushes": ("three flushes", "3 thùng"),
    "three_straights": ("three straights", "3 sảnh"),
    "no_broadway": ("no broadway", None),
}
assert set(NATURAL_NAMES) == set(NATURALS)


def is_mau_binh(rules: Rules) -> bool:
    """Whether the rule set is one of the Mau Binh presets (or built on one)."""
    return rules.preset.startswith("mau-binh")


def game_name(rules: Rules) -> str:
    """The game for people: "Chinese poker", "Mau Binh (Mậu Binh)", "Big Two"."""
    if is_mau_binh(rules):
        return "Mau Binh (Mậu Binh)"
    return GAME_NAMES[rules.game]


def natural_name(name: str, rules: Rules | None = None) -> str:
    """A natural's name for people: "six pairs", or "six pairs (lục phé bôn)" in Mau Binh."""
    english, vietnamese = NATURAL_NAMES.get(name, (name.replace("_", " "), None))
    if rules is not None and is_mau_binh(rules) and vietnamese:
        return f"{english} ({vietnamese})"
    return english


def capitalised(text: str) -> str:
    """The text with its first letter upper case, as a label starts: "Six pairs"."""
    return text[:1].upper() + text[1:]
