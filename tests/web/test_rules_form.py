"""The owners' rules form is built from the engine's table of options (engine/options.py)."""

from __future__ import annotations

import pytest

from games.engine.options import OPTIONS as RULE_OPTIONS
from games.engine.options import OPTIONS_BY_GAME
from games.engine.rules import PRESETS, preset_rules
from games.web import rules_form


def test_form_fields_are_the_tables() -> None:
    table = [
        (option.name, option.form_kind, option.sentence, option.choices)
        for option in RULE_OPTIONS
        if option.in_form
    ]
    form = [(o.name, o.kind, o.sentence, o.choices) for o in rules_form.OPTIONS]
    assert form == table


def test_only_criss_cross_is_left_off_the_form() -> None:
    assert [o.name for o in RULE_OPTIONS if not o.in_form] == ["criss_cross"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_options_for_a_preset_are_its_games(preset: str) -> None:
    allowed = OPTIONS_BY_GAME[preset_rules(preset).game]
    names = [o.name for o in rules_form.options_for(preset)]
    assert names == [o.name for o in RULE_OPTIONS if o.in_form and o.name in allowed]


def test_preset_values_name_their_tables() -> None:
    by_name = {o.name: o for o in rules_form.OPTIONS}
    assert rules_form.preset_value("classic-1-6", by_name["royalties"]) == "baseline"
    assert rules_form.preset_value("mau-binh-south", by_name["naturals"]) == "mau-binh"
    assert rules_form.preset_value("standard", by_name["naturals"]) == "none"
    assert rules_form.preset_value("ofc", by_name["fantasyland_cards"]) == "13"
