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


def _one_by_one(texts: list[str]) -> list[int] | None:
    """Each hand as ``evaluate`` has it, read by the parser; None when one of them is not
    a hand of as many different cards as the first hand's length says."""
    size = 5 if len(texts[0]) > 9 else 3
    found = []
    for text in texts:
        try:
            cards = parse_cards(text)
        except ScoreError:
            return None
        if len(cards) != size or len(set(cards)) != size:
            return None
        found.append(evaluate(cards))
    return found


def _read_as_the_parser_reads_them(texts: list[str]) -> None:
    expected = _one_by_one(texts)
    if expected is None:
        with pytest.raises(ScoreError):
            evaluate_texts(texts)
    else:
        assert evaluate_texts(texts).tolist() == expected


edits = st.tuples(
    st.sampled_from(["delete", "insert", "replace"]),
    st.integers(min_value=0, max_value=20),
    st.sampled_from(list("AhKd2T \n,x")),
)


@settings(max_examples=300, deadline=None)
@given(hands=hands_of, changes=st.lists(st.tuples(st.integers(1, 59), edits), max_size=3))
def test_a_block_that_is_not_plain_is_read_hand_by_hand(
    hands: list[tuple[int, ...]], changes: list[tuple[int, tuple[str, int, str]]]
) -> None:
    """Hands changed by a letter here and there (the block's length may still add up, with
    a card or a separator out of place) get exactly what the parser reads in each, or a
    ScoreError when one is not a hand."""
    texts = [cards_text(hand) for hand in hands]
    for k, (how, at, letter) in changes:
        if k < len(texts):
            text, at = texts[k], min(at, len(texts[k]))
            keep = at + (how != "insert")
            texts[k] = text[:at] + ("" if how == "delete" else letter) + text[keep:]
    _read_as_the_parser_reads_them(texts)


@pytest.mark.parametrize(
    "texts",
    [
        ["Ah Kd 5c 4s 2hX", "Ah Kd 5c 4s 2"],  # the lengths add up, a newline out of place
        ["Ah Kd 5c 4s 2h", "Ah Kd 5c 4s2h ", "7c 8c 9c Tc Jc"],
        ["Ah Kd 5c 4s 2h", "Ah Kd 5c 4s 2h"[::-1]],
    ],
)
def test_hands_out_of_step_are_refused_or_read_as_the_parser_reads_them(
    texts: list[str],
) -> None:
    _read_as_the_parser_reads_them(texts)
