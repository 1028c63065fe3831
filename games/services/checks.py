"""Checks of the values a change brings (amounts, currency codes), shared by the services."""

from __future__ import annotations

from decimal import Decimal

from games.errors import ServiceError


def currency(code: str) -> str:
    """A three-letter currency code, upper case."""
    if not (len(code) == 3 and code.isascii() and code.isalpha()):
        raise ServiceError(f"currency: expected a 3-letter code, got {code!r}", "currency")
    return code.upper()


def amount(value: Decimal | int | str, field: str) -> Decimal:
    """A number of at least 0 with at most 4 decimal places (a unit value, a multiple)."""
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        raise ServiceError(f"{field}: expected a number, got {value!r}", field) from None
    if not number.is_finite() or number < 0:
        raise ServiceError(f"{field}: expected a number of at least 0, got {value!r}", field)
    exponent = number.normalize().as_tuple().exponent
    if isinstance(exponent, int) and exponent < -4:
        raise ServiceError(f"{field}: at most 4 decimal places, got {value!r}", field)
    return number
