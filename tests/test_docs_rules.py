"""docs/rules.md is held to the engine's option table: the options of each game, every
option's allowed values and default, and the presets with their games. The page explains
the options in words of its own; what it states as fact must be what the engine does, so
an option added, renamed or changed in ``games/engine/options.py`` (or a default in
``Rules``, a preset in ``PRESETS``) fails here until the page says the same."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.engine.options import GAME_KEYS, OPTIONS, OPTIONS_BY_GAME, TABLES, Option
from games.engine.rules import PRESETS, Rules

RULES_PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
ROW = re.compile(r"^\| `([\w-]+)`(?::[^|]*)? \| (.*?) \| (.*) \|$")
# A row of two cells: a game and its options.
GAME_ROW = re.compile(r"^\| `([\w-]+)` \| (.*) \|$")
# "Values (default)": the values, then the default in code, then perhaps "; chinese only".
VALUES = re.compile(r"^(.*) \(`([^`]*)`\)(?:; ([\w-]+) only)?$")


def section(text: str, heading: str) -> str:
    """The text under ``## heading`` up to the next heading of that level."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def table_rows(text: str, header: str) -> list[str]:
    """The rows (after the header and its rule) of every table in ``text`` whose header
    row starts with ``header``."""
    rows: list[str] = []
    for block in re.split(r"\n(?!\|)", text):
        lines = [line for line in block.split("\n") if line.startswith("|")]
        if lines and lines[0].startswith(header):
            rows += lines[2:]
    return rows


def matches(pattern: re.Pattern[str], rows: list[str]) -> list[tuple[str, ...]]:
    found = [pattern.fullmatch(row) for row in rows]
    assert all(found), [row for row, match in zip(rows, found, strict=True) if not match]
    return [match.groups() for match in found if match]


@pytest.fixture(scope="module")
def page() -> str:
    return RULES_PAGE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def option_rows(page: str) -> dict[str, tuple[str, str]]:
    """Each option's row of "Every option": name -> (values, what it does)."""
    rows = matches(ROW, table_rows(section(page, "Every option"), "| Option |"))
    names = [name for name, _values, _does in rows]
    assert len(names) == len(set(names)), "an option has two rows"
    return {name: (values, does) for name, values, does in rows}


def default_of(option: Option) -> Any:
    field = next(f for f in dataclasses.fields(Rules) if f.name == option.name)
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return field.default


def test_the_options_of_each_game_are_the_engines(page: str) -> None:
    rows = matches(GAME_ROW, table_rows(section(page, "Every option"), "| Game | Options |"))
    listed = {game: re.findall(r"`(\w+)`", names) for game, names in rows}
    assert set(listed) == set(GAME_KEYS)
    for game in GAME_KEYS:
        assert listed[game] == [o.name for o in OPTIONS if o.name in OPTIONS_BY_GAME[game]], game


def test_every_option_has_one_row(option_rows: dict[str, tuple[str, str]]) -> None:
    assert set(option_rows) == {option.name for option in OPTIONS}


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.name)
def test_each_rows_values_and_default_are_the_engines(
    option: Option, option_rows: dict[str, tuple[str, str]]
) -> None:
    values, does = option_rows[option.name]
    match = VALUES.fullmatch(values)
    assert match, values
    allowed, default_text, only = match.groups()
    default = json.loads(default_text)
    if only is not None:
        assert option.games == {only}
    engine_default = default_of(option)
    if option.kind == "table":
        assert TABLES[option.name][default] == engine_default
    elif option.kind == "multipliers":
        assert tuple(tuple(pair) for pair in default) == engine_default
    else:
        assert default == engine_default

    if option.kind == "choice":
        assert tuple(re.findall(r'`"([^"`]+)"`', allowed)) == option.choices
    elif option.kind == "bool":
        assert allowed == "`true`, `false`"
    elif option.kind in ("int", "int-or-none"):
        suffix = ", or `null`" if option.kind == "int-or-none" else ""
        assert allowed == f"{option.whole[0]} to {option.whole[1]}{suffix}"
    elif option.kind == "number-or-none":
        least = f" of at least {option.minimum}" if option.minimum else ""
        assert allowed == f"a number{least}, or `null`"
    elif option.kind == "number-or-sweep":
        assert allowed == '`"sweep"` or a number'
    elif option.kind == "table":
        assert allowed.startswith("a table name, or a mapping")
        named = does.partition(" (below)")[0]
        assert tuple(re.findall(r"`([\w-]+)`", named)) == option.choices
    else:
        assert option.kind == "multipliers"
        assert allowed == "a list of `[cards left, factor]`"
        assert f"Each threshold ({option.whole[0]} to {option.whole[1]}) once" in does
        assert f"factors at least {option.minimum}" in does


def test_the_presets_and_their_games_are_the_engines(page: str) -> None:
    presets = [
        (name, game)
        for name, game, _rest in matches(ROW, table_rows(section(page, "Presets"), "| Preset |"))
    ]
    assert [name for name, _game in presets] == list(PRESETS)
    for name, game in presets:
        assert game == Rules.from_mapping(name).game, name
    games = {
        game: re.findall(r"`([\w-]+)`", names)
        for game, names, _rest in matches(ROW, table_rows(section(page, "The games"), "| Game |"))
    }
    assert set(games) == set(GAME_KEYS)
    for game, names in games.items():
        assert names == [p for p in PRESETS if Rules.from_mapping(p).game == game], game


def test_a_change_in_the_engine_would_fail_here(
    option_rows: dict[str, tuple[str, str]],
) -> None:
    """The check reads the cells it compares: a row that says otherwise is caught."""
    wheel = next(option for option in OPTIONS if option.name == "wheel")
    changed = dataclasses.replace(wheel, choices=("low", "second", "third"))
    with pytest.raises(AssertionError):
        test_each_rows_values_and_default_are_the_engines(changed, option_rows)
    players = next(option for option in OPTIONS if option.name == "max_players")
    with pytest.raises(AssertionError):
        test_each_rows_values_and_default_are_the_engines(
            dataclasses.replace(players, whole=(2, 5)), option_rows
        )
