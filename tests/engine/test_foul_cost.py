"""A foul beside a scoop, priced by scoring one of each under the rules (RULES 4)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.engine import PRESETS, Rules, score_request
from games.engine.foul_cost import (
    ANN,
    ANN_LOWBALL,
    BOB_FOULED,
    BOB_FOULED_LOWBALL,
    BOB_SCOOPED,
    foul_cost,
)

# What each preset makes of the two sample deals, worked from the rule book:
# standard: sweep, 1-6, no royalties: a foul pays what a scoop does, 3 rows x 2 = 6.
# classic-1-6: a foul pays 3 (plus royalties, none here), a scoop 6: cheaper.
# classic-2-4: a foul pays 3, a scoop 3 rows + 1 = 4: cheaper.
# ofc, pineapple: sweep (6) against a 1-6 scoop (6).
# mau-binh-*: sweep under row_win, the plain rows worth 1 each, scooped x2 = 6 both ways.
# big-two: no rows, nothing to price.
EXPECTED = {
    "standard": (6, 6),
    "classic-1-6": (3, 6),
    "classic-2-4": (3, 4),
    "ofc": (6, 6),
    "pineapple": (6, 6),
    "mau-binh-south": (6, 6),
    "mau-binh-north": (6, 6),
    "mau-binh-saigon": (6, 6),  # the South's prices; its aces pay as royalties
    "big-two": None,
}


def test_every_preset_is_priced() -> None:
    assert set(EXPECTED) == set(PRESETS)


@pytest.mark.parametrize("preset", EXPECTED)
def test_each_preset(preset: str) -> None:
    cost = foul_cost(Rules.from_mapping(preset))
    expected = EXPECTED[preset]
    if expected is None:
        assert cost is None
        return
    assert cost is not None
    assert (cost.foul, cost.scoop) == (Decimal(expected[0]), Decimal(expected[1]))
    assert cost.foul_is_cheaper == (expected[0] < expected[1])


@pytest.mark.parametrize(
    ("spec", "foul", "scoop"),
    [
        # A numeric penalty below the scoop is cheaper, at it or above it is not.
        ({"preset": "standard", "foul_penalty": 5}, 5, 6),
        ({"preset": "classic-1-6", "foul_penalty": 6}, 6, 6),
        ({"preset": "classic-1-6", "foul_penalty": "sweep"}, 6, 6),
        # A fouled hand played row by row pays its 3, then loses all three rows doubled: 9.
        ({"preset": "classic-1-6", "fouled_hand": "played"}, 9, 6),
        # No bonus: a scoop is the 3 rows; the sweep is the same 3.
        ({"preset": "standard", "bonus": "none"}, 3, 3),
        # 2-7 lowball middle: the lowball sample hands, the same prices.
        ({"preset": "classic-1-6", "middle": "lowball-2-7"}, 3, 6),
        # Criss Cross prices one hand against the one opposite.
        ({"preset": "classic-1-6", "criss_cross": True}, 3, 6),
        # Mau Binh with a flat 3 for a foul: cheaper than the scoop's 6.
        ({"preset": "mau-binh-south", "foul_penalty": 3}, 3, 6),
    ],
)
def test_overrides_change_the_price(spec: dict, foul: int, scoop: int) -> None:
    cost = foul_cost(Rules.from_mapping(spec))
    assert cost is not None
    assert (cost.foul, cost.scoop) == (Decimal(foul), Decimal(scoop))


LOWBALL: list[str | dict[str, str]] = [
    {"preset": p, "middle": "lowball-2-7"} for p in ("standard", "classic-1-6")
]
PRICED: list[str | dict[str, str]] = [p for p, e in EXPECTED.items() if e is not None]


@pytest.mark.parametrize("spec", PRICED + LOWBALL)
def test_the_sample_deals_are_a_foul_and_a_scoop_without_royalties(spec: str | dict) -> None:
    """Scored through the public request: Bob fouls in one and is scooped in the other,
    and nobody's row carries a royalty under the preset's table."""
    rules = Rules.from_mapping(spec)
    lowball = rules.middle == "lowball-2-7"
    ann = ANN_LOWBALL if lowball else ANN
    fouled_bob = BOB_FOULED_LOWBALL if lowball else BOB_FOULED
    for bob, fouled in ((fouled_bob, True), (BOB_SCOOPED, False)):
        result = score_request(
            {
                "rules": rules.to_mapping(),
                "players": [{"name": "Ann", **ann}, {"name": "Bob", **bob}],
            }
        )
        assert result["players"][1]["fouled"] is fouled
        for player in result["players"]:
            assert all(row["royalty"] == "0" for row in player["rows"].values())
        if not fouled:
            assert result["pairs"][0]["scoop"] == "Ann"
        cost = foul_cost(rules)
        assert cost is not None
        paid = -Decimal(result["players"][1]["units"])
        assert paid == (cost.foul if fouled else cost.scoop)
