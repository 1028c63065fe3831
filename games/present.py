"""How numbers, money, dates, cards, games, naturals and a deal's pairs read, for the pages
and the PDFs alike.

Everything a person sees of a number, an amount, a date or a card goes through here, so that
a page and a sheet never disagree on how "+7.5 units", "1,250,000 VND", "4.50 EUR", "Dec 6,
2026", "K♥", "six pairs" or "scoop" look. Mau Binh rule sets get the Vietnamese names of
their naturals beside the English ones. Words follow the active language
(``django.utils.translation``); numbers and dates follow its locale (Babel, with the CLDR
data: ``games.lib.locales``), so in Vietnamese numbers read "1.250,5" and dates "6 thg 12,
2026"; amounts keep their currency's decimals (ISO 4217: none for VND and JPY, two for EUR
and USD) and never lose a digit; cards never change.
"""

from __future__ import annotations

import copy
import datetime
import functools
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from babel.dates import format_date, format_skeleton, format_time
from babel.numbers import NumberPattern
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from games.engine.cards import RANK_NAMES, SUIT_CHARS, SUIT_SYMBOLS, Card, card_text, make_card
from games.engine.games import GAMES, HANDS_FIELD
from games.engine.rules import NATURALS, Rules
from games.lib.locales import active_code, babel_locale, minor_units

# --- numbers, money and dates ---------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _pattern(locale: str, places: int) -> NumberPattern:
    """``locale``'s decimal pattern (its grouping, its symbols) with at least ``places``
    decimals; applied without rounding, so no digit is ever lost."""
    pattern = copy.copy(babel_locale(locale).decimal_formats[None])
    pattern.frac_prec = (places, places)
    return pattern


# A sheet or a ledger writes the same few amounts over and over, and Babel takes some
# 25 microseconds a number: each text is remembered. Equal Decimals ("6", "6.00") read
# the same, so the value itself is the key.
@functools.lru_cache(maxsize=8192)
def _formatted(locale: str, places: int, value: Decimal) -> str:
    if not value:
        value = abs(value)  # "-0.00" -> "0.00"
    return _pattern(locale, places).apply(value, babel_locale(locale), decimal_quantization=False)


def number(value: Decimal, *, places: int = 0) -> str:
    """The one way a number reads on the pages and the sheets: exact, with the active
    locale's separators and at least ``places`` decimals: "1,250.5", "-3", "325,000.00";
    in Vietnamese "1.250,5"."""
    return _formatted(active_code(), places, value)


def units(value: Decimal) -> str:
    """Units as exact text: "7.5", "-3", "0", "1,250"."""
    return number(value)


def signed(value: Decimal) -> str:
    """Units with their sign: "+7.5", "-3", "0", "+1,250"."""
    text = number(value)
    return f"+{text}" if value > 0 else text


def money(value: Decimal, currency: str, *, sign: bool = False) -> str:
    """An amount written as ``currency`` is: "4.50" in EUR, "325,000" in VND; never fewer
    decimals than it has ("0.125" in EUR, "1,000.5" in VND: a fraction of a dong is shown,
    not lost); with ``sign``, "+4.50" for a gain."""
    text = number(value, places=minor_units(currency))
    return f"+{text}" if sign and value > 0 else text


def money_in(value: Decimal, currency: str, *, sign: bool = True) -> str:
    """An amount with its currency: "+4.50 EUR", "-1,250,000 VND"."""
    return f"{money(value, currency, sign=sign)} {currency}"


def multiple(value: Decimal) -> str:
    """A pair's multiple of the unit: "x2", "x0.5"."""
    return f"x{number(value)}"


# Date lengths as CLDR names them: "medium" is "Dec 6, 2026" / "6 thg 12, 2026",
# "full" "Sunday, December 6, 2026"; the others are skeletons, the fields a date shows
# ("MMMd": "Dec 6"; "MMMEd": "Sun, Dec 6"; "Md": "12/6"), laid out as the locale lays them.
DATE_STYLES = frozenset({"short", "medium", "long", "full"})


def day(value: datetime.date | None, style: str = "medium") -> str:
    """A date as the active language writes it (Babel, CLDR): a ``DATE_STYLES`` length or
    a skeleton ("MMMd"); '' for no date."""
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        value = value.date()
    if style in DATE_STYLES:
        return format_date(value, style, locale=babel_locale())
    return format_skeleton(style, value, locale=babel_locale())


def moment(value: datetime.datetime | None, style: str = "medium") -> str:
    """A date and time of day in the current time zone, as the active language writes
    them: "Dec 6, 2026, 9:40 PM" ("medium"), "Dec 6, 9:40 PM" ("short"), in Vietnamese
    "21:40 6 thg 12, 2026"; '' for none."""
    if value is None:
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    locale = babel_locale()
    date = day(local, "MMMd" if style == "short" else style)
    time = format_time(local, "short", locale=locale)
    # The locale's way of joining a date and a time ("{1}, {0}", "{1} {0}").
    joined = str(locale.datetime_formats.get("medium", "{1} {0}"))
    return joined.replace("{1}", date).replace("{0}", time)


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


SUIT_NAMES = (
    gettext_noop("clubs"),
    gettext_noop("diamonds"),
    gettext_noop("hearts"),
    gettext_noop("spades"),
)
# The engine's rank names, for makemessages (a card's spoken name is translated when shown).
RANK_NAMES_FOR_TRANSLATORS = (
    gettext_noop("Two"),
    gettext_noop("Three"),
    gettext_noop("Four"),
    gettext_noop("Five"),
    gettext_noop("Six"),
    gettext_noop("Seven"),
    gettext_noop("Eight"),
    gettext_noop("Nine"),
    gettext_noop("Ten"),
    gettext_noop("Jack"),
    gettext_noop("Queen"),
    gettext_noop("King"),
    gettext_noop("Ace"),
)


def picker_rows() -> list[list[dict[str, Any]]]:
    """The whole deck as the deal page's card picker lays it out: one row per suit
    (spades, hearts, diamonds, clubs), aces first; each card with its spoken name."""
    rows = []
    for suit in (3, 2, 1, 0):
        faces = card_faces(make_card(rank, suit) for rank in range(12, -1, -1))
        for rank, face in zip(range(12, -1, -1), faces, strict=True):
            face["name"] = _("%(rank)s of %(suit)s") % {
                "rank": _(RANK_NAMES[rank]),
                "suit": _(SUIT_NAMES[suit]),
            }
        rows.append(faces)
    return rows


# --- games and naturals --------------------------------------------------------------------

# Each game's name for people, as its descriptor gives it (marked for the translators there),
# in the language of the page or sheet that shows it.
GAME_NAMES: Mapping[str, str | Promise] = {
    key: gettext_lazy(game.display_name) for key, game in GAMES.items()
}
# The rows' names as the engine gives them, translated where a page shows them.
ROW_NAMES_FOR_TRANSLATORS = (gettext_noop("front"), gettext_noop("middle"), gettext_noop("back"))

# English name, and the Vietnamese one used at Mau Binh tables (None where there is none).
NATURAL_NAMES: Mapping[str, tuple[str, str | None]] = {
    "clean_dragon": (gettext_noop("clean dragon"), "rồng cuốn"),
    "dragon": (gettext_noop("dragon"), "sảnh rồng"),
    "same_color_13": (gettext_noop("13 of one colour"), "đồng hoa"),
    "same_color_12": (gettext_noop("12 of one colour"), None),
    "five_pairs_trips": (gettext_noop("five pairs and trips"), "5 đôi 1 sám"),
    "five_consecutive_pairs": (gettext_noop("five consecutive pairs"), "năm đôi thông"),
    "six_pairs": (gettext_noop("six pairs"), "lục phé bôn"),
    "three_flushes": (gettext_noop("three flushes"), "3 thùng"),
    "three_straights": (gettext_noop("three straights"), "3 sảnh"),
    "no_broadway": (gettext_noop("no broadway"), None),
}
assert set(NATURAL_NAMES) == set(NATURALS)


def is_mau_binh(rules: Rules) -> bool:
    """Whether the rule set is one of the Mau Binh presets (or built on one)."""
    return rules.preset.startswith("mau-binh")


def game_name(rules: Rules) -> str:
    """The game for people: "Chinese poker", "Mau Binh (Mậu Binh)", "Big Two"; Mau Binh
    keeps its Vietnamese name in every language, with a gloss beside it ("Mậu Binh" alone
    in Vietnamese)."""
    if is_mau_binh(rules):
        return _("Mau Binh (Mậu Binh)")
    return str(GAME_NAMES[rules.game])


def natural_name(name: str, rules: Rules | None = None) -> str:
    """A natural's name for people: "six pairs", or "six pairs (lục phé bôn)" in Mau Binh;
    in Vietnamese the table's name ("lục phé bôn"), else the translated English one."""
    english, vietnamese = NATURAL_NAMES.get(name, (name.replace("_", " "), None))
    if _vietnamese() and vietnamese:
        return vietnamese
    if rules is not None and is_mau_binh(rules) and vietnamese:
        return f"{_(english)} ({vietnamese})"
    return _(english)


def _vietnamese() -> bool:
    return (translation.get_language() or "").startswith("vi")


def capitalised(text: str) -> str:
    """The text with its first letter upper case, as a label starts: "Six pairs"."""
    return text[:1].upper() + text[1:]


# --- a deal's pairs --------------------------------------------------------------------------

# How the engine says a pair was settled, as the reason reads ("natural" is named there).
PAIR_KINDS = {
    "rows": "",
    "foul": gettext_noop("foul"),
    "surrender": gettext_noop("surrender"),
    "natural": "natural",
    "cards": gettext_noop("cards left"),
    "none": "",
}
ROW_ORDER = ("front", "middle", "back")


def pair_sides(pair: Mapping[str, Any], order: Sequence[str]) -> tuple[str, str, Decimal]:
    """A pair of a result told from the winner's side: (winner, loser, units won, never
    below 0); an even pair names its players in ``order`` (seat order)."""
    seat = {name: k for k, name in enumerate(order)}
    a, b = sorted(pair["players"], key=lambda name: seat.get(name, 0))
    won = Decimal(pair["units"]) * (1 if a == pair["players"][0] else -1)
    return (a, b, won) if won >= 0 else (b, a, -won)


def pair_reason(
    pair: Mapping[str, Any],
    hands: Mapping[str, Sequence[Mapping[str, Any]]],
    rules: Rules,
    k: int | None = None,
) -> str:
    """How one pair was settled ("scoop", "foul", "natural: six pairs"), '' for plain rows.
    ``hands``: each player's hands (``games.engine.games.player_hands``); ``k`` is the
    hand's index at a Criss Cross table, where each player holds two."""
    if pair.get("scoop"):
        return _("scoop")
    detail = PAIR_KINDS.get(pair.get("kind", ""), "")
    if detail == "natural":
        named = []
        for name in pair["players"]:
            held = hands.get(name, ())
            hand = held[k or 0] if len(held) > (k or 0) else {}
            if hand.get("natural"):
                named.append(natural_name(hand["natural"], rules))
        if named:
            return _("natural: %(names)s") % {"names": ", ".join(named)}
        return _("natural")
    return _(detail) if detail else ""


def pair_detail(
    pair: Mapping[str, Any], hands: Mapping[str, Sequence[Mapping[str, Any]]], rules: Rules
) -> str:
    """``pair_reason``, each hand's told on its own at a Criss Cross table."""
    if HANDS_FIELD not in pair:
        return pair_reason(pair, hands, rules)
    return "; ".join(
        _("hand %(k)s: %(detail)s")
        % {"k": k, "detail": pair_reason(hand, hands, rules, k - 1) or _("rows")}
        for k, hand in enumerate(pair[HANDS_FIELD], start=1)
    )


def rows_score(pair: Mapping[str, Any], winner: str) -> str:
    """The rows a pair settled row by row won and lost, from ``winner``'s side ("rows
    2-1"); '' for a pair settled otherwise."""
    rows = pair.get("rows")
    if pair.get("kind") != "rows" or not isinstance(rows, Mapping):
        return ""
    side = 1 if pair["players"][0] == winner else -1
    outcomes = [side * int(rows[row]) for row in ROW_ORDER if row in rows]
    return _("rows %(won)s-%(lost)s") % {"won": outcomes.count(1), "lost": outcomes.count(-1)}


def pair_royalties(
    pair: Mapping[str, Any], hands: Mapping[str, Sequence[Mapping[str, Any]]]
) -> str:
    """The royalties of the rows a pair settled row by row ("Bob's royalties: back 4"),
    as the result gives them per row; '' when it has none."""
    if pair.get("kind") != "rows":
        return ""
    told = []
    for name in pair["players"]:
        held = hands.get(name, ())
        rows = (held[0].get("rows") if held else None) or {}
        paid = [
            f"{_(row)} {units(Decimal(rows[row]['royalty']))}"
            for row in ROW_ORDER
            if row in rows and Decimal(rows[row].get("royalty") or 0)
        ]
        if paid:
            told.append(
                _("%(player)s's royalties: %(rows)s") % {"player": name, "rows": ", ".join(paid)}
            )
    return "; ".join(told)


# --- Big Two -------------------------------------------------------------------------------


def big_two_lines(big_two: Mapping[str, Any]) -> dict[str, Any]:
    """A Big Two summary's ``big_two`` in words: a line per deal where a threshold
    multiplier or the 2s held changed a loser's payment ("Deal 4: Bob (x2 for 10 cards
    left)"), and the line of the deal that ended the session at its target, or None."""
    lines = []
    for entry in big_two["multiplied"]:
        who = []
        for loser in entry["players"]:
            what = []
            if loser["multiplier"] is not None:
                what.append(
                    _("%(factor)s for %(count)s cards left")
                    % {"factor": multiple(loser["multiplier"]), "count": loser["cards_left"]}
                )
            if loser["twos"]:
                what.append(
                    ngettext("%(count)s two held", "%(count)s twos held", loser["twos"])
                    % {"count": loser["twos"]}
                )
            who.append(_("%(name)s (%(what)s)") % {"name": loser["name"], "what": ", ".join(what)})
        lines.append(
            _("Deal %(number)s: %(who)s") % {"number": entry["deal"], "who": "; ".join(who)}
        )
    target = big_two["target"]
    ended = None
    if target is not None:
        ended = _(
            "Deal %(number)s ended the session: %(names)s reached the target of %(target)s."
        ) % {
            "number": target["deal"],
            "names": ", ".join(target["players"]),
            "target": units(target["target_score"]),
        }
    return {"multiplied": lines, "target": ended}
