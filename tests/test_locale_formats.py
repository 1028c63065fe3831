"""Numbers, money, dates and names as each language writes them (``games.present``,
``games.lib.locales``): Babel's CLDR data for the first three, ICU collation for the order of
names. No database."""

from __future__ import annotations

import datetime
from decimal import Decimal as D

import pytest
from babel.numbers import parse_decimal
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games import present
from games.lib import locales
from tests.conftest import skip_or_fail

# Every language a page may be read in, the two Chinese scripts included: their codes are
# mapped to CLDR locales whether or not settings.LANGUAGES offers them yet.
LANGUAGES = ("en", "vi", "zh-hans", "zh-hant")
CURRENCIES = {"EUR": 2, "USD": 2, "VND": 0, "JPY": 0}


@pytest.mark.parametrize(
    ("code", "cldr"),
    [
        ("en", "en"),
        ("vi", "vi"),
        ("zh-hans", "zh_Hans_CN"),
        ("zh-hant", "zh_Hant_TW"),
        ("pt-br", "pt_BR"),
    ],
)
def test_django_codes_map_to_cldr_locales(code: str, cldr: str) -> None:
    assert locales.cldr_name(code) == cldr
    assert str(locales.babel_locale(code)) == cldr


def test_a_language_without_cldr_data_reads_as_the_default() -> None:
    assert str(locales.babel_locale("xx")) == "en"


@pytest.mark.parametrize(
    ("language", "currency", "value", "text"),
    [
        ("en", "EUR", "4.5", "4.50"),
        ("en", "USD", "1250", "1,250.00"),
        ("en", "VND", "325000", "325,000"),
        ("en", "JPY", "1200", "1,200"),
        ("vi", "VND", "-1250000", "-1.250.000"),
        ("vi", "EUR", "4.5", "4,50"),
        ("zh-hans", "VND", "325000", "325,000"),
        ("zh-hant", "EUR", "0.125", "0.125"),
        # A fraction of a dong or a yen is shown as it is, not rounded away.
        ("en", "VND", "1000.5", "1,000.5"),
        ("vi", "JPY", "0.25", "0,25"),
    ],
)
def test_money_keeps_its_currencys_decimals(
    language: str, currency: str, value: str, text: str
) -> None:
    with translation.override(language):
        assert present.money(D(value), currency) == text
        assert present.money_in(D(value), currency, sign=False) == f"{text} {currency}"


@pytest.mark.parametrize(("currency", "places"), CURRENCIES.items())
def test_minor_units_are_iso_4217s(currency: str, places: int) -> None:
    assert locales.minor_units(currency) == places


@pytest.mark.parametrize(
    ("currency", "value", "text"),
    [
        ("EUR", "-3", "-3.00"),
        ("EUR", "0.125", "0.125"),
        ("VND", "1250000", "1250000"),
        ("VND", "1250000.00", "1250000"),
        ("VND", "1000.5", "1000.5"),
        ("JPY", "-0", "0"),
        ("USD", "-0.00", "0.00"),
    ],
)
def test_plain_amounts_for_files(currency: str, value: str, text: str) -> None:
    assert locales.plain_amount(D(value), currency) == text


def _amounts(places: int) -> st.SearchStrategy[D]:
    return st.decimals(
        min_value=-(10**12), max_value=10**12, places=places, allow_nan=False, allow_infinity=False
    )


@given(
    data=st.data(),
    language=st.sampled_from(LANGUAGES),
    currency=st.sampled_from(sorted(CURRENCIES)),
    sign=st.booleans(),
)
def test_an_amount_reads_back_as_itself_in_every_language(
    data: st.DataObject, language: str, currency: str, sign: bool
) -> None:
    """Formatting, then parsing with the same locale, gives the same Decimal wherever the
    currency allows the value's decimals; and the text has exactly the currency's decimals."""
    places = CURRENCIES[currency]
    value = data.draw(_amounts(places))
    with translation.override(language):
        text = present.money(value, currency, sign=sign)
        locale = locales.babel_locale()
    assert parse_decimal(text.removeprefix("+"), locale, strict=True) == value
    _, mark, decimals = text.partition(locale.number_symbols["latn"]["decimal"])
    assert len(decimals) == places and bool(mark) == bool(places), text
    assert D(locales.plain_amount(value, currency)) == value


@given(value=_amounts(4), language=st.sampled_from(LANGUAGES))
def test_units_never_lose_a_digit(value: D, language: str) -> None:
    with translation.override(language):
        locale = locales.babel_locale()
        for text in (present.units(value), present.signed(value)):
            assert parse_decimal(text.removeprefix("+"), locale, strict=True) == value


@pytest.mark.parametrize(
    ("language", "style", "text"),
    [
        ("en", "medium", "Dec 6, 2026"),
        ("vi", "medium", "6 thg 12, 2026"),
        ("vi", "full", "Chủ Nhật, 6 tháng 12, 2026"),
        ("zh-hans", "medium", "2026年12月6日"),
        ("en", "MMMEd", "Sun, Dec 6"),
        ("vi", "Md", "6/12"),
        ("zh-hant", "MMMEd", "12月6日週日"),
    ],
)
def test_dates_as_each_language_writes_them(language: str, style: str, text: str) -> None:
    with translation.override(language):
        assert present.day(datetime.date(2026, 12, 6), style) == text
    assert present.day(None) == ""


def test_a_moment_joins_date_and_time_as_the_language_does() -> None:
    at = datetime.datetime(2026, 12, 6, 21, 40, tzinfo=datetime.UTC)
    with translation.override("en"):
        assert present.moment(at) == "Dec 6, 2026, 9:40\u202fPM"  # a narrow no-break space
    with translation.override("vi"):
        assert present.moment(at) == "21:40 6 thg 12, 2026"


NAMES = ["Thảo", "Đức", "Dũng", "An", "Ân", "Ăn", "Bình", "Duy", "bob"]


VIETNAMESE_ORDER = ["An", "Ăn", "Ân", "Bình", "bob", "Dũng", "Duy", "Đức", "Thảo"]
ENGLISH_ORDER = ["alice", "Alice", "Bob", "carol", "Dave"]


@pytest.fixture
def with_icu() -> None:
    if locales.icu is None:
        skip_or_fail("PyICU is not installed (needs libicu-dev, pkg-config and g++)")


def test_names_in_vietnamese_order(with_icu: None) -> None:
    """a, ă, â, b, c, d, đ, e, ...: every D name before the Đ ones, tones second."""
    assert locales.by_name(NAMES, str, "vi") == VIETNAMESE_ORDER


def test_names_in_english_order_ignore_case_first(with_icu: None) -> None:
    assert locales.by_name(["carol", "Bob", "alice", "Dave", "Alice"], str, "en") == ENGLISH_ORDER


def test_chinese_names_in_pinyin_order_and_stroke_order(with_icu: None) -> None:
    names = ["王伟", "李娜", "張三", "陈明", "阿强"]
    # Pinyin: a, chen, li, wang, zhang.
    assert locales.by_name(names, str, "zh-hans") == ["阿强", "陈明", "李娜", "王伟", "張三"]
    # Taiwan's order counts strokes: 王 (4) before 李 (7) before 阿 (8).
    traditional = locales.by_name(names, str, "zh-hant")
    assert traditional.index("王伟") < traditional.index("李娜") < traditional.index("阿强")


def test_without_icu_the_builtin_order_knows_the_vietnamese_alphabet() -> None:
    def builtin(names: list[str], code: str) -> list[str]:
        return sorted(names, key=lambda name: locales.builtin_key(name, code))

    assert builtin(NAMES, "vi") == VIETNAMESE_ORDER
    # ơ after ô after o, whatever the tone; a letter before any tone.
    assert builtin(["Ơn", "Ộc", "Ôn", "Oa", "Óc"], "vi") == ["Oa", "Óc", "Ộc", "Ôn", "Ơn"]
    assert builtin(["carol", "Bob", "alice", "Dave", "Alice"], "en") == ENGLISH_ORDER
    # Elsewhere đ is a d and accents break ties only.
    assert builtin(["Eve", "Émile", "Dave", "Đan"], "en") == ["Đan", "Dave", "Émile", "Eve"]


def test_the_active_language_chooses_the_order() -> None:
    with translation.override("vi"):
        assert locales.by_name(["Đức", "Dũng"], str) == ["Dũng", "Đức"]
        vietnamese_key = locales.name_key("Đức")
    with translation.override("en"):
        assert locales.name_key("Đức") != vietnamese_key
