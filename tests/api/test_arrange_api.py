"""POST /api/v1/arrange/: the engine's arrangement over HTTP, no login needed."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine.cards import parse_cards
from games.engine.ranking import evaluate, front_beats

URL = "/api/v1/arrange/"
# Four aces, three kings, two sevens, two queens, a deuce and a three.
CARDS = "As Ad Ah Ac 2c Ks Kd Kh 7c 7d Qs Qd 3h"


def _post(body: Any) -> Any:
    return APIClient().post(URL, body, format="json")


def _legal(answer: dict[str, Any]) -> bool:
    front, middle, back = (
        evaluate(parse_cards(answer[row])) for row in ("front", "middle", "back")
    )
    return not front_beats(front, middle) and middle <= back


def test_heuristic_puts_the_quads_at_the_back() -> None:
    answer = _post({"cards": CARDS, "rules": "classic-1-6"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["mode"] == "heuristic"
    assert sorted(parse_cards(body["back"]))[-4:] == sorted(parse_cards("As Ad Ah Ac"))
    assert _legal(body)
    used = parse_cards(" ".join(body[row] for row in ("front", "middle", "back")))
    assert sorted(used) == sorted(parse_cards(CARDS))


def test_expected_mode_is_reproducible_and_legal() -> None:
    body = {"cards": CARDS, "rules": "classic-1-6", "mode": "expected", "seed": 7, "samples": 200}
    first, second = _post(body).json(), _post(body).json()
    assert first == second
    assert _legal(first)
    assert first["samples"] == 200 and first["seed"] == 7
    assert all(first["expected_units"] >= alt["expected_units"] for alt in first["alternatives"])


@pytest.mark.parametrize(
    ("body", "field", "mentions"),
    [
        ({"cards": "As Ad", "rules": "standard"}, "cards", "13 different cards"),
        ({"cards": CARDS.replace("3h", "As"), "rules": "standard"}, "cards", "12 different"),
        ({"cards": CARDS.replace("3h", "3x"), "rules": "standard"}, "cards", "'3x'"),
        ({"cards": CARDS}, "rules", "rules"),
        ({"cards": CARDS, "rules": "big-two"}, "rules", "Big Two"),
        ({"cards": CARDS, "rules": "standard", "mode": "best"}, "mode", "'best'"),
        ({"cards": CARDS, "rules": "standard", "mode": "expected", "samples": 0}, "samples", "1"),
        ({"cards": CARDS, "rules": "standard", "colour": "red"}, "colour", "unknown field"),
    ],
)
def test_bad_requests_name_the_field(body: dict[str, Any], field: str, mentions: str) -> None:
    answer = _post(body)
    assert answer.status_code == 400
    assert answer.json()["field"] == field
    assert mentions in answer.json()["error"]


def test_a_fantasy_land_hand_is_arranged_over_the_api() -> None:
    answer = _post({"cards": "Ac Ad Ah Ks Kd 2c 3c 4c 5c 6c 7h 8h 9s Jd", "rules": "pineapple"})
    assert answer.status_code == 200, answer.content
    assert (answer.json()["discards"], answer.json()["royalties"]) == ("7h", "27")
