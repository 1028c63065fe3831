"""RULES section 13's worked examples answer as written through ``POST /api/v1/score/``
and ``manage.py score`` (their reasoning is beside them in ``tests/engine/test_house_rules``),
and the refusals reach the caller as the one error shape, naming the player or option."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.engine.test_house_rules import WORKED

SCORE_URL = "/api/v1/score/"


def _units(result: dict[str, Any]) -> dict[str, Decimal]:
    return {p["name"]: Decimal(p["units"]) for p in result["players"]}


@pytest.mark.parametrize(("name", "request_", "expected"), WORKED, ids=[w[0] for w in WORKED])
def test_worked_examples_through_the_api(
    client: Client, name: str, request_: dict[str, Any], expected: dict[str, str]
) -> None:
    response = client.post(SCORE_URL, request_, content_type="application/json")

    assert response.status_code == 200, response.content
    assert _units(response.json()) == {k: Decimal(v) for k, v in expected.items()}


@pytest.mark.parametrize(("name", "request_", "expected"), WORKED, ids=[w[0] for w in WORKED])
def test_worked_examples_through_manage_py_score(
    monkeypatch: pytest.MonkeyPatch, name: str, request_: dict[str, Any], expected: dict[str, str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(request_).encode())))
    out = io.StringIO()

    call_command("score", stdout=out)

    assert _units(json.loads(out.getvalue())) == {k: Decimal(v) for k, v in expected.items()}


TWO_PAY = {
    "rules": "big-two",
    "players": [
        {"name": "Ann", "cards_left": 0},
        {"name": "Bob", "cards_left": 3, "pays_for_all": True},
        {"name": "Cy", "cards_left": 5, "pays_for_all": True},
    ],
}


def test_a_refusal_names_the_player_through_the_api(client: Client) -> None:
    response = client.post(SCORE_URL, TWO_PAY, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {
        "error": "Cy: Bob already pays for all; at most one player does",
        "field": "players[2].pays_for_all",
        "code": "pays_for_all_twice",
        "args": {"who": "Cy", "first": "Bob"},
    }


def test_a_refusal_names_the_option_through_manage_py_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = {
        "rules": {"preset": "big-two", "two_bonus": 1, "two_multiplier": 2},
        "players": TWO_PAY["players"][:2],
    }
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(request).encode())))
    out = io.StringIO()

    with pytest.raises(CommandError):
        call_command("score", stdout=out)

    assert json.loads(out.getvalue())["field"] == "rules.two_bonus"
