import os
from typing import NoReturn

import pytest
from kombu import Connection
from kombu.exceptions import OperationalError

from scorekeeper.settings import env_bool, env_str


def skip_or_fail(reason: str) -> NoReturn:
    """Skip a test whose service is missing, or fail it when REQUIRE_SERVICES is set (CI)."""
    if env_bool("REQUIRE_SERVICES", default=False):
        pytest.fail(f"{reason} (REQUIRE_SERVICES is set)")
    pytest.skip(reason)


def xdist_worker() -> str:
    """This process's pytest-xdist worker ("gw0", "gw1", ...; `make test` runs several at
    once), or "main" in a run without workers. Names kept in a service every worker shares
    (Redis keys, channel-layer groups) carry it, so that one worker never hears another's."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


@pytest.fixture
def broker_url() -> str:
    """A reachable message broker: CELERY_BROKER_URL when set, else the local Redis."""
    url = env_str("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/0"
    with Connection(url, connect_timeout=2) as connection:
        try:
            connection.ensure_connection(max_retries=1)
        except (OSError, OperationalError) as exc:
            skip_or_fail(f"no broker at {url}: {exc}")
    return url


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Every test starts with an empty cache: login failures counted by one test (the
    login throttle, games.lib.ratelimit) must not refuse another's login."""
    from django.core.cache import cache

    cache.clear()
