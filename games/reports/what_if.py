"""What if: a recorded deal scored again under its rules with one option changed.

Reads only: the deal's stored request and rules go to the engine, and the answer is put
beside the recorded result. Nothing is written (no deal, no revision, no ledger row), so
asking settles an argument at the table without changing the night.
"""

from __future__ import annotations

from typing import Any

from games.engine import ScoreError
from games.engine.rules import Rules
from games.engine.what_if import changed_rules, compare
from games.models import Deal
from games.sitting_out import score_playing


def deal_what_if(deal: Deal, option: object, value: object) -> dict[str, Any]:
    """The deal under its rules with ``option`` set to ``value``, beside what was recorded.

    ``deal``, ``option``, ``value`` (as the rules take it, e.g. "sweep" or "4"),
    ``recorded_value`` (the option's value the deal was scored under), ``players`` (per
    player: ``recorded``, ``what_if`` and ``difference`` in units, and in money when the
    deal has stakes) and ``result`` (the engine's whole result under the changed rules).
    ``ScoreError`` naming the option when the option or the value is refused, or when the
    deal cannot be scored under the changed rules (``field`` "option" or "value").
    """
    rules = changed_rules(deal.rules, option, value)
    assert isinstance(option, str)  # changed_rules refuses anything but an option's name
    try:
        result = score_playing({**deal.request, "rules": rules.to_mapping()})
    except ScoreError as error:
        raise ScoreError(
            f"rules.{option}: this deal cannot be scored with {option} {value!r}: {error.message}",
            "value",
        ) from None
    return {
        "deal": deal.number,
        "option": option,
        "value": rules.mapping[option],
        "recorded_value": Rules.from_mapping(deal.rules).mapping[option],
        "players": compare(deal.result, result),
        "result": result,
    }
