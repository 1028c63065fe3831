"""Rules stored before an option or a natural was added to the rule book, read as they
were played (RULES 13: "a rule set stored earlier keeps what it holds").

A preset may gain a rule (the Mau Binh presets gained ``five_consecutive_pairs``; the
open-face presets ``button_stays_in_fantasyland``). A spec stored earlier that names the
preset, or a resolved mapping written by ``Rules.to_mapping`` before the rule existed,
would otherwise read with it. A resolved mapping written since always names the rule, so
its absence dates the mapping; the spec stored beside it is pinned to what it gave then.
The data migration and the import of an older export both go through here.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final

from .errors import ScoreError
from .rules import NATURAL_TABLES, Rules, preset_rules, rules_to_mapping

# Naturals a preset's table gained after rule sets were first stored (off before).
LATER_NATURALS: Final = ("five_consecutive_pairs",)
# Options of a game added after rule sets were first stored, and their value before (a
# mapping without them is rewritten with them; only a value that differs is pinned).
LATER_OPTIONS: Final[dict[str, tuple[str, object]]] = {
    "ace_bonus": ("chinese", None),
    "button_stays_in_fantasyland": ("open-face", False),
    "two_bonus": ("big-two", None),
}


def _game(stored: Mapping[str, Any]) -> str | None:
    try:
        return preset_rules(stored["preset"]).game if isinstance(stored, Mapping) else None
    except (KeyError, TypeError, ScoreError):
        return None


def missing(stored: object) -> dict[str, object]:
    """What a resolved mapping lacks of the later rules, with the value each had before:
    ``{"naturals.five_consecutive_pairs": None, OPTION: VALUE}``; empty for a mapping
    written since (or anything that is no resolved mapping)."""
    if not isinstance(stored, Mapping):
        return {}
    game = _game(stored)
    out: dict[str, object] = {}
    naturals = stored.get("naturals")
    if game == "chinese" and isinstance(naturals, Mapping):
        out.update({f"naturals.{name}": None for name in LATER_NATURALS if name not in naturals})
    for option, (option_game, before) in LATER_OPTIONS.items():
        if game == option_game and option not in stored:
            out[option] = before
    return out


def pinned(spec: Any, before: Mapping[str, object]) -> Any:
    """``spec`` with the rules named in ``before`` (see ``missing``) pinned to their value
    then, where the spec would now give another; a spec the engine refuses is returned
    untouched (its reader reports it)."""
    if not before:
        return spec
    try:
        now = Rules.from_mapping(spec)
    except ScoreError:
        return spec
    out: dict[str, Any] = {"preset": spec} if isinstance(spec, str) else copy.deepcopy(dict(spec))
    for key, value in before.items():
        kind, _dot, name = key.partition(".")
        if kind == "naturals":
            if now.naturals.get(name) is None:
                continue
            naturals = out.get("naturals")
            if isinstance(naturals, str):
                table = NATURAL_TABLES.get(naturals, {})
                naturals = {k: None if v is None else str(v) for k, v in table.items()}
            elif not isinstance(naturals, Mapping):
                naturals = {}
            out["naturals"] = {**naturals, name: value}
        elif getattr(now, key) != value:
            out[key] = value
    if isinstance(spec, str) and set(out) == {"preset"}:
        return spec
    return out


def as_played(spec: Any, stored: Any) -> tuple[Any, Any]:
    """A stored (spec, resolved mapping) as they were played: the spec pinned as
    ``pinned`` says, the mapping as ``Rules.to_mapping`` writes it now. Either may be the
    same object (a deal's rules are their own spec)."""
    before = missing(stored)
    if not before:
        return spec, stored
    spec = pinned(spec, before)
    try:
        resolved = rules_to_mapping(Rules.from_mapping(pinned(stored, before)))
    except ScoreError:
        return spec, stored
    return spec, resolved
