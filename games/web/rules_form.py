"""The owners' rules form: a preset, and any option overridden, each explained in a sentence.

The form only turns typed text into a rules spec (``{"preset": NAME, OPTION: VALUE}``);
the engine validates it (``Rules.from_mapping``) and its error names the option, which
the page shows next to that option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.rules import (
    NATURAL_TABLES,
    OPTIONS_BY_GAME,
    PRESETS,
    ROYALTY_TABLES,
    preset_rules,
)

DEFAULT = ""  # the blank choice: keep the preset's value
NONE_WORDS = frozenset({"none", "null", "off", "no"})


@dataclass(frozen=True)
class Option:
    name: str
    kind: str  # choice, bool, number, number-or-none, int, int-or-none, multipliers
    sentence: str
    choices: tuple[str, ...] = ()


OPTIONS: tuple[Option, ...] = (
    Option(
        "wheel",
        "choice",
        "A-2-3-4-5 is the lowest straight, or ranks just below T-J-Q-K-A.",
        ("low", "second"),
    ),
    Option(
        "middle",
        "choice",
        "The middle row is a normal hand, or 2-7 lowball where the lowest wins.",
        ("standard", "lowball-2-7"),
    ),
    Option(
        "bonus",
        "choice",
        "1-6 doubles a scoop of all three rows; 2-4 gives +1 to whoever won more rows.",
        ("1-6", "2-4", "none"),
    ),
    Option(
        "scoop_all_multiplier",
        "number-or-none",
        "With 1-6 at four players, scooping all three opponents multiplies by this instead of 2.",
    ),
    Option(
        "foul_counts_as_scoop",
        "bool",
        "Whether a fouled opponent counts as scooped for the multiplier above.",
    ),
    Option(
        "royalties",
        "choice",
        "Which royalty table pays bonuses for strong rows.",
        ("none", "baseline", "open-face", "mau-binh"),
    ),
    Option(
        "royalty_mode",
        "choice",
        "Royalties are paid by every opponent, or a winning row is worth its royalty.",
        ("always", "row_win"),
    ),
    Option(
        "royalty_best_only",
        "bool",
        "Only the best qualifying hand in each row collects its royalty.",
    ),
    Option(
        "foul_penalty",
        "number-or-sweep",
        "A fouled hand pays as if scooped (sweep), or this many units to each live opponent.",
    ),
    Option("foul_pays_royalties", "bool", "A fouled player also pays opponents their royalties."),
    Option(
        "surrender_cost",
        "number-or-none",
        "Units a surrendering player pays each opponent; none means surrender is not allowed.",
    ),
    Option("max_players", "int", "The most players at one deal (2 to 4)."),
    Option(
        "naturals",
        "choice",
        "Which naturals (special 13-card hands) count and what they pay.",
        ("none", "baseline", "mau-binh"),
    ),
    Option(
        "false_natural_penalty",
        "number-or-none",
        "What a false natural declaration pays each opponent; none rejects the declaration.",
    ),
    Option(
        "natural_collects_from_surrendered",
        "bool",
        "A natural collects its value from a surrendered player too (else the surrender cost).",
    ),
    Option(
        "fantasyland_cards",
        "int-or-none",
        "Cards dealt to a player in fantasy land (13-17); none turns fantasy land off.",
    ),
    Option("progressive", "bool", "Progressive fantasy land: QQ 14, KK 15, AA 16, trips 17 cards."),
    Option(
        "multipliers",
        "multipliers",
        "Big Two: many cards left multiply the payment, e.g. 10:2, 13:3.",
    ),
    Option(
        "two_multiplier", "number-or-none", "Big Two: each 2 still held multiplies that payment."
    ),
    Option(
        "losers_settle", "bool", "Big Two: losers also settle the difference of their penalties."
    ),
    Option("target_score", "number-or-none", "Big Two: the session ends when a loss reaches this."),
)


def options_for(preset: str) -> list[Option]:
    """The options that apply to the preset's game."""
    allowed = OPTIONS_BY_GAME[preset_rules(preset).game]
    return [option for option in OPTIONS if option.name in allowed]


def preset_names() -> list[str]:
    return list(PRESETS)


def _value(option: Option, text: str) -> Any:
    """The JSON value the engine validates; text it cannot read is passed on as it is."""
    text = text.strip()
    if option.kind == "bool":
        return {"yes": True, "no": False}.get(text, text)
    if option.kind in ("number-or-none", "int-or-none") and text.lower() in NONE_WORDS:
        return None
    if option.kind in ("int", "int-or-none"):
        return int(text) if text.lstrip("-").isdigit() else text
    if option.kind == "multipliers":
        steps: list[Any] = []
        for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
            left, _, factor = part.partition(":")
            steps.append([int(left) if left.strip().isdigit() else left.strip(), factor.strip()])
        return steps
    return text


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
        return "custom table"
    return _text(option, value)


def preset_value(preset: str, option: Option) -> str:
    """What the preset itself sets an option to, naming its royalty or naturals table."""
    if option.name in ("royalties", "naturals"):
        tables = ROYALTY_TABLES if option.name == "royalties" else NATURAL_TABLES
        table = PRESETS[preset].get(option.name, tables["none"])
        return next((name for name, known in tables.items() if known is table), "custom table")
    return describe_value(option, preset_rules(preset).to_mapping().get(option.name))
