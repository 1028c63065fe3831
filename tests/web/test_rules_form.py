"""The owners' rules form is built from the engine's table of options (engine/options.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.engine.options import OPTIONS as RULE_OPTIONS
from games.engine.options import OPTIONS_BY_GAME
from games.engine.rules import PRESETS, preset_rules
from games.models import Group
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


def test_the_form_in_vietnamese_labels_each_field_with_its_title(
    as_alice: Client, alice: User, group: Group
) -> None:
    services.set_rules(group, {"preset": "classic-1-6", "bonus": "2-4"}, by=alice)
    html = as_alice.get(f"/groups/{group.pk}/rules/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    for name, title in (
        ("foul_penalty", "Phạt binh lủng"),
        ("middle", "Chi giữa"),
        ("scoop_all_multiplier", "Hệ số sập làng"),
        ("surrender_cost", "Tiền đầu hàng"),
    ):
        # The title is the label, so the field's accessible name; the key sits beside it.
        assert f'<label for="opt-{name}">{title}</label>' in html
        assert f'translate="no" title="Tên của nó trong API">{name}</code>' in html
    # A choice reads as a word of the table and is still sent by its key; the preset's
    # value beside it reads the same way.
    assert '<option value="second">Sảnh lớn thứ nhì</option>' in html
    assert '<option value="2-4" selected>Tính 2-4</option>' in html
    assert '<option value="">bộ luật: Sảnh nhỏ nhất</option>' in html
    assert '<option value="none">Không thưởng</option>' in html
    # A table keeps its name.
    assert '<option value="baseline">baseline</option>' in html
    for option in rules_form.options_for("classic-1-6"):
        assert f">{option.name}</label>" not in html
