"""Validation of single rule options: each override of a preset becomes a typed value,
or a ``RuleError`` naming the option (``rules.OPTION``) and what was expected.

With ``bounds`` (rules being set, not stored rules being read) a number must also fit its
option's ``Bounds``: at most so large, with at most so many decimal places.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, Final, cast

from .cards import RANK_CHARS
from .errors import RuleError, message
from .options import OPTIONS_BY_NAME, Bounds, Option
from .ranking import CATEGORIES
from .tables import NATURAL_TABLES, NATURALS, ROWS, ROYALTY_TABLES, Row, RoyaltyTable


def rule_error(name: str, value: object, expected: str, /, **args: Any) -> RuleError:
    """The error for the option ``name`` given ``value`` instead of what the message
    ``expected`` (an ``expected_*`` code with ``args``) says."""
    return RuleError.refused(
        "option_value",
        f"rules.{name}",
        option=name,
        value=repr(value),
        expected=message(expected, **args),
    )


def _decimal(
    name: str, value: object, *, minimum: Decimal = Decimal(0), bounds: Bounds | None = None
) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise rule_error(name, value, "expected_number")
    if isinstance(value, float) and not math.isfinite(value):
        raise rule_error(name, value, "expected_finite")
    try:
        number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        raise rule_error(name, value, "expected_number") from None
    if not number.is_finite():
        raise rule_error(name, value, "expected_finite")
    if number < minimum:
        raise rule_error(name, value, "expected_at_least", minimum=minimum)
    if bounds is not None:
        _within(name, value, number, bounds)
    return number


def _within(name: str, value: object, number: Decimal, bounds: Bounds) -> None:
    if number > bounds.maximum:
        raise RuleError.refused(
            "option_at_most",
            f"rules.{name}",
            option=name,
            maximum=bounds.maximum,
            value=repr(value),
        )
    exponent = number.normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > bounds.places:
        code = {0: "option_whole", 1: "option_place"}.get(bounds.places, "option_places")
        raise RuleError.refused(
            code, f"rules.{name}", option=name, places=bounds.places, value=repr(value)
        )


def _optional_decimal(
    name: str, value: object, *, minimum: Decimal = Decimal(0), bounds: Bounds | None = None
) -> Decimal | None:
    return None if value is None else _decimal(name, value, minimum=minimum, bounds=bounds)


def _choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise rule_error(name, value, "expected_one_of", choices=[repr(c) for c in choices])
    return value


def _bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise rule_error(name, value, "expected_bool")
    return value


def _int(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise rule_error(name, value, "expected_whole", low=lo, high=hi)
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


def _royalties(value: object, base: RoyaltyTable, bounds: Bounds | None) -> RoyaltyTable:
    """A table by name, or a mapping of rows whose entries update ``base`` (null removes)."""
    if isinstance(value, str):
        if value not in ROYALTY_TABLES:
            raise rule_error(
                "royalties", value, "expected_one_of", choices=list(map(repr, ROYALTY_TABLES))
            )
        return ROYALTY_TABLES[value]
    if not isinstance(value, Mapping):
        raise rule_error("royalties", value, "expected_table_or_rows")
    table: dict[Row, dict[str, Decimal]] = {row: dict(base[row]) for row in ROWS}
    for row, entries in value.items():
        if row not in ROWS:
            raise RuleError.refused("royalty_row_unknown", "rules.royalties", value=repr(row))
        if not isinstance(entries, Mapping):
            raise rule_error(f"royalties.{row}", entries, "expected_hand_units")
        for key, units in entries.items():
            if key not in _ROYALTY_KEYS[row]:
                raise RuleError.refused(
                    "royalty_hand_unknown", f"rules.royalties.{row}.{key}", row=row, value=repr(key)
                )
            if units is None:
                table[row].pop(key, None)
            else:
                table[row][key] = _decimal(f"royalties.{row}.{key}", units, bounds=bounds)
    return cast(RoyaltyTable, table)


def _naturals(
    value: object, base: Mapping[str, Decimal | None], bounds: Bounds | None
) -> Mapping[str, Decimal | None]:
    if isinstance(value, str):
        if value not in NATURAL_TABLES:
            raise rule_error(
                "naturals", value, "expected_one_of", choices=list(map(repr, NATURAL_TABLES))
            )
        return NATURAL_TABLES[value]
    if not isinstance(value, Mapping):
        raise rule_error("naturals", value, "expected_table_or_naturals")
    table = dict(base)
    for key, units in value.items():
        if key not in NATURALS:
            raise RuleError.refused(
                "natural_rule_unknown", f"rules.naturals.{key}", value=repr(key), known=NATURALS
            )
        table[key] = _optional_decimal(f"naturals.{key}", units, bounds=bounds)
    return table


def _multipliers(
    value: object, option: Option, bounds: Bounds | None
) -> tuple[tuple[int, Decimal], ...]:
    lo, hi = option.whole
    if not isinstance(value, (list, tuple)):
        raise rule_error("multipliers", value, "expected_steps")
    steps: list[tuple[int, Decimal]] = []
    for step in value:
        if not isinstance(step, (list, tuple)) or len(step) != 2:
            raise rule_error("multipliers", step, "expected_step")
        steps.append(
            (
                _int("multipliers", step[0], lo, hi),
                _decimal("multipliers", step[1], minimum=option.minimum, bounds=bounds),
            )
        )
    steps.sort()
    if len({cards for cards, _ in steps}) != len(steps):
        raise rule_error("multipliers", value, "expected_steps_once")
    return tuple(steps)


def parse_option(name: str, value: Any, base: Any, *, limits: bool = False) -> Any:
    """The validated value of one override, as its entry in ``options.OPTIONS`` says;
    ``base`` is the option's value in the preset (a royalty or naturals mapping updates
    the preset's table). ``limits``: numbers must also fit the option's ``bounds``."""
    option = OPTIONS_BY_NAME[name]
    kind = option.kind
    bounds = option.bounds if limits else None
    if kind == "bool":
        return _bool(name, value)
    if kind == "choice":
        return _choice(name, value, option.choices)
    if kind == "number-or-sweep":
        if value == "sweep":
            return "sweep"
        return _decimal(name, value, minimum=option.minimum, bounds=bounds)
    if kind == "number-or-none":
        return _optional_decimal(name, value, minimum=option.minimum, bounds=bounds)
    if kind == "int" or (kind == "int-or-none" and value is not None):
        return _int(name, value, *option.whole)
    if kind == "int-or-none":
        return None
    if kind == "table":
        if name == "royalties":
            return _royalties(value, base, bounds)
        return _naturals(value, base, bounds)
    if kind == "multipliers":
        return _multipliers(value, option, bounds)
    raise AssertionError(name)  # pragma: no cover - every kind is handled above
