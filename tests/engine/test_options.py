"""The table of rule options (engine/options.py): one entry per option of ``Rules``, and the
validation of overrides reads its kinds, bounds and choices."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

import pytest

from games.engine import PRESETS, RuleError, Rules
from games.engine.options import GAME_KEYS, OPTIONS, OPTIONS_BY_GAME, OPTIONS_BY_NAME, TABLES
from games.engine.tables import NATURAL_TABLES, ROYALTY_TABLES


def rules_options() -> list[str]:
    """The fields of ``Rules`` that are options (the preset and its game are not)."""
    return [f.name for f in dataclasses.fields(Rules) if f.name not in ("preset", "game")]


def rejected(spec: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        Rules.from_mapping(spec)
    return caught.value


def preset_of(game: str) -> str:
    return next(name for name, preset in PRESETS.items() if preset.get("game", "chinese") == game)


def test_every_rules_option_has_exactly_one_entry_in_its_order() -> None:
    names = [option.name for option in OPTIONS]
    assert len(names) == len(set(names))
    assert names == rules_options()
    assert list(OPTIONS_BY_NAME) == names


def test_options_by_game_is_read_from_the_table() -> None:
    """Which options apply to which game is written out in docs/rules.md, held to the table
    by tests/test_docs_rules.py."""
    assert set(OPTIONS_BY_GAME) == set(GAME_KEYS)
    for game in GAME_KEYS:
        assert OPTIONS_BY_GAME[game] == {o.name for o in OPTIONS if game in o.games}
    # Every option applies to some game.
    assert set().union(*OPTIONS_BY_GAME.values()) == set(rules_options())


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_each_entry_is_complete(option: Any) -> None:
    assert option.games and set(option.games) <= set(GAME_KEYS)
    assert option.text.endswith(".") and not option.text[0].islower()
    if option.kind in ("choice", "table"):
        assert option.choices
    else:
        assert option.choices == ()
    if option.kind in ("int", "int-or-none", "multipliers"):
        lo, hi = option.whole
        assert lo <= hi
    if option.kind == "table":
        assert option.choices == tuple(TABLES[option.name])


def test_tables_are_the_rule_books() -> None:
    assert TABLES == {"royalties": ROYALTY_TABLES, "naturals": NATURAL_TABLES}


def test_every_preset_value_is_valid_under_its_entry() -> None:
    """Each preset's own values pass the validation the table describes, unchanged."""
    for name in PRESETS:
        rules = Rules.from_mapping(name)
        again = Rules.from_mapping(rules.to_mapping())
        assert again == rules


@pytest.mark.parametrize("option", [o for o in OPTIONS if o.kind == "choice"], ids=lambda o: o.name)
def test_choices_come_from_the_table(option: Any) -> None:
    preset = preset_of(next(iter(sorted(option.games))))
    for choice in option.choices:
        rules = Rules.from_mapping({"preset": preset, option.name: choice})
        assert getattr(rules, option.name) == choice
    error = rejected({"preset": preset, option.name: "other"})
    listed = ", ".join(repr(c) for c in option.choices)
    assert error.message == f"rules.{option.name}: 'other' is not one of {listed}"
    assert error.field == f"rules.{option.name}"


@pytest.mark.parametrize(
    "option", [o for o in OPTIONS if o.kind in ("int", "int-or-none")], ids=lambda o: o.name
)
def test_whole_numbers_keep_to_the_tables_bounds(option: Any) -> None:
    preset = preset_of(next(iter(sorted(option.games))))
    lo, hi = option.whole
    for good in (lo, hi):
        assert (
            getattr(Rules.from_mapping({"preset": preset, option.name: good}), option.name) == good
        )
    for bad in (lo - 1, hi + 1):
        error = rejected({"preset": preset, option.name: bad})
        assert (
            error.message == f"rules.{option.name}: {bad} is not a whole number from {lo} to {hi}"
        )


@pytest.mark.parametrize(
    "option",
    [o for o in OPTIONS if o.kind in ("number-or-none", "number-or-sweep")],
    ids=lambda o: o.name,
)
def test_numbers_keep_to_the_tables_minimum(option: Any) -> None:
    preset = preset_of(next(iter(sorted(option.games))))
    spec: dict[str, Any] = {"preset": preset}
    if option.name == "scoop_all_multiplier":
        spec["bonus"] = "1-6"
    rules = Rules.from_mapping({**spec, option.name: str(option.minimum)})
    assert getattr(rules, option.name) == option.minimum
    below = option.minimum - Decimal("0.5")
    error = rejected({**spec, option.name: str(below)})
    assert error.message == (
        f"rules.{option.name}: {str(below)!r} is not a number of at least {option.minimum}"
    )


def test_multipliers_keep_to_the_tables_bounds() -> None:
    option = OPTIONS_BY_NAME["multipliers"]
    lo, hi = option.whole
    rules = Rules.from_mapping({"preset": "big-two", "multipliers": [[hi, "3"], [lo, "1"]]})
    assert rules.multipliers == ((lo, Decimal(1)), (hi, Decimal(3)))
    error = rejected({"preset": "big-two", "multipliers": [[hi + 1, "2"]]})
    assert error.message == f"rules.multipliers: {hi + 1} is not a whole number from {lo} to {hi}"
    error = rejected({"preset": "big-two", "multipliers": [[lo, "0.5"]]})
    assert error.message == f"rules.multipliers: '0.5' is not a number of at least {option.minimum}"


def test_an_option_of_another_game_is_refused_by_the_table() -> None:
    for game, names in OPTIONS_BY_GAME.items():
        preset = preset_of(game)
        for name in sorted(set(OPTIONS_BY_NAME) - names):
            error = rejected({"preset": preset, name: None})
            assert error.message == f"rules.{name}: {name!r} does not apply to {game}"
    error = rejected({"preset": "standard", "colour": "red"})
    assert error.message == "rules.colour: 'colour' is not a known option"


def test_every_option_has_a_title_of_its_own() -> None:
    """The title people read in place of the key (the forms, the what-if): one each, no
    two alike, short enough for a label."""
    titles = [option.title for option in OPTIONS]
    assert all(title and title[0].isupper() and len(title) <= 40 for title in titles), titles
    assert len(set(titles)) == len(titles)
    assert not set(titles) & {option.name for option in OPTIONS}


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_each_choice_has_a_title_and_a_table_keeps_its_names(option: Any) -> None:
    if option.kind == "choice":
        assert len(option.choice_titles) == len(option.choices)
        assert len(set(option.choice_titles)) == len(option.choice_titles)
        for value, title in zip(option.choices, option.choice_titles, strict=True):
            assert option.choice_title(value) == title
    else:
        assert option.choice_titles == ()
        assert all(option.choice_title(value) is None for value in option.choices)
    assert option.choice_title("no such value") is None
