"""Hand ranking: every five-card hand and every three-card front, counted and pinned."""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections import Counter
from itertools import combinations

import pytest

from games.engine.cards import DECK, parse_cards
from games.engine.ranking import (
    category_name,
    describe,
    evaluate,
    evaluate3,
    five_card_evaluator,
    front_beats,
)

FIVE_CARD_COUNTS = {
    "straight_flush": 36,
    "royal_flush": 4,
    "quads": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "trips": 54_912,
    "two_pair": 123_552,
    "pair": 1_098_240,
    "high_card": 1_302_540,
}
THREE_CARD_COUNTS = {"trips": 52, "pair": 3_744, "high_card": 18_304}

# sha256 of each hand's place in the order (0 = weakest class), hands taken in
# itertools.combinations order over the deck 2c 2d 2h 2s 3c ... As, two bytes each.
# A change to any ranking rule changes these.
ORDER_HASHES = {
    "low": "915368d8101d00b07f992aa5df74de3677e75b25e89d7e8d087e24e1fad77ef2",
    "second": "1294626c0f88616e40f79dabd2f0aabf7f9026ad8fba79216bfe380e7f76873a",
    "three": "7bd663b8fc350cb32b6bfd7bbc7528e7982467c15e8d45eb0d2cea5677e0208b",
}


def _order_hash(values: list[int]) -> str:
    place = {v: i for i, v in enumerate(sorted(set(values)))}
    ranks = array("H", [place[v] for v in values])
    if sys.byteorder == "big":
        ranks.byteswap()
    return hashlib.sha256(ranks.tobytes()).hexdigest()


@pytest.fixture(scope="module")
def five_card_values() -> list[int]:
    evaluate5 = five_card_evaluator("low")
    return [evaluate5(hand) for hand in combinations(DECK, 5)]


def test_five_card_category_counts(five_card_values: list[int]) -> None:
    assert len(five_card_values) == 2_598_960
    assert Counter(map(category_name, five_card_values)) == FIVE_CARD_COUNTS
    assert len(set(five_card_values)) == 7_462  # distinct hand classes


def test_five_card_order_is_pinned(five_card_values: list[int]) -> None:
    assert _order_hash(five_card_values) == ORDER_HASHES["low"]


def test_five_card_order_agrees_with_treys(five_card_values: list[int]) -> None:
    """An independent evaluator gives every hand the same place (treys: 1 = best)."""
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    to_treys = {card: treys.Card.new(text) for card, text in zip(DECK, _deck_texts(), strict=True)}
    place = {v: i for i, v in enumerate(sorted(set(five_card_values)))}
    evaluate = evaluator._five  # the five-card path, without the board/hand split
    for hand, value in zip(combinations(DECK, 5), five_card_values, strict=True):
        assert evaluate([to_treys[c] for c in hand]) == 7_462 - place[value]


def _deck_texts() -> list[str]:
    from games.engine.cards import card_text

    return [card_text(c) for c in DECK]


def test_wheel_second_order_is_pinned() -> None:
    evaluate5 = five_card_evaluator("second")
    values = [evaluate5(hand) for hand in combinations(DECK, 5)]
    assert Counter(map(category_name, values)) == FIVE_CARD_COUNTS
    assert _order_hash(values) == ORDER_HASHES["second"]


def test_three_card_counts_and_order() -> None:
    values = [evaluate3(hand) for hand in combinations(DECK, 3)]
    assert len(values) == 22_100
    assert Counter(map(category_name, values)) == THREE_CARD_COUNTS
    assert _order_hash(values) == ORDER_HASHES["three"]


def _v(text: str, wheel: str = "low") -> int:
    return evaluate(parse_cards(text), wheel)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("Kc Kd 9h 5s 3c", "Kh Ks 9c 5d 2s"),  # pair: the last kicker decides
        ("Ac Ad 3h 3s 4c", "Kc Kd Qh Qs Ah"),  # two pair: top pair first
        ("Jc Jd 7s 7h 8s", "Jh Js 7c 7d 6s"),  # two pair: then the kicker
        ("2c 2d 2h Ac Kd", "As Ad Kh Ks Qc"),  # trips beat two pair
        ("3c 3d 3h 2c 2d", "2h 2s 2c Ah Ad"),  # full houses: by the trips
        ("6c 7d 8h 9s Tc", "Ac 2d 3h 4s 5c"),  # a wheel is the lowest straight by default
        ("2c 4c 6c 8c Tc", "Tc Jd Qh Ks Ac"),  # flush beats straight
        ("Ac 2c 3c 4c 5c", "Kd Kh Ks Kc Ad"),  # straight flush beats quads
    ],
)
def test_stronger_hands(stronger: str, weaker: str) -> None:
    assert _v(stronger) > _v(weaker)


def test_suits_never_break_ties() -> None:
    assert _v("Ac Kd Qh Js 9c") == _v("Ad Kc Qs Jh 9d")
    assert _v("Ac Kd Qh") == _v("Ad Kc Qc")


def test_wheel_second_ranks_just_below_broadway() -> None:
    wheel, six_high, nine_high, broadway = (
        "Ac 2d 3h 4s 5c",
        "2c 3d 4h 5s 6c",
        "5d 6d 7h 8s 9c",
        "Tc Jd Qh Ks Ad",
    )
    assert _v(six_high, "second") < _v(nine_high, "second") < _v(wheel, "second")
    assert _v(wheel, "second") < _v(broadway, "second")
    steel_wheel, king_flush = "Ah 2h 3h 4h 5h", "9s Ts Js Qs Ks"
    assert _v(steel_wheel, "second") > _v(king_flush, "second")
    assert _v(steel_wheel, "low") < _v(king_flush, "low")
    assert category_name(_v("As Ks Qs Js Ts", "second")) == "royal_flush"


def test_three_cards_in_sequence_or_suit_are_high_card() -> None:
    assert category_name(_v("Qh Kh Ah")) == "high_card"
    assert _v("Qh Kh Ah") < _v("2c 2d 3h")


@pytest.mark.parametrize(
    ("front", "middle", "fouls"),
    [
        ("Kc Kd 9h", "Kh Ks 9c 5d 3s", False),  # equal over the front's cards: legal
        ("Kc Kd Qh", "Kh Ks 9c 5d 3s", True),  # kicker beats
        ("Ac Kd Qh", "As Kc Qs 3d 2c", False),
        ("Ac Kd Qh", "As Kc Js Td 9c", True),
        ("9c 9d 9h", "2c 3d 4h 5s 7c", True),
        ("9c 9d 9h", "2c 2d 2h 5s 7c", True),
        ("4c 4d 4h", "9c 9d 9s 5s 7c", False),
        ("Ac Ad 2h", "2c 3d 4h 5s 6c", False),  # a straight beats any front
    ],
)
def test_front_against_middle(front: str, middle: str, fouls: bool) -> None:
    assert front_beats(_v(front), _v(middle)) is fouls


@pytest.mark.parametrize(
    ("cards", "label"),
    [
        ("7c 7d 7h 9c 9d", "Full house, Sevens over Nines"),
        ("Kc Kd 4h 4s 9c", "Two pair, Kings and Fours, 9 kicker"),
        ("Kc Kd 9h", "Pair of Kings, 9 kicker"),
        ("Kh Ks 9c 5d 3s", "Pair of Kings, 9 5 3 kickers"),
        ("Ac Kd 4s 5s 9h", "Ace high, K 9 5 4 kickers"),
        ("Ac 2d 3h 4s 5s", "Straight, Five high (wheel)"),
        ("As Ks Qs Js Ts", "Royal flush"),
        ("9s Ts Js Qs Ks", "Straight flush, King high"),
        ("8c 8d 8h 8s 4d", "Four of a kind, Eights"),
        ("2s 6s 8s Ts Ks", "Flush, K-T-8-6-2"),
        ("Qc Qd Qh", "Three of a kind, Queens"),
    ],
)
def test_labels(cards: str, label: str) -> None:
    hand = parse_cards(cards)
    assert describe(evaluate(hand), len(hand)) == label
