"""How numbers, cards and names read on the pages and the sheets (``games.present``), and
the stored stakes format (``games.stakes``)."""

from __future__ import annotations

import re
from decimal import Decimal as D
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import present
from games import stakes as stored_stakes
from games.engine import Rules
from games.engine.cards import parse_cards


@pytest.mark.parametrize(
    ("value", "text"),
    [("7.5", "+7.5"), ("-3", "-3"), ("0", "0"), ("-0", "0"), ("6.00", "+6"), ("0.125", "+0.125")],
)
def test_signed_units(value: str, text: str) -> None:
    assert present.signed(D(value)) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [("1250", "1,250"), ("-1250.5", "-1,250.5"), ("1E+3", "1,000"), ("325000", "325,000")],
)
def test_units_have_thousands_separators(value: str, text: str) -> None:
    assert present.units(D(value)) == text
    assert present.signed(D(value)) == (text if text.startswith("-") else f"+{text}")


@given(
    st.decimals(
        allow_nan=False, allow_infinity=False, places=4, max_value=10**10, min_value=-(10**10)
    )
)
def test_a_number_reads_back_as_itself(value: D) -> None:
    """Units and money lose nothing: without the separators they are the exact value."""
    for text in (present.units(value), present.money(value, "EUR"), present.signed(value)):
        assert D(text.replace(",", "")) == value
        assert re.fullmatch(r"[+-]?\d{1,3}(,\d{3})*(\.\d+)?", text), text


@pytest.mark.parametrize(
    ("value", "sign", "text"),
    [
        ("4.5", False, "4.50"),
        ("4.5", True, "+4.50"),
        ("-4.5", True, "-4.50"),
        ("0.125", False, "0.125"),
        ("325000", False, "325,000.00"),
        ("-1234567.5", True, "-1,234,567.50"),
        ("-0.001", False, "-0.001"),
        ("-0.000", True, "0.00"),
        ("0", True, "0.00"),
    ],
)
def test_money(value: str, sign: bool, text: str) -> None:
    assert present.money(D(value), "EUR", sign=sign) == text


def test_money_with_its_currency() -> None:
    assert present.money_in(D("325000"), "VND") == "+325,000 VND"
    assert present.money_in(D("-2"), "EUR", sign=False) == "-2.00 EUR"
    assert present.multiple(D("2.50")) == "x2.5"


def test_card_faces_from_cards_and_from_result_text_agree() -> None:
    cards = parse_cards("Th 2s Ad Kc")
    faces = present.card_faces(cards)
    assert [(f["rank"], f["suit"], f["red"]) for f in faces] == [
        ("10", "♥", True),
        ("2", "♠", False),
        ("A", "♦", True),
        ("K", "♣", False),
    ]
    assert present.text_faces("Th 2s Ad Kc") == faces
    assert present.text_faces(None) == []


def test_game_and_natural_names_for_pages_and_sheets() -> None:
    assert present.game_name(Rules.from_mapping("ofc")) == "Open-face Chinese poker"
    assert present.game_name(Rules.from_mapping("mau-binh-south")) == "Mau Binh (Mậu Binh)"
    mau_binh = Rules.from_mapping("mau-binh-north")
    assert present.natural_name("six_pairs") == "six pairs"
    assert present.natural_name("six_pairs", mau_binh) == "six pairs (lục phé bôn)"
    assert present.capitalised(present.natural_name("three_flushes")) == "Three flushes"


def test_stored_stakes_are_read_in_one_place() -> None:
    stakes = stored_stakes.stakes_mapping(D("0.5"), [("Bob", "Ann", D(2)), ("Cy", "Di", D("1.5"))])
    assert stakes == {
        "unit_value": "0.5",
        "pairs": [
            {"players": ["Bob", "Ann"], "multiplier": "2"},
            {"players": ["Cy", "Di"], "multiplier": "1.5"},
        ],
    }
    assert stored_stakes.unit_value(stakes) == D("0.5")
    assert stored_stakes.unit_value(None) is None
    assert stored_stakes.multiple(stakes, "Ann", "Bob") == 2
    assert stored_stakes.multiple(stakes, "Ann", "Cy") == 1
    assert stored_stakes.pair_multiples(stakes) == {("Ann", "Bob"): 2, ("Cy", "Di"): D("1.5")}
    assert stored_stakes.restricted(stakes, ["Ann", "Bob", "Cy"]) == {
        "unit_value": "0.5",
        "pairs": [{"players": ["Bob", "Ann"], "multiplier": "2"}],
    }
    assert stored_stakes.restricted(None, ["Ann"]) is None


def _scored(*players: dict[str, str]) -> dict[str, Any]:
    from games.engine.request import score_request

    return score_request({"rules": "classic-1-6", "players": list(players)})


def test_a_pair_settled_by_rows_tells_its_score_and_royalties() -> None:
    from games.engine.games import player_hands

    # Ann's quad sevens in the back pay 4 (classic-1-6); Bob wins the front and the middle.
    result = _scored(
        {"name": "Ann", "front": "Ac Kc 3d", "middle": "4c 4d 9h Jd Qs", "back": "7c 7d 7h 7s 5d"},
        {"name": "Bob", "front": "2c 2d 8s", "middle": "5c 5h Tc Ts Kd", "back": "3c 4h 5s 6d 2s"},
    )
    (pair,) = result["pairs"]
    hands = {p["name"]: player_hands(p) for p in result["players"]}

    assert present.pair_sides(pair, ["Bob", "Ann"]) == ("Ann", "Bob", D(3))
    assert present.rows_score(pair, "Ann") == "rows 1-2"
    assert present.rows_score(pair, "Bob") == "rows 2-1"
    assert present.pair_royalties(pair, hands) == "Ann's royalties: back 4"
    assert present.pair_detail(pair, hands, Rules.from_mapping("classic-1-6")) == ""


def test_an_even_pair_is_told_in_seat_order() -> None:
    pair = {"players": ["Bob", "Ann"], "units": "0", "kind": "none"}

    assert present.pair_sides(pair, ["Ann", "Bob"]) == ("Ann", "Bob", D(0))
    assert present.rows_score(pair, "Ann") == ""
