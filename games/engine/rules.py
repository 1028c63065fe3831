"""A rule set as data: one frozen dataclass, presets as plain table entries.

``Rules.from_mapping`` takes a preset name or ``{"preset": NAME, OPTION: VALUE, ...}``
and validates every override; ``to_mapping`` gives back a mapping that rebuilds the
same rules, so a deal can store exactly what it was scored under.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache, cached_property, lru_cache
from typing import Any, Final, Literal, cast

from .cards import RANK_CHARS
from .errors import RuleError
from .ranking import CATEGORIES

Game = Literal["chinese", "open-face", "big-two"]
Row = Literal["front", "middle", "back"]
ROWS: Final[tuple[Row, Row, Row]] = ("front", "middle", "back")

NATURALS: Final = (
    "clean_dragon",
    "dragon",
    "same_color_13",
    "same_color_12",
    "five_pairs_trips",
    "six_pairs",
    "three_flushes",
    "three_straights",
    "no_broadway",
)

RoyaltyTable = Mapping[Row, Mapping[str, Decimal]]


def _d(value: str | int) -> Decimal:
    return Decimal(value)


def _table(front: dict[str, int], middle: dict[str, int], back: dict[str, int]) -> RoyaltyTable:
    return {
        "front": {k: _d(v) for k, v in front.items()},
        "middle": {k: _d(v) for k, v in middle.items()},
        "back": {k: _d(v) for k, v in back.items()},
    }


ROYALTY_TABLES: Final[dict[str, RoyaltyTable]] = {
    "none": _table({}, {}, {}),
    "baseline": _table(
        {"trips": 3},
        {"full_house": 2, "quads": 8, "straight_flush": 10, "royal_flush": 20},
        {"quads": 4, "straight_flush": 5, "royal_flush": 10},
    ),
    "open-face": _table(
        {
            **{f"pair_{RANK_CHARS[r]}": r - 3 for r in range(4, 13)},  # sixes 1 .. aces 9
            **{f"trips_{RANK_CHARS[r]}": r + 10 for r in range(13)},  # twos 10 .. aces 22
        },
        {
            "trips": 2,
            "straight": 4,
            "flush": 8,
            "full_house": 12,
            "quads": 20,
            "straight_flush": 30,
            "royal_flush": 50,
        },
        {
            "straight": 2,
            "flush": 4,
            "full_house": 6,
            "quads": 10,
            "straight_flush": 15,
            "royal_flush": 25,
        },
    ),
    "mau-binh": _table(
        {"trips": 3},
        {"full_house": 2, "quads": 8, "straight_flush": 10},
        {"quads": 4, "straight_flush": 5},
    ),
}

_NO_NATURALS: Final[dict[str, Decimal | None]] = dict.fromkeys(NATURALS)
NATURAL_TABLES: Final[dict[str, Mapping[str, Decimal | None]]] = {
    "none": _NO_NATURALS,
    "baseline": {
        **_NO_NATURALS,
        "six_pairs": _d(3),
        "three_straights": _d(3),
        "three_flushes": _d(3),
        "dragon": _d(13),
    },
    "mau-binh": {
        **_NO_NATURALS,
        "clean_dragon": _d(24),
        "dragon": _d(12),
        "same_color_13": _d(6),
        "same_color_12": _d(6),
        "five_pairs_trips": _d(6),
        "six_pairs": _d(6),
        "three_flushes": _d(6),
        "three_straights": _d(6),
    },
}


@dataclass(frozen=True)
class Rules:
    """Every option of the rule book; each preset fixes all of them."""

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
    surrender_cost: Decimal | None = None
    # Sections 5-6: the table and naturals.
    max_players: int = 4
    naturals: Mapping[str, Decimal | None] = field(default_factory=lambda: _NO_NATURALS)
    false_natural_penalty: Decimal | None = None
    natural_collects_from_surrendered: bool = True
    criss_cross: bool = False
    # Section 8a: open-face fantasy land (cards dealt in it; None: no fantasy land).
    fantasyland_cards: int | None = None
    progressive: bool = False
    # Section 10: Big Two.
    multipliers: tuple[tuple[int, Decimal], ...] = ()
    two_multiplier: Decimal | None = None
    losers_settle: bool = False
    target_score: Decimal | None = None

    @classmethod
    def from_mapping(cls, spec: str | Mapping[str, Any]) -> Rules:
        """Rules from a preset name, or a preset name plus overrides."""
        return rules_from_mapping(spec)

    def to_mapping(self) -> dict[str, Any]:
        """A JSON-ready mapping that ``from_mapping`` turns back into these rules."""
        return copy.deepcopy(self.mapping)

    @cached_property
    def mapping(self) -> dict[str, Any]:
        """``to_mapping()`` computed once; shared, so never change it."""
        return rules_to_mapping(self)


_CHINESE_OPTIONS: Final = frozenset(
    {
        "wheel",
        "middle",
        "bonus",
        "scoop_all_multiplier",
        "foul_counts_as_scoop",
        "royalties",
        "royalty_mode",
        "royalty_best_only",
        "foul_penalty",
        "foul_pays_royalties",
        "surrender_cost",
        "max_players",
        "naturals",
        "false_natural_penalty",
        "natural_collects_from_surrendered",
        "criss_cross",
    }
)
_OPEN_FACE_OPTIONS: Final = (_CHINESE_OPTIONS - {"naturals", "criss_cross", "middle"}) | {
    "fantasyland_cards",
    "progressive",
}
_BIG_TWO_OPTIONS: Final = frozenset(
    {"max_players", "multipliers", "two_multiplier", "losers_settle", "target_score"}
)
OPTIONS_BY_GAME: Final[dict[Game, frozenset[str]]] = {
    "chinese": _CHINESE_OPTIONS,
    "open-face": _OPEN_FACE_OPTIONS
    - {"false_natural_penalty", "natural_collects_from_surrendered"},
    "big-two": _BIG_TWO_OPTIONS,
}

_CLASSIC: Final[dict[str, Any]] = {
    "royalties": ROYALTY_TABLES["baseline"],
    "foul_penalty": _d(3),
    "surrender_cost": Decimal("2.5"),
    "naturals": NATURAL_TABLES["baseline"],
}
_OFC: Final[dict[str, Any]] = {
    "game": "open-face",
    "royalties": ROYALTY_TABLES["open-face"],
    "surrender_cost": _d(2),
    "fantasyland_cards": 13,
}
_MAU_BINH: Final[dict[str, Any]] = {
    "royalties": ROYALTY_TABLES["mau-binh"],
    "royalty_mode": "row_win",
    "scoop_all_multiplier": _d(4),
    "naturals": NATURAL_TABLES["mau-binh"],
    "false_natural_penalty": _d(6),
}
PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "classic-1-6": {**_CLASSIC, "bonus": "1-6"},
    "classic-2-4": {**_CLASSIC, "bonus": "2-4"},
    "ofc": _OFC,
    "pineapple": {**_OFC, "max_players": 3, "fantasyland_cards": 14},
    "mau-binh-south": {**_MAU_BINH, "wheel": "second"},
    "mau-binh-north": {**_MAU_BINH, "wheel": "low"},
    "big-two": {"game": "big-two"},
}


@cache
def preset_rules(name: str) -> Rules:
    """The rules of a preset, with no overrides (one shared instance per preset)."""
    if name not in PRESETS:
        raise RuleError(
            f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}", "rules.preset"
        )
    return Rules(preset=name, **PRESETS[name])


# --- validation of single values -------------------------------------------------------


def _fail(name: str, value: object, expected: str) -> RuleError:
    return RuleError(f"rules.{name}: {value!r} is not {expected}", f"rules.{name}")


def _decimal(name: str, value: object, *, minimum: Decimal = Decimal(0)) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise _fail(name, value, "a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise _fail(name, value, "a finite number")
    try:
        number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        raise _fail(name, value, "a number") from None
    if not number.is_finite():
        raise _fail(name, value, "a finite number")
    if number < minimum:
        raise _fail(name, value, f"a number of at least {minimum}")
    return number


def _optional_decimal(name: str, value: object, *, minimum: Decimal = Decimal(0)) -> Decimal | None:
    return None if value is None else _decimal(name, value, minimum=minimum)


def _choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise _fail(name, value, "one of " + ", ".join(repr(c) for c in choices))
    return value


def _bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _fail(name, value, "true or false")
    return value


def _int(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(name, value, f"a whole number from {lo} to {hi}")
    return value


_ROYALTY_KEYS: Final[dict[Row, frozenset[str]]] = {
    "front": frozenset(
        {"pair", "trips"} | {f"{k}_{r}" for k in ("pair", "trips") for r in RANK_CHARS}
    ),
    "middle": frozenset(
        set(CATEGORIES[1:])
        | {"royal_flush"}
        | {f"{k}_{r}" for k in ("pair", "trips", "quads") for r in RANK_CHARS}
    ),
    "back": frozenset(),
}
_ROYALTY_KEYS["back"] = _ROYALTY_KEYS["middle"]


def _royalties(value: object, base: RoyaltyTable) -> RoyaltyTable:
    """A table by name, or a mapping of rows whose entries update ``base`` (null removes)."""
    if isinstance(value, str):
        if value not in ROYALTY_TABLES:
            raise _fail("royalties", value, "one of " + ", ".join(map(repr, ROYALTY_TABLES)))
        return ROYALTY_TABLES[value]
    if not isinstance(value, Mapping):
        raise _fail("royalties", value, "a table name or a mapping of rows")
    table: dict[Row, dict[str, Decimal]] = {row: dict(base[row]) for row in ROWS}
    for row, entries in value.items():
        if row not in ROWS:
            raise RuleError(
                f"rules.royalties: unknown row {row!r} (rows are front, middle, back)",
                "rules.royalties",
            )
        if not isinstance(entries, Mapping):
            raise _fail(f"royalties.{row}", entries, "a mapping of hands to units")
        for key, units in entries.items():
            if key not in _ROYALTY_KEYS[row]:
                raise RuleError(
                    f"rules.royalties.{row}: unknown hand {key!r} (use a category such as "
                    f"'full_house', or 'pair_Q' / 'trips_7' for a given rank)",
                    f"rules.royalties.{row}.{key}",
                )
            if units is None:
                table[row].pop(key, None)
            else:
                table[row][key] = _decimal(f"royalties.{row}.{key}", units)
    return cast(RoyaltyTable, table)


def _naturals(value: object, base: Mapping[str, Decimal | None]) -> Mapping[str, Decimal | None]:
    if isinstance(value, str):
        if value not in NATURAL_TABLES:
            raise _fail("naturals", value, "one of " + ", ".join(map(repr, NATURAL_TABLES)))
        return NATURAL_TABLES[value]
    if not isinstance(value, Mapping):
        raise _fail("naturals", value, "a table name or a mapping of naturals to units")
    table = dict(base)
    for key, units in value.items():
        if key not in NATURALS:
            raise RuleError(
                f"rules.naturals: unknown natural {key!r}; known: {', '.join(NATURALS)}",
                f"rules.naturals.{key}",
            )
        table[key] = _optional_decimal(f"naturals.{key}", units)
    return table


def _multipliers(value: object) -> tuple[tuple[int, Decimal], ...]:
    if not isinstance(value, (list, tuple)):
        raise _fail("multipliers", value, "a list of [cards left, multiplier] pairs")
    steps: list[tuple[int, Decimal]] = []
    for step in value:
        if not isinstance(step, (list, tuple)) or len(step) != 2:
            raise _fail("multipliers", step, "a [cards left, multiplier] pair")
        steps.append(
            (_int("multipliers", step[0], 1, 13), _decimal("multipliers", step[1], minimum=_d(1)))
        )
    steps.sort()
    if len({cards for cards, _ in steps}) != len(steps):
        raise _fail("multipliers", value, "a list with each threshold once")
    return tuple(steps)


def _parse_option(name: str, value: Any, base: Rules) -> Any:
    """The validated value of one override."""
    if name in ("foul_counts_as_scoop", "royalty_best_only", "foul_pays_royalties"):
        return _bool(name, value)
    if name in ("natural_collects_from_surrendered", "criss_cross", "progressive"):
        return _bool(name, value)
    if name == "losers_settle":
        return _bool(name, value)
    if name == "wheel":
        return _choice(name, value, ("low", "second"))
    if name == "middle":
        return _choice(name, value, ("standard", "lowball-2-7"))
    if name == "bonus":
        return _choice(name, value, ("1-6", "2-4", "none"))
    if name == "royalty_mode":
        return _choice(name, value, ("always", "row_win"))
    if name == "foul_penalty":
        return "sweep" if value == "sweep" else _decimal(name, value)
    if name in ("surrender_cost", "false_natural_penalty", "target_score"):
        return _optional_decimal(name, value)
    if name in ("scoop_all_multiplier", "two_multiplier"):
        return _optional_decimal(name, value, minimum=_d(1))
    if name == "royalties":
        return _royalties(value, base.royalties)
    if name == "naturals":
        return _naturals(value, base.naturals)
    if name == "max_players":
        return _int(name, value, 2, 4)
    if name == "fantasyland_cards":
        return None if value is None else _int(name, value, 13, 17)
    if name == "multipliers":
        return _multipliers(value)
    raise AssertionError(name)  # pragma: no cover - every option is handled above


def rules_from_mapping(spec: str | Mapping[str, Any]) -> Rules:
    """See ``Rules.from_mapping``."""
    if isinstance(spec, str):
        return preset_rules(spec)
    if not isinstance(spec, Mapping):
        raise RuleError("rules: expected a preset name or a mapping with 'preset'", "rules")
    name = spec.get("preset")
    if not isinstance(name, str):
        raise RuleError("rules.preset: a preset name is required", "rules.preset")
    base = preset_rules(name)
    allowed = OPTIONS_BY_GAME[base.game]
    changes: dict[str, Any] = {}
    for option, value in spec.items():
        if option == "preset":
            continue
        if option == "game":
            if value != base.game:
                raise _fail("game", value, f"{base.game!r}: the game comes with the preset")
            continue
        if option not in allowed:
            known = option in _CHINESE_OPTIONS | _OPEN_FACE_OPTIONS | _BIG_TWO_OPTIONS
            reason = f"does not apply to {base.game}" if known else "is not a known option"
            raise RuleError(f"rules.{option}: {option!r} {reason}", f"rules.{option}")
        changes[option] = _parse_option(option, value, base)
    rules = dataclasses.replace(base, **changes)
    _check_consistency(rules)
    return rules


def _check_consistency(rules: Rules) -> None:
    if rules.scoop_all_multiplier is not None and rules.bonus != "1-6":
        raise RuleError(
            "rules.scoop_all_multiplier: only applies with bonus '1-6'",
            "rules.scoop_all_multiplier",
        )
    if rules.criss_cross and rules.max_players < 2:  # pragma: no cover - max_players >= 2
        raise RuleError("rules.criss_cross: needs two players", "rules.criss_cross")
    if rules.game == "open-face" and rules.progressive and rules.fantasyland_cards is None:
        raise RuleError(
            "rules.progressive: needs fantasy land (fantasyland_cards)", "rules.progressive"
        )


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
