"""The owners' rules form: a preset, and any option overridden, each explained in a sentence.

The form only turns typed text into a rules spec (``{"preset": NAME, OPTION: VALUE}``);
the engine validates it (``Rules.from_mapping``) and its error names the option, which
the page shows next to that option.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.engine.options import OPTIONS as RULE_OPTIONS
from games.engine.options import OPTIONS_BY_GAME, OPTIONS_BY_NAME, TABLES
from games.engine.rules import PRESETS, preset_rules
from games.rules_text import choice_title, option_sentence, option_title

DEFAULT = ""  # the blank choice: keep the preset's value
NONE_WORDS = frozenset({"none", "null", "off", "no"})


@dataclass(frozen=True)
class Option:
    """A field of the form: an option of the engine's table (``games.engine.options``)."""

    name: str
    kind: str  # choice, bool, number-or-none, number-or-sweep, int, int-or-none, multipliers
    sentence: str  # the engine's, in English: the page shows ``text``
    choices: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The sentence in the language being rendered, filled in."""
        return option_sentence(self.name)

    @property
    def title(self) -> str:
        """What people call the option, in the language being rendered."""
        return option_title(self.name)

    @property
    def titled_choices(self) -> list[tuple[str, str]]:
        """(value, what people read) for each choice: a table's names are shown as they are."""
        return [(choice, choice_title(self.name, choice) or choice) for choice in self.choices]


# Every option the form offers, in the table's order, with the table's sentence.
OPTIONS: tuple[Option, ...] = tuple(
    Option(option.name, option.form_kind, option.sentence, option.choices)
    for option in RULE_OPTIONS
    if option.in_form
)


def options_for(preset: str) -> list[Option]:
    """The options that apply to the preset's game."""
    allowed = OPTIONS_BY_GAME[preset_rules(preset).game]
    return [option for option in OPTIONS if option.name in allowed]


def preset_names() -> list[str]:
    return list(PRESETS)


# A whole number the form turns into JSON; anything else (also digits of other scripts, or
# thousands of them) is passed on as text for the engine to name.
_WHOLE = re.compile(r"-?[0-9]{1,9}")


def _whole(text: str) -> Any:
    return int(text) if _WHOLE.fullmatch(text) else text


def _value(option: Option, text: str) -> Any:
    """The JSON value the engine validates; text it cannot read is passed on as it is."""
    text = text.strip()
    if option.kind == "bool":
        return {"yes": True, "no": False}.get(text, text)
    if option.kind in ("number-or-none", "int-or-none") and text.lower() in NONE_WORDS:
        return None
    if option.kind in ("int", "int-or-none"):
        return _whole(text)
    if option.kind == "multipliers":
        steps: list[Any] = []
        for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
            left, _, factor = part.partition(":")
            steps.append([_whole(left.strip()), factor.strip()])
        return steps
    return text


def typed_value(name: str, text: str) -> Any:
    """An option of the engine's table (any, also one the form leaves out) typed as text,
    as the JSON value the engine validates: read as the form reads it, "true" and "false"
    taken for yes and no."""
    known = OPTIONS_BY_NAME.get(name)
    if known is None:
        return text.strip()
    option = Option(known.name, known.form_kind, known.sentence, known.choices)
    if option.kind == "bool":
        text = {"true": "yes", "false": "no"}.get(text.strip().lower(), text)
    return _value(option, text)


def value_text(name: str, value: Any) -> str:
    """An option's value (as the rules mapping holds it) written as the form takes it."""
    known = OPTIONS_BY_NAME.get(name)
    if known is None:
        return str(value)
    return describe_value(Option(known.name, known.form_kind, known.sentence), value)


def shown_value(name: str, text: str) -> str:
    """An option's value as written on the form (``value_text``, ``describe_value``), as
    people read it where it is only shown: a choice by its title, yes and no in their
    language; numbers, "none", "sweep" and tables' names as they are typed."""
    known = OPTIONS_BY_NAME.get(name)
    if known is not None and known.kind == "bool" and text in ("yes", "no"):
        return _("yes") if text == "yes" else _("no")
    return (choice_title(name, text) if known is not None else None) or text


def custom_tables(spec: str | Mapping[str, Any]) -> dict[str, Any]:
    """The spec's own royalty or naturals tables (mappings), which the form cannot show."""
    if isinstance(spec, str):
        return {}
    return {name: value for name, value in spec.items() if isinstance(value, Mapping)}


def spec_from_form(
    data: Mapping[str, Any], current: str | Mapping[str, Any] = ""
) -> str | dict[str, Any]:
    """The spec typed in the form: the preset name alone when nothing is overridden.

    A custom table of the ``current`` spec is kept when its option is left blank and the
    preset stays the same, so saving the form never drops what the API agreed.
    """
    preset = str(data.get("preset", ""))
    spec: dict[str, Any] = {"preset": preset}
    same_preset = not isinstance(current, str) and current.get("preset") == preset
    kept = custom_tables(current) if same_preset else {}
    if preset in PRESETS:
        for option in options_for(preset):
            text = str(data.get(option.name, "") or "")
            if text.strip() != DEFAULT:
                spec[option.name] = _value(option, text)
            elif option.name in kept:
                spec[option.name] = kept[option.name]
    return preset if len(spec) == 1 else spec


def _text(option: Option, value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if option.kind == "multipliers" and isinstance(value, list):
        return ", ".join(f"{cards}:{factor}" for cards, factor in value)
    return str(value)


def initial_from_spec(spec: str | Mapping[str, Any]) -> dict[str, str]:
    """Form values for a stored spec (its preset and the options it overrides)."""
    if isinstance(spec, str):
        return {"preset": spec}
    values = {"preset": str(spec.get("preset", ""))}
    by_name = {option.name: option for option in OPTIONS}
    for name, value in spec.items():
        if name in by_name and not isinstance(value, Mapping):
            values[name] = _text(by_name[name], value)
    return values


def describe_value(option: Option, value: Any) -> str:
    """An option's resolved value as the form writes it ("none", "yes", "10:2")."""
    if isinstance(value, Mapping):
        return _("custom table")
    return _text(option, value)


def preset_value(preset: str, option: Option) -> str:
    """What the preset itself sets an option to, naming its royalty or naturals table."""
    tables = TABLES.get(option.name)
    if tables is not None:
        table = PRESETS[preset].get(option.name, tables["none"])
        return next((name for name, known in tables.items() if known is table), _("custom table"))
    return describe_value(option, preset_rules(preset).to_mapping().get(option.name))
