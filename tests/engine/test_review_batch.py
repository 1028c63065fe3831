"""The whole-deal review (``review_batch.review_all``) gives what ``review`` gives player by
player: the same best setting, units, declaration and nearest legal setting.
``test_review_thousand.py`` holds the two equal on 1,000 deals per reviewed preset."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.arrangement.review import review
from games.engine.arrangement.review_batch import (
    _cell_units,
    _hands13,
    _legal_rowset,
    _naturals,
    _row_natural_possible,
    review_all,
)
from games.engine.arrangement.versus import table_units
from games.engine.cards import DECK, parse_cards
from games.engine.rules import Rules
from games.engine.scoring import Hand
from games.engine.seats import seat_for, table_for
from tests.engine.test_arrange import NAMES, RULE_SPECS, _random_deal


def _one_by_one(hands: list[Hand], rules: Rules) -> list[Any]:
    return [None if h.rows is None else review(hands, rules, k) for k, h in enumerate(hands)]


@pytest.mark.parametrize("spec", RULE_SPECS)
def test_whole_deal_review_equals_the_review_of_each_player(spec: Any) -> None:
    rules = Rules.from_mapping(spec)
    rng = random.Random(f"batch {spec}")
    for _ in range(8):
        hands = _random_deal(rng, rules)
        assert review_all(hands, rules) == _one_by_one(hands, rules), [h.rows for h in hands]


@pytest.mark.parametrize("spec", ["classic-1-6", {"preset": "standard", "fouled_hand": "played"}])
def test_a_hand_not_shown_is_not_reviewed_and_the_others_are_as_before(spec: Any) -> None:
    rules = Rules.from_mapping(spec)
    rng = random.Random(f"not shown {spec}")
    for _ in range(3):
        hands = _random_deal(rng, rules)
        hands[1] = Hand(hands[1].name, None, not_shown=True)
        found = review_all(hands, rules)
        assert found[1] is None
        assert found == _one_by_one(hands, rules)


def test_a_row_natural_is_offered_as_before() -> None:
    # Three flushes (clubs 3, hearts 5, spades 5) and three straights set as they come.
    rules = Rules.from_mapping("classic-1-6")
    flushes = parse_cards("2c 5c 9c 3h 6h 8h Th Qh 2s 4s 7s 9s Ks")
    straights = parse_cards("2d 3d 4h 5s 6c 7d 8h 9s 3c 4c 5d 6d 7c")
    deck = [c for c in DECK if c not in flushes and c not in straights]
    hands = [
        Hand(NAMES[0], (flushes[:3], flushes[3:8], flushes[8:])),
        Hand(NAMES[1], (straights[:3], straights[3:8], straights[8:])),
        Hand(NAMES[2], (tuple(deck[:3]), tuple(deck[3:8]), tuple(deck[8:13]))),
    ]
    found = review_all(hands, rules)
    assert found == _one_by_one(hands, rules)
    built = _hands13([flushes, straights], rules)
    assert [name for name, _v, _s in _naturals(built[0][0])] == ["three_flushes"]
    assert [name for name, _v, _s in _naturals(built[1][0])] == ["three_straights"]


@settings(max_examples=60, deadline=None)
@given(st.permutations(DECK))
def test_a_row_natural_ruled_out_early_is_never_found(deck: list[int]) -> None:
    rules = Rules.from_mapping("classic-1-6")
    ((h13, _rows),) = _hands13([deck[:13]], rules)
    for name in ("three_flushes", "three_straights"):
        if not _row_natural_possible(h13, name):
            assert h13.row_natural(name) is None


@pytest.mark.parametrize("spec", RULE_SPECS)
def test_scoring_by_cell_gives_each_setting_its_own_units(spec: Any) -> None:
    rules = Rules.from_mapping(spec)
    table = table_for(rules)
    rng = random.Random(f"cells {spec}")
    for _ in range(3):
        hands = _random_deal(rng, rules)
        ((h13, rows),) = _hands13([[c for row in hands[0].rows or () for c in row]], rules)
        others = [seat_for(table, h) for h in hands[1:]]
        direct = table_units(table, _legal_rowset(rows), others, h13.aces)
        assert np.array_equal(_cell_units(h13, rows, others), direct)
        # With fewer settings than cells the settings are scored directly, to the same end.
        h13.legal = h13.legal[:1]
        assert np.array_equal(_cell_units(h13, rows, others), direct)
