"""The locale behind a language: how its people write numbers, money and dates (Babel, from
the Unicode CLDR data) and in which order they list names (ICU collation, through PyICU
where it is installed, else a built-in order); and how many decimals each currency is
written with (ISO 4217, as CLDR keeps it).

Django names a language by its code ("en", "vi", "zh-hans"); CLDR by a locale
("en", "vi", "zh_Hans_CN"). ``babel_locale`` maps one to the other, and ``name_key`` is the
one sort key for people's names: Vietnamese pages list "Dũng, Đức, Thảo" (d before đ, as a
Vietnamese alphabet has it), Chinese pages in pinyin order, English pages as a dictionary
does (case and accents second). PyICU is compiled against the system's ICU, so a machine
without ``libicu-dev`` runs without it: the built-in order (``builtin_key``) knows the
Vietnamese alphabet and puts accents and case second, and lists Chinese names by code point.
"""

from __future__ import annotations

import functools
import threading
import unicodedata
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any, Protocol, TypeVar

from babel import Locale, UnknownLocaleError
from babel.numbers import get_currency_precision
from django.conf import settings
from django.utils import translation

try:
    import icu
except ImportError:  # not built here (no libicu-dev): the built-in order
    icu = None

# Django's codes whose CLDR locale is not the code itself: Chinese is written in two
# scripts, each read where it is used most (simplified in mainland China, traditional in
# Taiwan), so that dates and collation follow those tables.
CLDR_LOCALES = {
    "zh-hans": "zh_Hans_CN",
    "zh-hant": "zh_Hant_TW",
    "zh-cn": "zh_Hans_CN",
    "zh-tw": "zh_Hant_TW",
    "zh-hk": "zh_Hant_HK",
}


def active_code() -> str:
    """The active Django language code, else the site's default ("en")."""
    return translation.get_language() or settings.LANGUAGE_CODE


def cldr_name(code: str) -> str:
    """The CLDR locale name for a Django language code: "zh-hans" -> "zh_Hans_CN",
    "pt-br" -> "pt_BR", "vi" -> "vi"."""
    code = code.lower()
    if code in CLDR_LOCALES:
        return CLDR_LOCALES[code]
    language, _, region = code.partition("-")
    return f"{language}_{region.upper()}" if region else language


@functools.lru_cache(maxsize=32)
def _babel_locale(code: str) -> Locale:
    try:
        return Locale.parse(cldr_name(code))
    except (UnknownLocaleError, ValueError):
        # A language without CLDR data reads as the site's default language does.
        return Locale.parse(cldr_name(settings.LANGUAGE_CODE))


def babel_locale(code: str | None = None) -> Locale:
    """The Babel locale of ``code``, by default the active language's."""
    return _babel_locale(code or active_code())


# An ICU collator keeps state while it works, so each thread builds its own.
_collators = threading.local()


def collator(code: str | None = None) -> Any:
    """The ICU collator of ``code`` (by default the active language), one per thread."""
    name = cldr_name(code or active_code())
    built: dict[str, Any] = getattr(_collators, "built", None) or {}
    _collators.built = built
    if name not in built:
        built[name] = icu.Collator.createInstance(icu.Locale(name))
    return built[name]


# The built-in order. Vietnamese counts ă, â, đ, ê, ô, ơ and ư as letters of their own
# (after a, a, d, e, o, o, u); its five tone marks, like every accent in other languages,
# only break ties, in a dictionary's order (none, grave, hook, tilde, acute, dot below).
_VIETNAMESE_ALPHABET = "aăâbcdđeêfghijklmnoôơpqrstuưvwxyz"
_LETTER_MARKS = frozenset("\u0306\u0302\u031b")  # breve, circumflex, horn
_TONES = {"\u0300": 1, "\u0309": 2, "\u0303": 3, "\u0301": 4, "\u0323": 5}


def builtin_key(name: str, code: str | None = None) -> tuple[Any, ...]:
    """The sort key of ``name`` without ICU: letters first (in the Vietnamese alphabet for
    Vietnamese), then accents and tones, then case, then the code points."""
    vietnamese = (code or active_code()) == "vi"
    letters: list[tuple[int, int]] = []
    accents: list[tuple[int, ...]] = []
    cases: list[bool] = []
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.combining(char) and letters:
            if vietnamese and char in _LETTER_MARKS:
                base = _VIETNAMESE_ALPHABET[letters[-1][1]] if letters[-1][0] == 0 else ""
                merged = unicodedata.normalize("NFC", base + char)
                if len(merged) == 1 and merged in _VIETNAMESE_ALPHABET:
                    letters[-1] = (0, _VIETNAMESE_ALPHABET.index(merged))
                    continue
            accents[-1] = (*accents[-1], _TONES.get(char, 10 + ord(char)))
            continue
        lower = char.lower()
        if not vietnamese and lower == "đ":
            lower = "d"
        known = _VIETNAMESE_ALPHABET if vietnamese else "abcdefghijklmnopqrstuvwxyz"
        letters.append((0, known.index(lower)) if lower in known else (1, ord(lower)))
        accents.append(())
        cases.append(char != lower)
    return (tuple(letters), tuple(accents), tuple(cases), name)


def name_key(name: str, code: str | None = None) -> tuple[Any, ...]:
    """The sort key of a person's name in ``code``'s order (by default the active
    language's); names the collation finds equal fall back to their code points, so the
    order never depends on where a list came from."""
    if icu is None:
        return builtin_key(name, code)
    return (collator(code).getSortKey(name), name)


T = TypeVar("T")


def by_name(items: Iterable[T], name: Callable[[T], str] = str, code: str | None = None) -> list[T]:
    """``items`` in the order ``name_key`` gives their names: players on every page and
    sheet that lists them by name."""
    return sorted(items, key=lambda item: name_key(name(item), code))


def minor_units(currency: str) -> int:
    """How many decimals an amount in ``currency`` is written with (ISO 4217): 2 for EUR
    and USD, 0 for VND and JPY; 2 for a code the data does not know."""
    return get_currency_precision(currency.upper()) if currency else 2


def plain_amount(value: Decimal, currency: str) -> str:
    """An amount for a file a program reads (CSV): no grouping, a point before the
    decimals, ``currency``'s decimals and never fewer than the value has: "4.50" EUR,
    "1250000" VND, "1000.5" VND (a fraction of a dong is kept, not rounded away)."""
    exponent = value.normalize().as_tuple().exponent
    places = max(minor_units(currency), -exponent if isinstance(exponent, int) else 0)
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and not value else text  # "-0.00" -> "0.00"


class Named(Protocol):
    name: str


def player_name(player: Named) -> str:
    """A player's (or any named row's) name, for ``by_name``."""
    return player.name
