"""The what-if's rules: one option of the table changed, checked as the rules form checks
it, and two results of one deal side by side."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import OPTIONS_BY_GAME, PRESETS, RuleError, Rules, score_request
from games.engine.what_if import changed_rules, compare, options_for
from tests.services.hands import deal, fouled

EVERY_OPTION = [
    (preset, option) for preset in PRESETS for option in options_for(Rules.from_mapping(preset))
]


@pytest.mark.parametrize(("preset", "option"), EVERY_OPTION)
def test_the_recorded_value_gives_the_recorded_rules(preset: str, option: str) -> None:
    stored = Rules.from_mapping(preset).to_mapping()
    assert changed_rules(stored, option, stored[option]) == Rules.from_mapping(stored)


def test_every_option_of_each_game_may_be_changed() -> None:
    for preset in PRESETS:
        rules = Rules.from_mapping(preset)
        assert set(options_for(rules)) == OPTIONS_BY_GAME[rules.game]


def test_a_table_mapping_updates_the_deals_own_table() -> None:
    # The deal was scored with front trips of aces worth 12; asking for a back straight
    # worth 2 keeps them.
    stored = Rules.from_mapping({"preset": "classic-1-6", "royalties": {"front": {"trips_A": 12}}})
    changed = changed_rules(stored.to_mapping(), "royalties", {"back": {"straight": 2}})
    assert changed.royalties["front"]["trips_A"] == 12
    assert changed.royalties["back"]["straight"] == 2
    assert changed.royalties["middle"] == stored.royalties["middle"]


@pytest.mark.parametrize(
    ("option", "value", "field", "message"),
    [
        ("bogus", 1, "option", "option: 'bogus' is not an option; known: wheel, middle,"),
        (None, 1, "option", "option: None is not an option"),
        ("losers_settle", True, "option", "option: 'losers_settle' does not apply to"),
        ("surrender_cost", -1, "value", "rules.surrender_cost: -1 is not a number of at least 0"),
        ("surrender_cost", 101, "value", "rules.surrender_cost: at most 100, got 101"),
        ("fouled_hand", "kept", "value", "rules.fouled_hand: 'kept' is not one of"),
        # Valid alone; but the rules keep a scoop_all_multiplier, which needs 1-6.
        ("bonus", "2-4", "value", "rules.bonus: '2-4' cannot be set here: rules.scoop_all"),
    ],
)
def test_refusals_name_the_option(option: Any, value: Any, field: str, message: str) -> None:
    stored = Rules.from_mapping("mau-binh-south").to_mapping()
    with pytest.raises(RuleError) as refused:
        changed_rules(stored, option, value)
    assert refused.value.field == field
    assert refused.value.message.startswith(message)


PLAYERS = [
    {"name": "Ann", **fouled("A")},
    *deal(Bob="B", Cy="C"),
    {"name": "Di", **deal(Di="D")[0], "natural": "six_pairs"},
]
STAKES = {"unit_value": "0.5", "pairs": [{"players": ["Ann", "Bob"], "multiplier": "2"}]}


@settings(max_examples=40, deadline=None)
@given(
    penalty=st.integers(min_value=0, max_value=1000).map(lambda n: Decimal(n) / 10),
    surrender=st.one_of(st.none(), st.integers(min_value=0, max_value=1000).map(lambda n: n / 10)),
)
def test_the_same_as_the_engine_under_those_rules(penalty: Decimal, surrender: Any) -> None:
    """Whatever the foul penalty: the changed rules score the deal as the preset with that
    override does, and the differences add up to nothing (every result sums to zero)."""
    request: dict[str, Any] = {"players": PLAYERS, "stakes": STAKES}
    recorded = score_request(
        {**request, "rules": {"preset": "classic-1-6", "surrender_cost": surrender}}
    )
    stored = recorded["rules"]
    rules = changed_rules(stored, "foul_penalty", str(penalty))
    now = score_request({**request, "rules": rules.to_mapping()})
    spec = {"preset": "classic-1-6", "surrender_cost": surrender, "foul_penalty": str(penalty)}
    assert now == score_request({**request, "rules": spec})

    rows = compare(recorded, now)
    assert [row["name"] for row in rows] == ["Ann", "Bob", "Cy", "Di"]
    assert sum(Decimal(row["difference"]) for row in rows) == 0
    assert sum(Decimal(row["money_difference"]) for row in rows) == 0
    # Only Ann's foul changed price: 3 recorded, ``penalty`` now, to Bob and to Cy.
    ann = rows[0]
    assert Decimal(ann["difference"]) == 2 * (Decimal(3) - penalty)
    # Her pair with Bob plays at twice the unit: her money moves by 1.5 x the units.
    assert Decimal(ann["money_difference"]) == Decimal("1.5") * (Decimal(3) - penalty)
