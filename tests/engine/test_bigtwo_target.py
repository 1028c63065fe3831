"""Big Two's target score: who has reached it, told in words."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.engine.bigtwo import target_reason
from games.engine.rules import Rules


@pytest.mark.parametrize(
    ("totals", "reason"),
    [
        ({"Ann": "8", "Di": "-8"}, None),
        ({"Ann": "33", "Di": "-33"}, "Di lost 33, the target is 30"),
        ({"Ann": "60", "Bob": "-30", "Di": "-30"}, "Bob lost 30 and Di lost 30, the target is 30"),
    ],
)
def test_target_reason_names_who_lost_how_much(totals: dict[str, str], reason: str | None) -> None:
    rules = Rules.from_mapping({"preset": "big-two", "target_score": 30})
    found = target_reason({name: Decimal(v) for name, v in totals.items()}, rules)
    assert found == reason
