"""Every public vector in ../shared/vectors, scored by the engine directly."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from games.engine import ScoreError, score_request
from tests.vectors import load_cases, mismatches

CASES = load_cases()


def test_all_vector_files_are_read() -> None:
    files = {case["file"] for case in CASES}
    assert files == {"chinese_poker.json", "big_two.json"}
    assert len(CASES) >= 44


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case: dict[str, Any]) -> None:
    if "expect_error" in case:
        with pytest.raises(ScoreError) as caught:
            score_request(case["request"])
        for text in case["expect_error"]["mentions"]:
            assert text in caught.value.message
        return
    result = score_request(case["request"])
    assert mismatches(case["expect"], result) == []
    assert sum(Decimal(p["units"]) for p in result["players"]) == 0
