"""A rule set as data: one frozen dataclass, presets as plain table entries.

``Rules.from_mapping`` takes a preset name or ``{"preset": NAME, OPTION: VALUE, ...}``
and validates every override; ``to_mapping`` gives back a mapping that rebuilds the
same rules, so a deal can store exactly what it was scored under.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache, cached_property, lru_cache
from typing import Any, Final, Literal

from .errors import RuleError
from .options import OPTIONS_BY_GAME, OPTIONS_BY_NAME
from .tables import (
    NATURAL_TABLES,
    NATURALS,
    NO_NATURALS,
    ROWS,
    ROYALTY_TABLES,
    Game,
    Row,
    RoyaltyTable,
)
from .validate import parse_option, rule_error

__all__ = [
    "NATURALS",
    "NATURAL_TABLES",
    "OPTIONS_BY_GAME",
    "PRESETS",
    "ROWS",
    "ROYALTY_TABLES",
    "Game",
    "Row",
    "RoyaltyTable",
    "Rules",
    "decimal_text",
    "preset_rules",
    "rules_from_mapping",
    "rules_to_mapping",
]


@dataclass(frozen=True)
class Rules:
    """Every option of the rule book; each preset fixes all of them.

    Each field after ``preset`` and ``game`` has its entry in ``options.OPTIONS``: the kind
    of value, its bounds or choices, the games it applies to and what it means.
    """

    preset: str
    game: Game = "chinese"
    # Sections 2-4: ranking and pairwise scoring.
    wheel: Literal["low", "second"] = "low"
    middle: Literal["standard", "lowball-2-7"] = "standard"
    bonus: Literal["1-6", "2-4", "none"] = "1-6"
    scoop_all_multiplier: Decimal | None = None
    foul_counts_as_scoop: bool = False
    royalties: RoyaltyTable = field(default_factory=lambda: ROYALTY_TABLES["none"])
    royalty_mode: Literal["always", "row_win"] = "always"
    royalty_best_only: bool = False
    foul_penalty: Literal["sweep"] | Decimal = "sweep"
    foul_pays_royalties: bool = True
    fouled_hand: Literal["forfeit", "played"] = "forfeit"  # section 12
    royalties_declared: bool = False  # section 12: royalties count only on named rows
    surrender_cost: Decimal | None = None
    # Sections 5-6: the table and naturals.
    max_players: int = 4
    naturals: Mapping[str, Decimal | None] = field(default_factory=lambda: NO_NATURALS)
    false_natural_penalty: Decimal | None = None
    natural_collects_from_surrendered: bool = True
    natural_ranking: Literal["value", "order"] = "value"  # two naturals: by value or kind
    ace_bonus: Decimal | None = None  # section 13: units per ace more than an opponent's
    criss_cross: bool = False
    # Section 8a: open-face fantasy land (cards dealt in it; None: no fantasy land).
    fantasyland_cards: int | None = None
    pineapple: bool = False  # three cards at a time, one discarded: four discards a hand
    progressive: bool = False
    # Section 13: the dealer button stays put after a deal anyone played in fantasy land.
    button_stays_in_fantasyland: bool = True
    # Section 10: Big Two.
    multipliers: tuple[tuple[int, Decimal], ...] = ()
    two_multiplier: Decimal | None = None
    two_bonus: Decimal | None = None  # section 13: flat units per 2 held, after multipliers
    losers_settle: bool = False
    target_score: Decimal | None = None

    @classmethod
    def from_mapping(cls, spec: str | Mapping[str, Any], *, limits: bool = False) -> Rules:
        """Rules from a preset name, or a preset name plus overrides.

        ``limits``: the rules are being set (not read back from storage), so every number
        must also fit its option's bounds (``options.Bounds``)."""
        return rules_from_mapping(spec, limits=limits)

    def to_mapping(self) -> dict[str, Any]:
        """A JSON-ready mapping that ``from_mapping`` turns back into these rules."""
        return copy.deepcopy(self.mapping)

    @cached_property
    def mapping(self) -> dict[str, Any]:
        """``to_mapping()`` computed once; shared, so never change it."""
        return rules_to_mapping(self)


_CLASSIC: Final[dict[str, Any]] = {
    "royalties": ROYALTY_TABLES["baseline"],
    "foul_penalty": Decimal(3),
    "surrender_cost": Decimal("2.5"),
    "naturals": NATURAL_TABLES["baseline"],
}
_OFC: Final[dict[str, Any]] = {
    "game": "open-face",
    "royalties": ROYALTY_TABLES["open-face"],
    "surrender_cost": Decimal(2),
    "fantasyland_cards": 13,
}
_MAU_BINH: Final[dict[str, Any]] = {
    "royalties": ROYALTY_TABLES["mau-binh"],
    "royalty_mode": "row_win",
    "scoop_all_multiplier": Decimal(4),
    "naturals": NATURAL_TABLES["mau-binh"],
    "false_natural_penalty": Decimal(6),
    "natural_ranking": "order",
}
PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "classic-1-6": {**_CLASSIC, "bonus": "1-6"},
    "classic-2-4": {**_CLASSIC, "bonus": "2-4"},
    "ofc": _OFC,
    "pineapple": {**_OFC, "max_players": 3, "fantasyland_cards": 14, "pineapple": True},
    "mau-binh-south": {**_MAU_BINH, "wheel": "second"},
    "mau-binh-north": {**_MAU_BINH, "wheel": "low"},
    # A regional table built only from rules that exist (docs/rules.md gives each value's
    # source): the South's wheel, aces' own row values in the front and the back.
    "mau-binh-saigon": {
        **_MAU_BINH,
        "wheel": "second",
        "royalties": {
            "front": {**ROYALTY_TABLES["mau-binh"]["front"], "trips_A": Decimal(12)},
            "middle": ROYALTY_TABLES["mau-binh"]["middle"],
            "back": {**ROYALTY_TABLES["mau-binh"]["back"], "quads_A": Decimal(16)},
        },
    },
    "big-two": {"game": "big-two"},
}


@cache
def preset_rules(name: str) -> Rules:
    """The rules of a preset, with no overrides (one shared instance per preset)."""
    if name not in PRESETS:
        raise RuleError.refused(
            "preset_unknown", "rules.preset", value=repr(name), known=list(PRESETS)
        )
    return Rules(preset=name, **PRESETS[name])


def rules_from_mapping(spec: str | Mapping[str, Any], *, limits: bool = False) -> Rules:
    """See ``Rules.from_mapping``."""
    if isinstance(spec, str):
        return preset_rules(spec)
    if not isinstance(spec, Mapping):
        raise RuleError.refused("rules_not_mapping", "rules")
    name = spec.get("preset")
    if not isinstance(name, str):
        raise RuleError.refused("preset_required", "rules.preset")
    base = preset_rules(name)
    allowed = OPTIONS_BY_GAME[base.game]
    changes: dict[str, Any] = {}
    for option, value in spec.items():
        if option == "preset":
            continue
        if option == "game":
            if value != base.game:
                raise rule_error("game", value, "expected_preset_game", game=base.game)
            continue
        if option not in allowed:
            if option in OPTIONS_BY_NAME:
                raise RuleError.refused(
                    "option_not_of_game", f"rules.{option}", option=option, game=base.game
                )
            raise RuleError.refused("option_unknown", f"rules.{option}", option=str(option))
        changes[option] = parse_option(option, value, getattr(base, option), limits=limits)
    rules = dataclasses.replace(base, **changes)
    _check_consistency(rules)
    return rules


def _check_consistency(rules: Rules) -> None:
    if rules.scoop_all_multiplier is not None and rules.bonus != "1-6":
        raise RuleError.refused("scoop_all_needs_bonus", "rules.scoop_all_multiplier")
    if rules.criss_cross and rules.max_players < 2:  # pragma: no cover - max_players >= 2
        raise RuleError.refused("criss_cross_two", "rules.criss_cross")
    if rules.two_bonus is not None and (rules.two_multiplier or 1) > 1:
        raise RuleError.refused("two_bonus_with_multiplier", "rules.two_bonus")
    if rules.game == "open-face" and rules.progressive and rules.fantasyland_cards is None:
        raise RuleError.refused("progressive_needs_fantasyland", "rules.progressive")


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@lru_cache(maxsize=4096)
def decimal_text(value: Decimal) -> str:
    """Exact, plain text of a decimal: 2.5 -> "2.5", 6.0 -> "6", -0 -> "0"."""
    if not value:
        return "0"
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def rules_to_mapping(rules: Rules) -> dict[str, Any]:
    """See ``Rules.to_mapping``: the preset and every option that applies to its game."""
    base = preset_rules(rules.preset)
    out: dict[str, Any] = {"preset": rules.preset}
    for f in dataclasses.fields(Rules):
        if f.name not in OPTIONS_BY_GAME[rules.game]:
            continue
        value = getattr(rules, f.name)
        if f.name == "royalties":
            # Entries of the preset's table that these rules dropped are written as null,
            # because a mapping of royalties updates the preset's table.
            table: dict[str, dict[str, Any]] = {}
            for row in ROWS:
                entries: dict[str, Any] = {k: _plain(v) for k, v in value[row].items()}
                for dropped in base.royalties[row].keys() - value[row].keys():
                    entries[dropped] = None
                table[row] = entries
            out[f.name] = table
        else:
            out[f.name] = _plain(value)
    return out
