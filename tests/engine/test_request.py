"""Request validation: every rejection names its culprit in words and by field path."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import ScoreError, score_request

ANN = {"name": "Ann", "front": "2c 3d 5h", "middle": "Kc Kd 4s 5s 9h", "back": "Ac Ad Ah 7c 8d"}
BOB = {"name": "Bob", "front": "Qs Qh 2d", "middle": "Qc Qd Js Ts 6s", "back": "Jc Jd 7s 7h 8s"}


def _with(player: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**player, **changes}


REJECTED = [
    (
        {"rules": "standard", "players": [_with(ANN, front="2c 3d 5x"), BOB]},
        "Ann, front: unknown suit 'x' in '5x'",
        "players[0].front",
    ),
    (
        {"rules": "standard", "players": [ANN, _with(BOB, back="Jc Jd 7s 7h 8d")]},
        "card 8d appears twice: Ann's back and Bob's back",
        "players[1].back",
    ),
    (
        {"rules": "standard", "players": [ANN, _with(BOB, middle="Qc Qd Js Ts")]},
        "Bob, middle: 4 cards given (Qc Qd Js Ts), the middle row needs 5",
        "players[1].middle",
    ),
    (
        {"rules": "standard", "players": [ANN, _with(BOB, frnt="2c")]},
        "Bob: unknown field 'frnt'",
        "players[1].frnt",
    ),
    (
        {"rules": "standard", "players": [ANN, _with(BOB, name="Ann")]},
        "two players are named 'Ann'",
        "players[1].name",
    ),
    (
        {"rules": "standard", "players": [ANN, _with(BOB, surrender=True)]},
        "Bob surrendered, but surrender is not allowed under these rules",
        "players[1].surrender",
    ),
    (
        {"rules": "classic-1-6", "players": [_with(ANN, natural="dragon"), BOB]},
        "Ann declared dragon, but the cards do not make it",
        "players[0].natural",
    ),
    (
        {"rules": {"preset": "standard", "bonus": "3-3"}, "players": [ANN, BOB]},
        "rules.bonus: '3-3' is not one of '1-6', '2-4', 'none'",
        "rules.bonus",
    ),
    ({"players": [ANN, BOB]}, "rules: a preset name", "rules"),
    ({"rules": "standard", "players": [ANN]}, "needs 2 to 4 players", "players"),
    (
        {"rules": "pineapple", "players": [ANN, BOB, ANN, BOB]},
        "needs 2 to 3 players under 'pineapple', got 4",
        "players",
    ),
    (
        {
            "rules": "standard",
            "players": [ANN, BOB],
            "stakes": {"pairs": [{"players": ["Ann", "Zed"], "multiplier": 2}]},
        },
        "players must name two players of this deal",
        "stakes.pairs[0]",
    ),
    ("not a mapping", "the request must be an object", "request"),
]


@pytest.mark.parametrize(("request_", "message", "field"), REJECTED)
def test_rejections_name_the_culprit(request_: Any, message: str, field: str) -> None:
    with pytest.raises(ScoreError) as caught:
        score_request(request_)
    assert message in caught.value.message
    assert caught.value.field == field
