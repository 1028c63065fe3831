"""Arrangement analysis: enumeration, heuristic, Monte Carlo auto-arrange, review."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import numpy as np
import pytest

from games.engine.arrangement import (
    SPLITS,
    Hand13,
    Setting,
    arrange_expected,
    arrange_heuristic,
    review,
    review_request,
    settings,
)
from games.engine.arrangement.expected import sample_hands
from games.engine.arrangement.versus import table_units
from games.engine.cards import DECK, RANK_CHARS, RANK_OF, Card, parse_cards
from games.engine.errors import ScoreError
from games.engine.ranking import CATEGORY_SHIFT, FULL_HOUSE, PAIR, QUADS
from games.engine.rules import Rules
from games.engine.scoring import Hand, score_hands
from games.engine.seats import seat_for, table_for

NAMES = ("Ann", "Bob", "Cy", "Di")
RULE_SPECS: tuple[Any, ...] = (
    "standard",
    "classic-1-6",
    "classic-2-4",
    "ofc",
    "mau-binh-south",
    "mau-binh-north",
    {"preset": "standard", "middle": "lowball-2-7"},
    {"preset": "classic-2-4", "middle": "lowball-2-7", "bonus": "none"},
    {"preset": "mau-binh-south", "foul_counts_as_scoop": True, "foul_penalty": "2"},
    {"preset": "classic-1-6", "scoop_all_multiplier": "3", "foul_pays_royalties": False},
    # royalty_best_only compares the whole table.
    {"preset": "ofc", "royalty_best_only": True},
    {"preset": "classic-1-6", "royalty_best_only": True},
    {"preset": "mau-binh-north", "royalty_best_only": True},
    # A fouled hand still played row by row after its penalty.
    {"preset": "standard", "fouled_hand": "played"},
    {"preset": "classic-2-4", "fouled_hand": "played"},
    # Chi Á (RULES 13): the same for every setting, counted against every player of rows.
    {"preset": "mau-binh-south", "ace_bonus": "1"},
    {"preset": "classic-1-6", "ace_bonus": "2", "fouled_hand": "played"},
    "mau-binh-saigon",
)
# Quads, a full house and a pair: nothing else is sensible.
OBVIOUS = "As Ad Ah Ac 2c Ks Kd Kh 7c 7d Qs Qd 3h"


def _rules(spec: Any) -> Rules:
    return Rules.from_mapping(spec)


def _ranks(cards: tuple[Card, ...]) -> str:
    return "".join(sorted((RANK_CHARS[RANK_OF[c]] for c in cards), key=RANK_CHARS.index))[::-1]


def _is_legal(setting: Setting, rules: Rules) -> bool:
    result = score_hands([Hand("Ann", setting.rows)], rules)
    return result.players[0].status == "live"


def _random_deal(rng: random.Random, rules: Rules, players: int = 4) -> list[Hand]:
    """Four hands: some set by the heuristic, some split at random (often fouled), and a
    surrender now and then where the rules allow it."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = []
    for k in range(players):
        cards = deck[13 * k : 13 * (k + 1)]
        if k % 2:
            setting = arrange_heuristic(cards, rules)
            rows = setting.rows
        else:
            rows = (tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
        surrender = rules.surrender_cost is not None and rng.random() < 0.15 and k > 0
        hands.append(Hand(NAMES[k], rows, surrender=surrender))
    return hands


# --- enumeration ------------------------------------------------------------------------


@pytest.mark.parametrize("text", [OBVIOUS, "2c 3d 4h 5s 7c 8d 9h Ts Qc Kd Ah Jh 6c"])
def test_every_split_is_enumerated_once(text: str) -> None:
    cards = parse_cards(text)
    everything = settings(cards, _rules("standard"), legal_only=False)
    assert len(everything) == SPLITS == 72_072
    assert len({(frozenset(s.front), frozenset(s.middle)) for s in everything}) == SPLITS
    for s in everything[::997]:
        assert (len(s.front), len(s.middle), len(s.back)) == (3, 5, 5)
        assert sorted(s.front + s.middle + s.back) == sorted(cards)


@pytest.mark.parametrize("spec", [RULE_SPECS[0], RULE_SPECS[4], RULE_SPECS[6]])
def test_legal_settings_are_exactly_the_engines_non_fouls(spec: Any) -> None:
    rules = _rules(spec)
    cards = parse_cards("Ah Kh Qh Jh 9s 9d 5c 5d 2c 2d 2h 7s 8c")
    table = table_for(rules)
    everything = settings(cards, rules, legal_only=False)
    engine_legal = {s for s in everything if seat_for(table, Hand("Ann", s.rows)).status == "live"}
    assert set(settings(cards, rules)) == engine_legal
    assert 0 < len(engine_legal) < SPLITS


# --- heuristic and expected --------------------------------------------------------------


def test_heuristic_takes_the_strongest_back_then_middle() -> None:
    setting = arrange_heuristic(parse_cards(OBVIOUS), _rules("standard"))
    # The strongest back is four aces with the king as kicker; the strongest middle of
    # what is left is kings and queens.
    assert _ranks(setting.back) == "AAAAK"
    assert _ranks(setting.middle) == "KKQQ7"
    assert _ranks(setting.front) == "732"


@pytest.mark.parametrize("spec", RULE_SPECS)
def test_heuristic_is_always_legal(spec: Any) -> None:
    rules = _rules(spec)
    rng = random.Random(6)
    for _ in range(25):
        cards = rng.sample(DECK, 13)
        assert _is_legal(arrange_heuristic(cards, rules), rules)


def test_expected_finds_the_obvious_setting_the_heuristic_misses() -> None:
    rules = _rules("standard")
    cards = parse_cards(OBVIOUS)
    found = arrange_expected(cards, rules, samples=400)
    best = found.best.setting
    evaluate = table_for(rules)
    assert evaluate.evaluate5(best.back) >> CATEGORY_SHIFT == QUADS
    assert _ranks(best.middle) == "KKK77"
    assert evaluate.evaluate3(best.front) >> CATEGORY_SHIFT == PAIR
    assert evaluate.evaluate5(best.middle) >> CATEGORY_SHIFT == FULL_HOUSE
    heuristic = arrange_heuristic(cards, rules)
    assert heuristic != best
    # Scored against the same sampled opponents the heuristic's setting is worth less.
    assert (
        found.best.expected_units
        > max((c.expected_units for c in found.alternatives), default=-99) - 1e-9
    )


@pytest.mark.parametrize("spec", RULE_SPECS)
def test_expected_returns_legal_settings_best_first(spec: Any) -> None:
    rules = _rules(spec)
    cards = random.Random(str(spec)).sample(DECK, 13)
    found = arrange_expected(cards, rules, samples=150, top=3)
    choices = [found.best, *found.alternatives]
    assert len(found.alternatives) == 3
    assert all(_is_legal(c.setting, rules) for c in choices)
    units = [c.expected_units for c in choices]
    assert units == sorted(units, reverse=True)


def test_expected_is_reproducible_with_a_seed() -> None:
    rules = _rules("classic-1-6")
    cards = random.Random(1).sample(DECK, 13)
    first = arrange_expected(cards, rules, samples=300, seed=11)
    assert arrange_expected(cards, rules, samples=300, seed=11) == first
    other = arrange_expected(cards, rules, samples=300, seed=12)
    assert other.best.expected_units != first.best.expected_units


def test_a_natural_worth_more_than_playing_is_declared() -> None:
    rules = _rules("classic-1-6")
    cards = parse_cards("2c 2d 3c 3d 4c 4d 5c 5d 6h 6s 7h 7s 9c")
    found = arrange_expected(cards, rules, samples=200)
    assert found.natural == "six_pairs"
    assert found.natural_units == Decimal(3) > Decimal(str(found.best.expected_units))
    assert arrange_expected(cards, _rules("standard"), samples=50).natural is None


# --- the fast pairwise scoring equals the engine -------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "standard",
        "classic-2-4",
        "ofc",
        "mau-binh-south",
        {"preset": "ofc", "royalty_best_only": True},
        {"preset": "mau-binh-north", "royalty_best_only": True},
    ],
)
def test_expected_units_equal_two_player_score_hands(spec: Any) -> None:
    """The Monte Carlo figures are the mean of ``score_hands`` on a two-player table
    against each sampled opponent, set by ``arrange_heuristic``."""
    rules = _rules(spec)
    cards = random.Random(f"mc {spec}").sample(DECK, 13)
    found = arrange_expected(cards, rules, samples=40, seed=5, top=2)
    opponents = [
        Hand("Bob", arrange_heuristic([int(c) for c in row], rules).rows)
        for row in sample_hands(sorted(cards, reverse=True), 40, 5)
    ]
    for choice in (found.best, *found.alternatives):
        ann = Hand("Ann", choice.setting.rows)
        total = sum(score_hands([ann, bob], rules).players[0].units for bob in opponents)
        assert Decimal(str(choice.expected_units)) == Decimal(total) / 40


@pytest.mark.parametrize("spec", RULE_SPECS)
def test_array_scoring_equals_score_hands(spec: Any) -> None:
    rules = _rules(spec)
    table = table_for(rules)
    rng = random.Random(f"units {spec}")
    for _ in range(6):
        hands = _random_deal(rng, rules)
        cards: list[Card] = [c for row in hands[0].rows or () for c in row]
        h13 = Hand13(cards, rules)
        others = [seat_for(table, h) for h in hands[1:]]
        fast = table_units(table, h13.rows, others, h13.aces)
        for at in rng.sample(range(len(h13.legal)), 40):
            setting = h13.setting(int(h13.legal[at]))
            seated = [hands[0]._replace(rows=setting.rows), *hands[1:]]
            exact = score_hands(seated, rules).players[0].units
            assert Decimal(str(fast[at])) == exact, (setting.text(), [h.rows for h in hands])


def test_array_scoring_counts_a_scoop_of_the_whole_table() -> None:
    rules = _rules("mau-binh-south")
    table = table_for(rules)
    winner = parse_cards(OBVIOUS)
    rest = [c for c in DECK if c not in winner]
    rng = random.Random(3)
    for _ in range(20):
        rng.shuffle(rest)
        hands = [Hand("Ann", (winner[10:], winner[5:10], winner[:5]))]
        for k in range(3):
            cards = rest[13 * k : 13 * (k + 1)]
            hands.append(Hand(NAMES[k + 1], arrange_heuristic(cards, rules).rows))
        h13 = Hand13(winner, rules)
        fast = table_units(table, h13.rows, [seat_for(table, h) for h in hands[1:]], h13.aces)
        best = h13.setting(int(h13.legal[int(np.argmax(fast))]))
        seated = [hands[0]._replace(rows=best.rows), *hands[1:]]
        assert Decimal(str(fast.max())) == score_hands(seated, rules).players[0].units


# --- review -----------------------------------------------------------------------------


@pytest.mark.parametrize("spec", RULE_SPECS)
def test_review_never_reports_less_than_what_was_won(spec: Any) -> None:
    rules = _rules(spec)
    rng = random.Random(f"review {spec}")
    for _ in range(4):
        hands = _random_deal(rng, rules)
        for k in range(4):
            if hands[k].surrender:
                continue
            found = review(hands, rules, k)
            assert found.best_units >= found.actual_units
            assert found.missed == found.best_units - found.actual_units >= 0
            assert _is_legal(found.best, rules)
            if found.declare is None:
                seated = list(hands)
                seated[k] = hands[k]._replace(rows=found.best.rows)
                assert score_hands(seated, rules).players[k].units == found.best_units


def test_review_of_a_deal_result_finds_the_obvious_scoop() -> None:
    rules = _rules("standard")
    # Ann set her hand as the heuristic would: she wins back and middle, loses the front.
    ann = Hand(
        "Ann",
        (parse_cards("7c 3h 2c"), parse_cards("Ks Kd Qs Qd 7d"), parse_cards("As Ad Ah Ac Kh")),
    )
    bob = Hand(
        "Bob",
        (parse_cards("Jc Jd 2d"), parse_cards("Tc Td 9c 9d 3c"), parse_cards("8c 8d 8h 4c 4d")),
    )
    result = score_hands([ann, bob], rules)
    found = review(result, rules, 0)
    assert found.actual_units == Decimal(1)
    assert found.best_units == Decimal(6)  # queens in front, kings full: a scoop of Bob
    assert _ranks(found.best.front)[:2] == "QQ"
    assert found.missed == Decimal(5)
    assert found.nearest_legal is None
    assert review(result, rules, 1).best_units >= result.players[1].units


def test_review_of_a_foul_shows_the_nearest_legal_setting() -> None:
    rules = _rules("standard")
    ann = Hand(
        "Ann",
        (parse_cards("As Ad 2c"), parse_cards("Kc Qd 9h 5s 3c"), parse_cards("7c 7d 7h Jc 4d")),
    )
    bob = Hand(
        "Bob",
        (parse_cards("Jd Td 2d"), parse_cards("Tc Th 9c 9d 3d"), parse_cards("8c 8d 8h 4c 4h")),
    )
    found = review([ann, bob], rules, 0)
    assert found.actual_units == Decimal(-6)
    assert found.nearest_legal is not None
    assert _is_legal(found.nearest_legal, rules)
    assert ann.rows is not None
    pairs = zip(found.nearest_legal.rows, ann.rows, strict=True)
    shared = sum(len(set(a) & set(b)) for a, b in pairs)
    assert shared == 11  # one card swapped between two rows
    assert found.missed == found.best_units + 6 > 0


REVIEW_HANDS = {
    "Ann": {"front": "Ac Kc 3d", "middle": "4c 4d 9h Jd Qs", "back": "7c 7d 7h 2s 5d"},
    "Bob": {"front": "2c 2d 8s", "middle": "5c 5h Tc Ts Kd", "back": "3c 4h 5s 6d 7s"},
}


def test_review_request_reviews_every_player_who_showed_cards() -> None:
    request = {
        "rules": "classic-1-6",
        "players": [{"name": name, **rows} for name, rows in REVIEW_HANDS.items()]
        + [{"name": "Cy", "surrender": True}],
    }

    found = review_request(request)

    assert found["reviewed"] is True
    ann, bob, cy = found["players"]
    assert cy == {
        "name": "Cy",
        "reviewed": False,
        "reason": "surrendered without cards",
        "reason_code": {"code": "surrendered_without_cards", "args": {}},
    }
    for line in (ann, bob):
        assert Decimal(line["best_units"]) - Decimal(line["actual_units"]) == Decimal(
            line["units_missed"]
        )
        assert Decimal(line["units_missed"]) >= 0
    # Bob's rows scoop Ann's (hand B over hand A: +6) and Cy's surrender pays 2.5. The only
    # royalty his cards allow is trips 5 in front (+3), and no setting with it wins the back
    # from Ann's trip sevens: a scoop is the best Bob can do, so he missed nothing.
    assert (bob["actual_units"], bob["units_missed"]) == ("8.5", "0")


# The second 13-card deal of a Criss Cross table (its own deck).
CROSSED = {
    "Ann": {"front": "Qc Jc 9d", "middle": "8c 8d 8h As 2h", "back": "6c 6h 6s Th Td"},
    "Bob": {"front": "4s 3h 3s", "middle": "Qd Qh Jh Js 9c", "back": "Ad Ah Ks Kh 9s"},
}


@pytest.mark.parametrize(
    ("request_", "reason", "game"),
    [
        (
            {
                "rules": "big-two",
                "players": [{"name": "A", "cards_left": 0}, {"name": "B", "cards_left": 3}],
            },
            "big-two deals are not reviewed",
            "big-two",
        ),
        (
            {
                "rules": "pineapple",
                "players": [{"name": name, **rows} for name, rows in REVIEW_HANDS.items()],
            },
            "open-face deals are not reviewed",
            "open-face",
        ),
        (
            {
                "rules": {"preset": "standard", "criss_cross": True},
                "players": [
                    {"name": "Ann", "hands": [REVIEW_HANDS["Ann"], CROSSED["Ann"]]},
                    {"name": "Bob", "hands": [REVIEW_HANDS["Bob"], CROSSED["Bob"]]},
                ],
            },
            "criss cross deals are not reviewed",
            "criss-cross",
        ),
    ],
)
def test_review_request_leaves_games_without_a_setting_alone(
    request_: dict[str, Any], reason: str, game: str
) -> None:
    assert review_request(request_) == {
        "reviewed": False,
        "reason": reason,
        "reason_code": {"code": "not_reviewed_game", "args": {"game": game}},
        "players": [],
    }


def test_review_request_rejects_what_scoring_rejects() -> None:
    with pytest.raises(ScoreError) as error:
        review_request({"rules": "classic-1-6", "players": [{"name": "Ann", "front": "Zz"}]})
    assert error.value.field is not None
