"""What if: a deal's rules with one option changed, and the deal's result beside it.

Any option of the option table (``options.OPTIONS``) that applies to the deal's game may be
changed, and its new value is checked as the rules form checks it (its kind, its bounds);
the rules that result must still hold together (``Rules.from_mapping``). Errors name the
option. Nothing here stores anything: the caller scores the deal again under
``changed_rules`` and compares with ``compare``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .errors import RuleError
from .games import GAMES
from .options import OPTIONS_BY_GAME, OPTIONS_BY_NAME
from .rules import Rules, decimal_text, rules_from_mapping, rules_to_mapping
from .validate import parse_option

__all__ = ["changed_rules", "compare", "options_for"]


def options_for(rules: Rules) -> list[str]:
    """The options a what-if may change under ``rules``: those of its game, in the table's
    order."""
    allowed = OPTIONS_BY_GAME[rules.game]
    return [name for name in OPTIONS_BY_NAME if name in allowed]


def changed_rules(rules: Mapping[str, Any], option: object, value: object) -> Rules:
    """The rules stored with a deal (``rules``, as ``Rules.to_mapping`` wrote them) with
    ``option`` set to ``value``. A royalty or naturals mapping updates the deal's own table.

    ``RuleError`` (field ``option`` or ``value``) for an option that is unknown or not of
    the deal's game, for a value its kind or bounds refuse, or for rules that no longer
    hold together; its message names the option.
    """
    stored = rules_from_mapping(rules)
    if not isinstance(option, str) or option not in OPTIONS_BY_NAME:
        raise RuleError.refused(
            "what_if_unknown", "option", value=repr(option), known=options_for(stored)
        )
    if option not in OPTIONS_BY_GAME[stored.game]:
        raise RuleError.refused(
            "what_if_not_of_game",
            "option",
            value=repr(option),
            game=GAMES[stored.game].display_name,
        )
    try:
        parsed = parse_option(option, value, getattr(stored, option), limits=True)
        # Read back from its mapping, so that every check of a whole rule set applies.
        return rules_from_mapping(rules_to_mapping(dataclasses.replace(stored, **{option: parsed})))
    except RuleError as error:
        if error.field is not None and (
            error.field == f"rules.{option}" or error.field.startswith(f"rules.{option}.")
        ):
            raise RuleError(error.message, "value", error.code) from None
        # another option refuses the change
        raise RuleError.refused(
            "what_if_refused", "value", option=option, value=repr(value), reason=error.code
        ) from None


def compare(recorded: Mapping[str, Any], what_if: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per player of two results of one deal (the engine's, by name in the recorded order):
    the units recorded, the units under the changed rules and the difference, as exact text;
    the money too when the results carry it."""
    other = {player["name"]: player for player in what_if["players"]}
    rows = []
    for player in recorded["players"]:
        then = Decimal(player["units"])
        now = Decimal(other[player["name"]]["units"])
        row = {
            "name": player["name"],
            "recorded": decimal_text(then),
            "what_if": decimal_text(now),
            "difference": decimal_text(now - then),
        }
        if "money" in player and "money" in other[player["name"]]:
            money_then = Decimal(player["money"])
            money_now = Decimal(other[player["name"]]["money"])
            row |= {
                "recorded_money": decimal_text(money_then),
                "what_if_money": decimal_text(money_now),
                "money_difference": decimal_text(money_now - money_then),
            }
        rows.append(row)
    return rows
