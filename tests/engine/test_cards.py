"""The card parser, table-driven: valid spellings and their canonical form; bad ones and errors."""

from __future__ import annotations

import pytest

from games.engine.cards import DECK, card_text, cards_text, parse_card, parse_cards
from games.engine.errors import ScoreError

VALID = [
    ("As Kd Qh", "As Kd Qh"),
    ("as kd qh", "As Kd Qh"),
    ("AS KD QH", "As Kd Qh"),
    ("AsKdQh", "As Kd Qh"),
    ("As,Kd,Qh", "As Kd Qh"),
    ("As, Kd ,Qh", "As Kd Qh"),
    ("10c 10d Th", "Tc Td Th"),
    ("10c10dTh", "Tc Td Th"),
    ("tc Td", "Tc Td"),
    ("A♠ K♥ Q♦ J♣", "As Kh Qd Jc"),
    ("A♠️ K♥️ Q♦️ J♣️", "As Kh Qd Jc"),  # with the emoji variation selector
    ("A♠️K♥️10♦️", "As Kh Td"),
    ("  2c\t3d\n4h ", "2c 3d 4h"),
    ("", ""),
    (["As", "Kd Qh"], "As Kd Qh"),
]

INVALID = [
    ("1c 3d 5h", "unknown rank '1' in '1c'"),
    ("Kx 3d", "unknown suit 'x' in 'Kx'"),
    ("A 3d", "'A' has no suit"),
    ("Kc10", "'10' has no suit"),
    ("As Kd Q", "'Q' has no suit"),
    ("11c", "unknown rank '1' in '11c'"),
    ("Kx3d", "unknown suit 'x' in 'Kx3d'"),
    ("Zs", "unknown rank 'Z' in 'Zs'"),
    ("A♤", "unknown suit '♤' in 'A♤'"),
]


@pytest.mark.parametrize(("text", "canonical"), VALID)
def test_valid_notation(text: str | list[str], canonical: str) -> None:
    assert cards_text(parse_cards(text)) == canonical


@pytest.mark.parametrize(("text", "message"), INVALID)
def test_invalid_notation_names_place_and_text(text: str, message: str) -> None:
    with pytest.raises(ScoreError) as caught:
        parse_cards(text, "Ann, front")
    assert caught.value.message == f"Ann, front: {message}"


def test_not_a_string() -> None:
    with pytest.raises(ScoreError, match="expected a card string"):
        parse_cards(42, "Ann, back")  # type: ignore[arg-type]


def test_every_card_round_trips() -> None:
    assert len(set(DECK)) == 52
    for card in DECK:
        assert parse_card(card_text(card)) == card
        assert parse_card(card_text(card).lower()) == card


def test_cards_sort_by_rank_then_suit() -> None:
    assert cards_text(sorted(parse_cards("As 2d Kc 2c"))) == "2c 2d Kc As"
