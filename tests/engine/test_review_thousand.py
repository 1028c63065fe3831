"""The whole-deal review's equality, held by a test: on 1,000 random four-player deals under every
preset whose game is reviewed, the whole-deal review (``review_all``, what the review task
runs) answers exactly what the review before it answered player by player: the same best
setting, units, declaration and nearest legal setting for every player.

The deals come from ``tests.engine.test_arrange._random_deal``: half the hands set by the
heuristic, half split as they were dealt (often fouled), a surrender now and then.
"""

from __future__ import annotations

import random

import pytest

from games.engine.arrangement.review_batch import review_all
from games.engine.games import GAMES
from games.engine.rules import PRESETS, Rules
from tests.engine.test_arrange import _random_deal
from tests.engine.test_review_batch import _one_by_one

DEALS = 1000
REVIEWED = [name for name in PRESETS if GAMES[Rules.from_mapping(name).game].reviewed]


def test_every_chinese_poker_preset_is_reviewed_and_no_other() -> None:
    chinese = [name for name in PRESETS if Rules.from_mapping(name).game == "chinese"]
    assert chinese == REVIEWED
    assert {"standard", "mau-binh-south"} <= set(REVIEWED)


@pytest.mark.parametrize("preset", REVIEWED)
def test_a_thousand_deals_reviewed_both_ways_agree(preset: str) -> None:
    rules = Rules.from_mapping(preset)
    rng = random.Random(f"a thousand deals under {preset}")
    disagree = []
    for number in range(DEALS):
        hands = _random_deal(rng, rules)
        if review_all(hands, rules) != _one_by_one(hands, rules):
            disagree.append((number, [h.rows for h in hands]))
    assert disagree == []
