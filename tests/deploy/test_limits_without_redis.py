"""The rate limits while Redis does not answer: each web process counts on its own until
Redis is back, instead of letting every call through.

The caches are production's, built by the settings for a ``CACHE_URL``: one where nothing
listens (``DEAD``), or this machine's Redis (database ``LIVE_DATABASE``). Each test gets
a key prefix of its own, so that neither the counts nor an outage seen by one test reach
another.
"""

from __future__ import annotations

import functools
import itertools
import json
import logging
import uuid
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
import redis
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache.backends.redis import RedisCacheClient
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st
from pytest_django.fixtures import Settings as SettingsWrapper

from games.lib import limits_cache
from scripts.prodkit import redis_answers
from tests.api.test_throttles import SCORE, assert_throttled, post, set_rates
from tests.conftest import skip_or_fail, xdist_worker
from tests.test_settings import load_settings
from tests.vectors import SCORED

# Nothing listens on this port of this machine: connections are refused at once.
DEAD = "redis://127.0.0.1:6390/0"
LIVE_DATABASE = 13
LIVE = f"redis://127.0.0.1:6379/{LIVE_DATABASE}"


@functools.cache
def production_caches(url: str) -> dict[str, Any]:
    """CACHES as the settings build them with ``CACHE_URL=url``."""
    result = load_settings("__import__('json').dumps(s.CACHES)", CACHE_URL=url)
    assert result.returncode == 0, result.stderr
    caches: dict[str, Any] = json.loads(result.stdout)
    return caches


def use_caches(settings: SettingsWrapper, url: str) -> str:
    """Production's cache for ``url``, under a key prefix of this test's own (returned)."""
    prefix = f"limits-test:{xdist_worker()}:{uuid.uuid4().hex}"
    caches = production_caches(url)
    settings.CACHES = {**caches, "default": {**caches["default"], "KEY_PREFIX": prefix}}
    return prefix


@pytest.fixture
def redis_down(settings: SettingsWrapper) -> str:
    return use_caches(settings, DEAD)


@pytest.fixture
def redis_up(settings: SettingsWrapper) -> str:
    if not redis_answers(LIVE):
        skip_or_fail(f"no Redis at {LIVE}")
    return use_caches(settings, LIVE)


@pytest.fixture
def rates(settings: SettingsWrapper) -> None:
    set_rates(settings, score_anon="2/minute")


@pytest.fixture
def asked_redis(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """One entry per time a cache call asked Redis for a connection."""
    asked: list[bool] = []
    original = RedisCacheClient.get_client

    def counted(self: RedisCacheClient, *args: Any, **kwargs: Any) -> Any:
        asked.append(True)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(RedisCacheClient, "get_client", counted)
    yield asked


def test_an_api_throttle_still_refuses_past_its_rate(redis_down: str, rates: None) -> None:
    client = Client()

    answers = [post(client, SCORE, SCORED[0]["request"]) for _ in range(3)]

    assert [a.status_code for a in answers[:2]] == [200, 200]
    assert_throttled(answers[2], within=60)


def test_sign_ups_are_still_counted(redis_down: str, settings: SettingsWrapper, db: None) -> None:
    settings.SIGNUP_LIMIT = 2
    client = Client()

    answers = [
        client.post(
            "/accounts/signup/", {"username": f"u{k}", "password1": "x", "password2": "y"}
        ).status_code
        for k in range(4)
    ]

    assert answers == [400, 400, 429, 429]


def test_reset_requests_are_still_counted(
    redis_down: str, settings: SettingsWrapper, db: None
) -> None:
    settings.PASSWORD_RESET_LIMIT = 1
    User.objects.create_user("carol", "carol@example.org", "carol's long password")
    client = Client()

    answers = [
        client.post("/accounts/password/reset/", {"email": "carol@example.org"}) for _ in range(3)
    ]

    assert [a.status_code for a in answers] == [302, 429, 429]
    assert len(mail.outbox) == 1


def test_an_outage_is_asked_about_once_and_logged_once(
    redis_down: str, rates: None, asked_redis: list[bool], caplog: pytest.LogCaptureFixture
) -> None:
    # Every call would otherwise wait for Redis (up to CACHES' 1 s socket timeout) and log.
    caplog.set_level(logging.INFO)
    client = Client()

    statuses = [post(client, SCORE, SCORED[0]["request"]).status_code for _ in range(5)]

    assert statuses == [200, 200, 429, 429, 429]
    assert len(asked_redis) == 1
    security = [r for r in caplog.records if r.name == "scorekeeper.security"]
    assert [(r.levelno, "Redis" in r.getMessage()) for r in security] == [(logging.WARNING, True)]
    assert "6390" in security[0].getMessage()


def test_counts_stay_in_redis_while_it_answers(
    redis_up: str, rates: None, asked_redis: list[bool]
) -> None:
    client = Client()

    statuses = [post(client, SCORE, SCORED[0]["request"]).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    assert len(asked_redis) >= 3  # every call counted in Redis


def test_healthz_says_the_limits_are_shared_while_redis_answers(redis_up: str, db: None) -> None:
    response = Client().get("/healthz")

    assert response.status_code == 200
    assert response.json()["rate_limits"] == "shared"


def test_healthz_says_each_process_counts_alone_while_redis_is_down(
    redis_down: str, db: None
) -> None:
    # Limits that hold per process are degraded, not failed: the answer stays 200.
    response = Client().get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "broker": "eager",
        "channel_layer": "memory",
        "worker": "eager",
        "rate_limits": "fallback",
    }


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_back_on_redis_after_the_retry_window(
    redis_up: str,
    rates: None,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    clock = Clock()
    monkeypatch.setattr(limits_cache, "clock", clock)
    down = [True]
    original = RedisCacheClient.get_client

    def flaky(self: RedisCacheClient, *args: Any, **kwargs: Any) -> Any:
        if down[0]:
            raise redis.ConnectionError("Redis is restarting")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(RedisCacheClient, "get_client", flaky)
    client = Client()

    alone = [post(client, SCORE, SCORED[0]["request"]).status_code for _ in range(3)]
    down[0] = False
    clock.now += limits_cache.RETRY_SECONDS - 0.1
    still_alone = post(client, SCORE, SCORED[0]["request"]).status_code
    clock.now += 0.2
    shared = [post(client, SCORE, SCORED[0]["request"]).status_code for _ in range(3)]

    assert alone == [200, 200, 429]
    assert still_alone == 429  # not yet time to ask Redis: the local count holds
    # Redis had counted none of the calls made alone: two more, then its own refusal.
    assert shared == [200, 200, 429]
    stored = redis.Redis.from_url(LIVE).keys(f"{redis_up}:*throttle:score-anon:*")
    assert len(stored) == 1
    security = [
        (r.levelno, r.getMessage().split(";")[0])
        for r in caplog.records
        if r.name == "scorekeeper.security" and "rate limits" in r.getMessage()
    ]
    assert security == [
        (logging.WARNING, f"rate limits: Redis at {LIVE} does not answer (Redis is restarting)"),
        (logging.INFO, f"rate limits: Redis at {LIVE} answers again"),
    ]


def test_a_password_in_the_redis_url_stays_out_of_the_log() -> None:
    assert (
        limits_cache.without_password("rediss://cache:s3cret@redis.internal:6380/1")
        == "rediss://redis.internal:6380/1"
    )


@given(
    st.lists(
        st.tuples(st.floats(min_value=0, max_value=12, allow_nan=False), st.booleans()),
        max_size=40,
    )
)
def test_an_outage_asks_redis_once_per_window_and_logs_each_change_once(
    steps: list[tuple[float, bool]],
) -> None:
    clock = Clock()
    with (
        mock.patch.object(limits_cache, "clock", clock),
        mock.patch.object(limits_cache, "log") as log,
    ):
        outage = limits_cache.Outage("redis://test")
        asked_while_down: list[float] = []
        changes = 0
        for advance, redis_answers_now in steps:
            clock.now += advance
            was_down = outage.down
            if not outage.ask_redis():
                assert was_down  # a Redis taken for up is always asked
                continue
            if was_down:
                asked_while_down.append(clock.now)
            if redis_answers_now:
                outage.answered()
            else:
                outage.failed(ConnectionError("refused"))
            changes += outage.down != was_down
            assert outage.down != redis_answers_now

    gaps = [b - a for a, b in itertools.pairwise(asked_while_down)]
    assert all(gap >= limits_cache.RETRY_SECONDS for gap in gaps)
    assert log.warning.call_count + log.info.call_count == changes
    assert log.warning.call_count - log.info.call_count == int(outage.down)


def test_healthz_says_local_without_a_redis(db: None) -> None:
    # Development and the tests: no CACHE_URL, the counts are one process's memory.
    assert Client().get("/healthz").json()["rate_limits"] == "local"


def test_production_counts_in_the_limits_cache() -> None:
    assert production_caches(LIVE)["default"]["BACKEND"] == "games.lib.limits_cache.LimitsCache"
