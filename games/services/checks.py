"""Checks of the values a change brings (amounts, currency codes), shared by the services.

The bounds of the stakes live here, as the bounds of rule options live in the engine's
option table (``games.engine.options``): the API, the web forms and import all reach them
through the services (or call them directly), so they are written once.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Final, NamedTuple

from games.engine.options import AMOUNT
from games.errors import ServiceError


def currency(code: str) -> str:
    """A three-letter currency code, upper case."""
    if not (len(code) == 3 and code.isascii() and code.isalpha()):
        raise ServiceError(f"currency: expected a 3-letter code, got {code!r}", "currency")
    return code.upper()


class StakeBounds(NamedTuple):
    """A stake is more than 0, at most ``maximum``, with at most ``places`` decimals."""

    maximum: Decimal
    places: int


# What one unit is worth, in the group's currency.
UNIT_VALUE: Final = StakeBounds(Decimal(10_000_000), 2)
# A pair's multiple of the unit.
MULTIPLIER: Final = StakeBounds(Decimal(10), 1)

# Why these bounds: a deal's units are at most 0.1-steps (rule amounts have one decimal,
# multipliers are whole or have one decimal only where nothing else multiplies them), so
# money = units x unit value x multiple has at most 1 + 2 + 1 = 4 decimals, the ledger's
# step. The largest a pair can win in one deal is below 6,000 units (a scoop of all three
# rows worth 100 each, times 10; or 13 cards left x 5 x 3^4 in Big Two), and 6,000 x
# 10,000,000 x 10 stays below the ledger's 10^14. A unit worth millions is real: tables
# playing for Vietnamese dong set units of 100,000 and more.
assert UNIT_VALUE.places + MULTIPLIER.places + AMOUNT.places <= 4


def _shown(value: object) -> str:
    text = repr(str(value) if isinstance(value, Decimal) else value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _places(number: Decimal) -> int:
    exponent = number.normalize().as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def _number(value: object, field: str, label: str | None = None) -> Decimal:
    label = label or field
    if isinstance(value, bool) or not isinstance(value, (Decimal, int, str, float)):
        raise ServiceError(f"{label}: expected a number, got {_shown(value)}", field)
    try:
        number = Decimal(str(value).strip())
    except ArithmeticError:
        raise ServiceError(f"{label}: expected a number, got {_shown(value)}", field) from None
    if not number.is_finite():
        raise ServiceError(f"{label}: expected a finite number, got {_shown(value)}", field)
    return number


def amount(value: Decimal | int | str, field: str) -> Decimal:
    """A number of at least 0 with at most 4 decimal places (as stored deals keep them)."""
    number = _number(value, field)
    if number < 0:
        raise ServiceError(f"{field}: expected a number of at least 0, got {_shown(value)}", field)
    if _places(number) > 4:
        raise ServiceError(f"{field}: at most 4 decimal places, got {_shown(value)}", field)
    return number


def stake(value: object, field: str, bounds: StakeBounds) -> Decimal:
    """A unit value or a pair's multiple being set: within ``bounds``, or a ServiceError
    worded by the cause."""
    label = field.replace("_", " ")
    number = _number(value, field, label)
    if number <= 0:
        raise ServiceError(f"{label}: must be more than 0, got {_shown(value)}", field)
    if number > bounds.maximum:
        raise ServiceError(f"{label}: at most {bounds.maximum:,}, got {_shown(value)}", field)
    if _places(number) > bounds.places:
        s = "s" if bounds.places != 1 else ""
        raise ServiceError(
            f"{label}: at most {bounds.places} decimal place{s}, got {_shown(value)}", field
        )
    return number


def unit_value(value: object, field: str = "unit_value") -> Decimal:
    """What one unit is worth, being set (see ``UNIT_VALUE``)."""
    return stake(value, field, UNIT_VALUE)


def multiplier(value: object, field: str = "multiplier") -> Decimal:
    """A pair's multiple of the unit, being set (see ``MULTIPLIER``)."""
    return stake(value, field, MULTIPLIER)
