"""Declarations at the table (RULES 12) and naturals ranked by kind (RULES 6), with
vectors worked by hand: each comment shows the working.

Hands used throughout (no card twice), front / middle / back:
  Ann  Ac Kc 3d ace high / 4c 4d 9h Jd Qs pair of 4s / 7c 7d 7h 2s 5d trip 7s
  Bob  2c 2d 8s pair of 2s / 5c 5h Tc Ts Kd tens and 5s / 3c 4h 5s 6d 7s 7-high straight
  Cy   Qc Jc 9d queen high / 8c 8d 8h As 2h trip 8s / 6c 6h 6s Th Td 6s full of tens
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import ScoreError, score_request
from games.engine.arrangement import review_request
from games.engine.cards import SUIT_OF, parse_cards
from games.engine.ranking import STRAIGHT, STRAIGHT_FLUSH, category_of, five_card_evaluator

ANN = {"front": "Ac Kc 3d", "middle": "4c 4d 9h Jd Qs", "back": "7c 7d 7h 2s 5d"}
BOB = {"front": "2c 2d 8s", "middle": "5c 5h Tc Ts Kd", "back": "3c 4h 5s 6d 7s"}
CY = {"front": "Qc Jc 9d", "middle": "8c 8d 8h As 2h", "back": "6c 6h 6s Th Td"}
NOT_SHOWN = {"fouled": True}


def units(rules: Any, **players: dict[str, Any]) -> dict[str, str]:
    result = score_request(
        {"rules": rules, "players": [{"name": n, **hand} for n, hand in players.items()]}
    )
    return {p["name"]: p["units"] for p in result["players"]}


def refused(rules: Any, **players: dict[str, Any]) -> str:
    with pytest.raises(ScoreError) as caught:
        units(rules, **players)
    return caught.value.message


# --- a hand not shown ----------------------------------------------------------------------


def test_a_hand_not_shown_pays_as_a_foul() -> None:
    # standard: 1-6, sweep. Ann's hand is not shown: she pays Bob and Cy each a sweep, 3
    # rows x 2 = 6. Bob v Cy: front pair of 2s beats queen high (Bob), trips beat two pair
    # (Cy), full house beats straight (Cy): Cy 2-1, +1.
    # Ann -6 -6 = -12; Bob +6 -1 = +5; Cy +6 +1 = +7.
    assert units("standard", Ann=NOT_SHOWN, Bob=BOB, Cy=CY) == {
        "Ann": "-12",
        "Bob": "5",
        "Cy": "7",
    }


def test_a_hand_not_shown_has_no_rows_and_says_why() -> None:
    result = score_request(
        {"rules": "standard", "players": [{"name": "Ann", **NOT_SHOWN}, {"name": "Bob", **BOB}]}
    )
    ann = result["players"][0]
    assert (ann["fouled"], ann["rows"]) == (True, None)
    assert ann["foul_reason"] == "the hand was declared fouled without being shown"
    assert result["pairs"][0]["kind"] == "foul"


def test_a_natural_and_a_surrender_meet_a_hand_not_shown() -> None:
    # classic-1-6: surrender 2.5, six pairs 3. Bob surrenders, and a surrender pays fouled
    # players too: Bob pays Ann 2.5. Cy's six pairs (given as 13 cards) collect 3 from
    # each, surrendered and fouled alike. Ann +2.5 -3 = -0.5; Bob -2.5 -3 = -5.5; Cy +6.
    six_pairs = {"natural": "six_pairs", "cards": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c"}
    assert units("classic-1-6", Ann=NOT_SHOWN, Bob={"surrender": True}, Cy=six_pairs) == {
        "Ann": "-0.5",
        "Bob": "-5.5",
        "Cy": "6",
    }


def test_two_hands_not_shown_pay_each_other_nothing() -> None:
    assert units("standard", Ann=NOT_SHOWN, Bob=NOT_SHOWN, Cy=CY) == {
        "Ann": "-6",
        "Bob": "-6",
        "Cy": "12",
    }


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        (
            {**NOT_SHOWN, "front": "Ac Kc 3d"},
            "a hand declared fouled is not shown, so it has no front",
        ),
        ({**NOT_SHOWN, "surrender": True}, "a hand declared fouled cannot also declare surrender"),
        ({"fouled": "yes"}, "Ann: fouled must be true or false"),
    ],
)
def test_a_hand_not_shown_is_refused_with_anything_else(hand: dict[str, Any], words: str) -> None:
    assert words in refused("classic-1-6", Ann=hand, Bob=BOB)


def test_the_review_says_a_hand_not_shown_has_nothing_to_review() -> None:
    found = review_request(
        {"rules": "standard", "players": [{"name": "Ann", **NOT_SHOWN}, {"name": "Bob", **BOB}]}
    )
    assert found["players"][0] == {
        "name": "Ann",
        "reviewed": False,
        "reason": "hand not shown",
        "reason_code": {"code": "hand_not_shown", "args": {}},
    }
    assert found["players"][1]["reviewed"] is True


# --- fouled_hand: "played" -----------------------------------------------------------------

# Ann's front pair of aces beats her middle pair of 4s: a foul, shown.
ANN_FOULS = {**ANN, "front": "Ac Ad 3d"}


@pytest.mark.parametrize(
    ("rules", "ann", "bob"),
    [
        # forfeit (the default): the sweep only, 3 rows x 2 = 6.
        ("standard", "-6", "6"),
        # played: the sweep, then the rows as set: Ann's aces win the front, Bob's two pair
        # the middle and his straight the back: Bob 2-1, +1 more. Bob 7.
        ({"preset": "standard", "fouled_hand": "played"}, "-7", "7"),
        # classic-2-4, played: the penalty 3 (Bob has no royalty), then 1 a row (2 - 1)
        # and the majority bonus 1: Bob 3 + 1 + 1 = 5.
        ({"preset": "classic-2-4", "fouled_hand": "played"}, "-5", "5"),
    ],
)
def test_a_fouled_hand_may_still_be_played(rules: Any, ann: str, bob: str) -> None:
    assert units(rules, Ann=ANN_FOULS, Bob=BOB) == {"Ann": ann, "Bob": bob}


def test_a_played_foul_shows_its_rows_in_the_pair() -> None:
    result = score_request(
        {
            "rules": {"preset": "standard", "fouled_hand": "played"},
            "players": [{"name": "Ann", **ANN_FOULS}, {"name": "Bob", **BOB}],
        }
    )
    pair = result["pairs"][0]
    assert (pair["kind"], pair["rows"]) == ("foul", {"front": 1, "middle": -1, "back": -1})


def test_a_hand_not_shown_is_forfeited_even_when_fouls_are_played() -> None:
    assert units({"preset": "standard", "fouled_hand": "played"}, Ann=NOT_SHOWN, Bob=BOB) == {
        "Ann": "-6",
        "Bob": "6",
    }


# --- royalties_declared --------------------------------------------------------------------

# Ann's back is quad 7s (baseline back quads: 4); Bob's back a queen-high straight.
ANN_QUADS = {**ANN, "back": "7c 7d 7h 7s 5d"}
BOB_QUEENS = {**BOB, "back": "8c 9c Th Js Qc"}
DECLARED = {"preset": "classic-1-6", "royalties_declared": True}


@pytest.mark.parametrize(
    ("declared", "ann"),
    [
        # Bob wins front and middle, Ann the back: Bob 2-1, +1. Declared, Ann's quads
        # collect 4 (royalty_mode always): Ann -1 + 4 = 3.
        (["back"], "3"),
        # Not declared: the quads count for nothing. Ann -1.
        (None, "-1"),
    ],
)
def test_a_royalty_counts_only_when_declared(declared: list[str] | None, ann: str) -> None:
    hand = ANN_QUADS if declared is None else {**ANN_QUADS, "royalties": declared}
    found = units(DECLARED, Ann=hand, Bob=BOB_QUEENS)
    assert found["Ann"] == ann


@pytest.mark.parametrize(
    ("rules", "declared", "words"),
    [
        (
            DECLARED,
            ["front"],
            "Ann declared a royalty on the front row, which holds none (Ac Kc 3d)",
        ),
        (DECLARED, ["back", "back"], "a row is declared twice"),
        (DECLARED, ["top"], "royalties must be a list of rows"),
        ("classic-1-6", ["back"], "royalties are declared only under royalties_declared: true"),
    ],
)
def test_wrong_declarations_are_refused(rules: Any, declared: list[str], words: str) -> None:
    assert words in refused(rules, Ann={**ANN_QUADS, "royalties": declared}, Bob=BOB_QUEENS)


# --- naturals ranked by kind, and naturals from 13 cards -----------------------------------

SIX_PAIRS = {"natural": "six_pairs", "cards": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c"}
THREE_FLUSHES = {
    "natural": "three_flushes",
    "front": "9h Jh Kh",
    "middle": "2h 3h 5h 8h Th",
    "back": "2s 4s 9s Js Ks",
}


@pytest.mark.parametrize(
    ("rules", "ann", "bob"),
    [
        # Mau Binh: six pairs stand above three flushes in the table: paid its 6 chi.
        ("mau-binh-south", "6", "-6"),
        # By value (the default): 6 against 6 pays nothing.
        ({"preset": "mau-binh-south", "natural_ranking": "value"}, "0", "0"),
    ],
)
def test_two_naturals_of_equal_value_are_ranked_by_kind(rules: Any, ann: str, bob: str) -> None:
    assert units(rules, Ann=SIX_PAIRS, Bob=THREE_FLUSHES) == {"Ann": ann, "Bob": bob}


def test_the_same_kind_pays_nothing_in_order() -> None:
    # Both six pairs (Bob: 9s to Ks and Ah): equal kind, nothing passes.
    bob = {"natural": "six_pairs", "cards": "9c 9d Tc Td Jc Jd Qc Qd Kc Kd 8d 8h Ah"}
    assert units("mau-binh-north", Ann=SIX_PAIRS, Bob=bob) == {"Ann": "0", "Bob": "0"}


def test_thirteen_of_one_colour_beats_twelve() -> None:
    # same_color_13 (all red) above same_color_12 (12 black, one red): 6 chi to Ann.
    red = {"natural": "same_color_13", "cards": "2d 3d 4d 5d 6d 7d 8d 2h 3h 4h 5h 6h 7h"}
    black = {"natural": "same_color_12", "cards": "2c 3c 4c 5c 6c 7c 8c 2s 3s 4s 5s 6s 9h"}
    assert units("mau-binh-south", Ann=red, Bob=black) == {"Ann": "6", "Bob": "-6"}


@pytest.mark.parametrize(
    ("natural", "cards"),
    [
        ("three_flushes", "Ks 2h 9h 4s 3h Jh 9s 5h Kh 8h Js Th 2s"),
        # A-2-3 in front (a three-card run counts), 4 to 8 and 9 to K.
        ("three_straights", "Kd 9d Ac 5d 3h 7s Th 2d 4c Js 6h Qc 8c"),
    ],
)
def test_a_natural_from_13_cards_gets_rows_that_make_it(natural: str, cards: str) -> None:
    result = score_request(
        {
            "rules": "classic-1-6",
            "players": [
                {"name": "Ann", "natural": natural, "cards": cards},
                {"name": "Bob", **NOT_SHOWN},  # a natural collects from a fouled hand: 3
            ],
        }
    )
    ann = result["players"][0]
    assert ann["natural"] == natural and ann["units"] == "3"
    rows = [parse_cards(ann["rows"][row]["cards"]) for row in ("front", "middle", "back")]
    assert sorted(c for row in rows for c in row) == sorted(parse_cards(cards))
    if natural == "three_flushes":
        assert all(len({SUIT_OF[c] for c in row}) == 1 for row in rows)
    else:
        evaluate = five_card_evaluator("low")
        assert all(category_of(evaluate(row)) in (STRAIGHT, STRAIGHT_FLUSH) for row in rows[1:])


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        (
            {"natural": "three_flushes", "cards": "2c 3c 4c 5c 6c 7c 8c 9c Tc Jd Qd Kd Ah"},
            "Ann declared three_flushes, but no setting of the 13 cards makes it",
        ),
        ({"cards": "2c 3c 4c 5c 6c 7c 8c 9c Tc Jd Qd Kd Ah"}, "only for declaring a natural"),
        ({**SIX_PAIRS, "front": "Ac Kc 3d"}, "give the 13 cards or the rows, not both"),
        ({"natural": "six_pairs", "cards": "2c 2d"}, "2 cards given (2c 2d), a natural needs 13"),
    ],
)
def test_a_natural_from_cards_is_refused_when_it_cannot_be(
    hand: dict[str, Any], words: str
) -> None:
    assert words in refused("classic-1-6", Ann=hand, Bob=BOB)
