"""Fantasy-land hands of 14 to 17 cards: the 13 to keep, their setting, the discards."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from games.engine import ScoreError
from games.engine.arrangement import arrange_request, review_request
from games.engine.arrangement.fantasyland import arrange_fantasyland
from games.engine.arrangement.splits import Hand13
from games.engine.cards import DECK, parse_cards
from games.engine.rules import Rules


def test_a_pineapple_fantasy_land_keeps_the_13_worth_most() -> None:
    # 14 cards: A A A K K, the 2-6 of clubs, 7h 8h 9s Jd. Worked by hand (open-face table):
    # back 2c-6c straight flush 15; middle aces full of kings 12; front J 9 8 nothing:
    # 27, discarding 7h. Trip aces in front (22) would need a middle of trips or better
    # from K K 7 8 9 J: only a pair, a foul. Kings in front (8) leave a middle of trip
    # aces (2): 15 + 2 + 8 = 25 < 27.
    found = arrange_request(
        {"cards": "Ac Ad Ah Ks Kd 2c 3c 4c 5c 6c 7h 8h 9s Jd", "rules": "pineapple"}
    )
    assert found == {
        "mode": "fantasyland",
        "front": "Jd 9s 8h",
        "middle": "Ah Ad Ac Ks Kd",
        "back": "6c 5c 4c 3c 2c",
        "discards": "7h",
        "royalties": "27",
    }


def test_a_progressive_17_card_hand_discards_four() -> None:
    # Add Qs Ts 2h (progressive: trips earned 17). Trip aces in front 22, K-high straight
    # Kd Qs Jd Ts 9s in the middle 4, the straight flush behind 15: 41, discarding four.
    found = arrange_request(
        {
            "cards": "Ac Ad Ah Ks Kd 2c 3c 4c 5c 6c 7h 8h 9s Jd Qs Ts 2h",
            "rules": {"preset": "pineapple", "progressive": True},
        }
    )
    assert (found["front"], found["royalties"]) == ("Ah Ad Ac", "41")
    assert len(parse_cards(found["discards"])) == 4


@pytest.mark.parametrize("seed", range(3))
def test_the_pruned_search_equals_trying_every_13(seed: int) -> None:
    rules = Rules.from_mapping({"preset": "ofc", "progressive": True})
    cards = random.Random(seed).sample(DECK, 15)
    found = arrange_fantasyland(cards, rules)
    best = None
    for dropped in combinations(cards, 2):
        hand = Hand13([c for c in cards if c not in dropped], rules)
        total = hand.rows.r[0] + hand.rows.r[1] + hand.rows.r[2]
        best = max(best or 0.0, float(np.max(total)))
    assert float(found.royalties) == best
    assert sorted(found.discards + tuple(c for row in found.setting.rows for c in row)) == sorted(
        cards
    )


@pytest.mark.parametrize(
    ("cards", "rules", "words"),
    [
        ("Ac Ad Ah Ks Kd 2c 3c 4c 5c 6c 7h 8h 9s Jd Qs", "pineapple", "deals 14 cards"),
        ("Ac Ad Ah Ks Kd 2c 3c 4c 5c 6c 7h 8h 9s Jd", "ofc", "deals 13 cards"),
        ("Ac Ad Ah Ks Kd 2c 3c 4c 5c 6c 7h 8h 9s Jd", "standard", "13 different cards"),
    ],
)
def test_a_hand_of_more_than_13_must_be_one_the_rules_deal(
    cards: str, rules: str, words: str
) -> None:
    with pytest.raises(ScoreError) as refused:
        arrange_request({"cards": cards, "rules": rules})
    assert words in refused.value.message


BOB = {"name": "Bob", "front": "Qc Jc 9d", "middle": "8c 8d Th As 2h", "back": "Tc Td Ts 6h 6s"}


def test_the_review_finds_the_fantasy_land_setting_that_wins_most() -> None:
    # Pineapple, Ann in fantasy land with the 14 cards above, set for the most royalties:
    # J 9 8 / aces full of kings (12) / 2c-6c straight flush (15), discarding 7h. Bob:
    # Q J 9 / pair of 8s / tens full of sixes (back full house 6). Bob's queen high takes
    # the front, Ann the middle and back: 2-1, +1, royalties 27 - 6: Ann 22.
    # Kings in front (8) with trip aces in the middle (2) scoop Bob instead: 3 x 2 = 6,
    # royalties 8 + 2 + 15 - 6 = 19: Ann 25, so the review says 3 missed.
    ann = {
        "name": "Ann",
        "front": "Jd 9s 8h",
        "middle": "Ah Ad Ac Ks Kd",
        "back": "6c 5c 4c 3c 2c",
        "discards": "7h",
        "in_fantasyland": True,
    }
    found = review_request({"rules": "pineapple", "players": [ann, BOB]})
    line, bob = found["players"]
    assert (line["actual_units"], line["best_units"], line["units_missed"]) == ("22", "25", "3")
    assert line["best"]["front"].startswith("Ks Kd")
    assert len(parse_cards(line["discards"])) == 1
    assert bob == {
        "name": "Bob",
        "reviewed": False,
        "reason": "set card by card",
        "reason_code": {"code": "set_card_by_card", "args": {}},
    }


def test_open_face_without_a_fantasy_land_discard_is_not_reviewed() -> None:
    ann = {"name": "Ann", "front": "Jd 9s 8h", "middle": "Ah Ad Ac Ks Kd", "back": "6c 5c 4c 3c 2c"}
    found = review_request({"rules": "pineapple", "players": [ann, BOB]})
    assert found == {
        "reviewed": False,
        "reason": "open-face deals are not reviewed",
        "reason_code": {"code": "not_reviewed_game", "args": {"game": "open-face"}},
        "players": [],
    }
