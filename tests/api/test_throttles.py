"""Throttles on the stateless calculators, scoped by cost (score, arrange, arrange's expected
mode), counted per signed-in user and per anonymous address; and the smaller sample cap
for anonymous expected-mode calls.

Four anonymous ``mode: expected, samples: 20000`` calls (seconds of CPU each) once made a
signed-in user's ``GET /groups/`` take 8.8 s instead of 11 ms.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from games.api import throttles
from tests.api.conftest import API
from tests.vectors import SCORED

SCORE = f"{API}/score/"
ARRANGE = f"{API}/arrange/"
CARDS = "As Ad Ah Ac 2c Ks Kd Kh 7c 7d Qs Qd 3h"
HEURISTIC = {"cards": CARDS, "rules": "classic-1-6"}
EXPECTED = {**HEURISTIC, "mode": "expected", "samples": 50}
PLENTY = "1000/minute"


@pytest.fixture
def rates(settings: SettingsWrapper) -> dict[str, str | None]:
    """Every throttle rate plentiful; a test lowers the ones it is about (``set_rates``).
    pytest-django restores REST_FRAMEWORK afterwards, and DRF reloads it."""
    plenty: dict[str, str | None] = {
        f"{scope}-{who}": PLENTY
        for scope in ("score", "arrange", "expected")
        for who in ("anon", "user")
    }
    settings.REST_FRAMEWORK = {**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": plenty}
    return plenty


def set_rates(settings: SettingsWrapper, **rates: str | None) -> None:
    current: dict[str, Any] = {**api_settings.DEFAULT_THROTTLE_RATES}
    current.update({name.replace("_", "-"): rate for name, rate in rates.items()})
    settings.REST_FRAMEWORK = {**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": current}


def post(client: Client | APIClient, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body, content_type="application/json")


def assert_throttled(response: Any, *, within: int) -> None:
    assert response.status_code == 429, response.content
    assert set(response.json()) == {"error", "field"}
    assert response.json()["field"] is None
    assert "Too many requests" in response.json()["error"]
    wait = int(response["Retry-After"])
    assert 1 <= wait <= within
    assert f"try again in {wait} second" in response.json()["error"]


def test_anonymous_score_calls_beyond_the_rate_answer_429_with_retry_after(
    rates: dict[str, str | None], settings: SettingsWrapper
) -> None:
    set_rates(settings, score_anon="3/minute")
    client = Client()

    answers = [post(client, SCORE, SCORED[0]["request"]) for _ in range(4)]

    assert [a.status_code for a in answers[:3]] == [200, 200, 200]
    assert_throttled(answers[3], within=60)


def test_a_forwarded_for_header_does_not_make_a_new_caller(
    rates: dict[str, str | None], settings: SettingsWrapper
) -> None:
    # Without TRUST_X_FORWARDED_FOR the address is REMOTE_ADDR, whatever the client claims.
    set_rates(settings, score_anon="1/hour")

    first = Client(HTTP_X_FORWARDED_FOR="203.0.113.1").post(
        SCORE, SCORED[0]["request"], content_type="application/json"
    )
    second = Client(HTTP_X_FORWARDED_FOR="203.0.113.2").post(
        SCORE, SCORED[0]["request"], content_type="application/json"
    )

    assert first.status_code == 200
    assert_throttled(second, within=3600)


def test_signed_in_users_are_counted_apart_from_anonymous_callers_and_each_other(
    rates: dict[str, str | None],
    settings: SettingsWrapper,
    as_alice: APIClient,
    as_bob: APIClient,
) -> None:
    set_rates(settings, score_anon="1/minute", score_user="2/minute")
    assert post(Client(), SCORE, SCORED[0]["request"]).status_code == 200
    assert_throttled(post(Client(), SCORE, SCORED[0]["request"]), within=60)

    alice = [post(as_alice, SCORE, SCORED[0]["request"]).status_code for _ in range(2)]
    bob = post(as_bob, SCORE, SCORED[0]["request"])

    assert alice == [200, 200]
    assert_throttled(post(as_alice, SCORE, SCORED[0]["request"]), within=60)
    assert bob.status_code == 200


def test_a_user_signed_in_with_a_session_counts_as_that_user(
    rates: dict[str, str | None], settings: SettingsWrapper, alice: User
) -> None:
    set_rates(settings, score_anon="1/minute", score_user="3/minute")
    browser = Client()  # the test client sends the CSRF token a page would
    browser.force_login(alice)

    answers = [post(browser, SCORE, SCORED[0]["request"]).status_code for _ in range(3)]

    assert answers == [200, 200, 200]  # more than an anonymous caller may
    assert_throttled(post(browser, SCORE, SCORED[0]["request"]), within=60)


def test_a_session_without_its_csrf_token_is_refused_as_everywhere_in_the_api(
    rates: dict[str, str | None], alice: User
) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)

    response = post(browser, SCORE, SCORED[0]["request"])

    assert response.status_code == 403
    assert set(response.json()) == {"error", "field"}
    assert "CSRF" in response.json()["error"]


def test_a_bad_token_is_refused_rather_than_taken_for_anonymous(
    rates: dict[str, str | None], db: None
) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")

    response = post(client, SCORE, SCORED[0]["request"])

    assert response.status_code == 401
    assert response.json() == {"error": "Invalid token.", "field": None}


def test_expected_mode_has_its_own_lower_rate_on_top_of_arrange(
    rates: dict[str, str | None], settings: SettingsWrapper
) -> None:
    set_rates(settings, arrange_anon="4/minute", expected_anon="1/minute")
    client = Client()

    first_expected = post(client, ARRANGE, EXPECTED)
    second_expected = post(client, ARRANGE, EXPECTED)
    heuristic = post(client, ARRANGE, HEURISTIC)

    assert first_expected.status_code == 200
    assert_throttled(second_expected, within=60)
    assert heuristic.status_code == 200
    # Expected-mode calls count towards arrange's rate too: 3 so far, then 1 more.
    assert post(client, ARRANGE, HEURISTIC).status_code == 200
    assert_throttled(post(client, ARRANGE, HEURISTIC), within=60)


def test_the_other_calculator_and_the_rest_of_the_api_are_not_held_up(
    rates: dict[str, str | None], settings: SettingsWrapper, as_alice: APIClient
) -> None:
    set_rates(settings, arrange_anon="1/minute")
    client = Client()
    assert post(client, ARRANGE, HEURISTIC).status_code == 200
    assert_throttled(post(client, ARRANGE, HEURISTIC), within=60)

    assert post(client, SCORE, SCORED[0]["request"]).status_code == 200
    assert as_alice.get(f"{API}/groups/").status_code == 200


def test_a_rate_set_to_none_turns_that_throttle_off(
    rates: dict[str, str | None], settings: SettingsWrapper
) -> None:
    set_rates(settings, score_anon=None)
    client = Client()

    assert {post(client, SCORE, SCORED[0]["request"]).status_code for _ in range(5)} == {200}


def test_anonymous_callers_get_fewer_samples_and_are_told_why(
    rates: dict[str, str | None], settings: SettingsWrapper, as_alice: APIClient
) -> None:
    cap = django_settings.ARRANGE_ANON_MAX_SAMPLES
    over = {**EXPECTED, "samples": cap + 1}

    anonymous = post(Client(), ARRANGE, over)
    at_cap = post(Client(), ARRANGE, {**EXPECTED, "samples": cap})
    signed_in = post(as_alice, ARRANGE, over)

    assert anonymous.status_code == 400
    assert anonymous.json()["field"] == "samples"
    message = anonymous.json()["error"]
    assert f"from 1 to {cap}," in message
    assert "20000" in message and "sign" in message
    assert at_cap.status_code == 200, at_cap.content
    assert signed_in.status_code == 200, signed_in.content
    assert signed_in.json()["samples"] == cap + 1


def test_a_lower_anonymous_cap_lowers_the_default_sample_count_too(
    rates: dict[str, str | None], settings: SettingsWrapper
) -> None:
    settings.ARRANGE_ANON_MAX_SAMPLES = 100
    body = {k: v for k, v in EXPECTED.items() if k != "samples"}

    answer = post(Client(), ARRANGE, body)

    assert answer.status_code == 200, answer.content
    assert answer.json()["samples"] == 100


def test_the_counts_live_in_the_shared_cache() -> None:
    # The default cache: Redis (CACHE_URL) in production, shared by every gunicorn worker;
    # local memory in tests, emptied before each test (tests/conftest.py).
    assert throttles.CostThrottle.cache is cache


def test_the_default_rates_are_set_for_every_scope() -> None:
    rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES

    assert set(rates) == {
        f"{scope}-{who}" for scope in ("score", "arrange", "expected") for who in ("anon", "user")
    }


def test_anonymous_fantasy_land_hands_are_capped_and_the_caller_told_why(
    rates: dict[str, str | None], settings: SettingsWrapper, as_alice: APIClient
) -> None:
    settings.ARRANGE_ANON_MAX_FANTASY_CARDS = 14
    fourteen = {"cards": "Ac Ad Ah Ks Kd 2c 3c 4c 5c 6c 7h 8h 9s Jd", "rules": "pineapple"}
    fifteen = {"cards": fourteen["cards"] + " Qs", "rules": {"preset": "ofc", "progressive": True}}

    anonymous = post(Client(), ARRANGE, fifteen)
    at_cap = post(Client(), ARRANGE, fourteen)
    signed_in = post(as_alice, ARRANGE, fifteen)

    assert anonymous.status_code == 400
    assert anonymous.json() == {
        "error": "cards: at most 14 cards for a fantasy-land hand here, got 15;"
        " signed in (an API token) you may arrange up to 17 cards",
        "field": "cards",
        "code": "anonymous_fantasy",
        "args": {"reason": {"code": "arrange_fantasy_most", "args": {"most": 14, "count": 15}}},
    }
    assert at_cap.status_code == 200, at_cap.content
    assert signed_in.status_code == 200, signed_in.content
    assert len(signed_in.json()["discards"].split()) == 2
