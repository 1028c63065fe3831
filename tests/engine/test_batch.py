"""``evaluate_texts``: many hands from their text at once, each as ``evaluate`` has it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import ScoreError
from games.engine.batch import evaluate_texts
from games.engine.cards import DECK, card_text, cards_text, parse_cards
from games.engine.ranking import evaluate

hands_of = st.integers(min_value=1, max_value=60).flatmap(
    lambda n: st.lists(st.permutations(DECK).map(lambda deck: deck[:5]), min_size=n, max_size=n)
)


@settings(max_examples=60, deadline=None)
@given(hands=hands_of, wheel=st.sampled_from(["low", "second", "none"]))
def test_every_hand_as_evaluate_has_it(hands: list[tuple[int, ...]], wheel: str) -> None:
    texts = [cards_text(hand) for hand in hands]
    assert list(evaluate_texts(texts, wheel)) == [evaluate(h, wheel) for h in hands]  # type: ignore[arg-type]
    fronts = [cards_text(hand[:3]) for hand in hands]
    assert list(evaluate_texts(fronts)) == [evaluate(h[:3]) for h in hands]


def test_every_category_and_a_hundred_thousand_hands() -> None:
    rng = random.Random(18)
    hands = [tuple(rng.sample(DECK, 5)) for _ in range(100_000)]
    hands += [parse_cards(t) for t in ("Ah Kh Qh Jh Th", "5d 4d 3d 2d Ad", "As Ad Ac Ah 2c")]
    texts = [cards_text(hand) for hand in hands]
    assert evaluate_texts(texts).tolist() == [evaluate(hand) for hand in hands]


def test_other_notations_are_read_as_the_parser_reads_them() -> None:
    texts = ["ah kd 5c 4s 2h", "A♥ K♦ 5♣ 4♠ 2♥", "10h Jh Qh Kh Ah", "Ah,Kd,5c,4s,2h"]
    assert evaluate_texts(texts).tolist() == [evaluate(parse_cards(t)) for t in texts]


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        (["Ah Kd 5c 4s 2h", "Ah Kd 5c 4s 1h"], "hands[1]: unknown rank"),
        (
            ["Ah Kd 5c 4s 2h", "Ah Kd Ah 4s 2h"],
            "hands[1]: a card is given twice in 'Ah Kd Ah 4s 2h'",
        ),
        (["Ah Kd 5c 4s 2h", "Ah Kd 5c 4s"], "hands[1]: 5 cards are needed, got 4"),
    ],
)
def test_a_bad_hand_is_named(texts: list[str], message: str) -> None:
    with pytest.raises(ScoreError) as raised:
        evaluate_texts(texts)
    assert str(raised.value).startswith(message), str(raised.value)
    assert raised.value.field == "hands[1]"


def test_no_hands() -> None:
    assert evaluate_texts([]).tolist() == []
    assert card_text(DECK[0]) == "2c"
