"""The stakes a deal stores with its request, read and written in one place.

The format is the engine's score request ``stakes``::

    {"unit_value": "0.5", "pairs": [{"players": ["Ann", "Bob"], "multiplier": "2"}]}

Pairs are named by the names the players sat down with; a pair not listed plays at the
unit (x1). What is stored was validated by the engine when the deal was scored, so these
readers trust it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from games.engine.rules import decimal_text

ONE = Decimal(1)

Pair = tuple[str, str]


def stakes_mapping(
    unit_value: Decimal, pairs: Iterable[tuple[str, str, Decimal]]
) -> dict[str, Any]:
    """The stored form of a unit value and the (name, name, multiplier) of some pairs."""
    return {
        "unit_value": decimal_text(unit_value),
        "pairs": [
            {"players": [a, b], "multiplier": decimal_text(multiplier)}
            for a, b, multiplier in pairs
        ],
    }


def restricted(stakes: Mapping[str, Any] | None, names: Iterable[str]) -> dict[str, Any] | None:
    """The stakes without the pairs that are not both among ``names``."""
    if stakes is None:
        return None
    present = set(names)
    pairs = [pair for pair in stakes.get("pairs", []) if set(pair["players"]) <= present]
    return {**stakes, "pairs": pairs}


def unit_value(stakes: Mapping[str, Any] | None) -> Decimal | None:
    """The unit's value the stakes name, if they name one."""
    if not stakes or "unit_value" not in stakes:
        return None
    return Decimal(stakes["unit_value"])


def pair_multiples(stakes: Mapping[str, Any] | None) -> dict[Pair, Decimal]:
    """Each listed pair's multiple of the unit, keyed by the pair's names in sorted order."""
    out: dict[Pair, Decimal] = {}
    for pair in (stakes or {}).get("pairs", ()):
        first, second = sorted(pair["players"])
        out[(first, second)] = Decimal(pair["multiplier"])
    return out


def multiple(stakes: Mapping[str, Any] | None, first: str, second: str) -> Decimal:
    """The pair's multiple of the unit under these stakes (1 unless agreed otherwise)."""
    a, b = sorted((first, second))
    return pair_multiples(stakes).get((a, b), ONE)
