from typing import Any

import pytest

from tests.conftest import skip_or_fail, xdist_worker
from tests.services.conftest import ann_user, bob_user, group, players, session, stranger

__all__ = ["ann_user", "bob_user", "group", "players", "session", "stranger"]

REDIS = "redis://127.0.0.1:6379/5"
# Each test database numbers its sessions from 1, so two workers would follow the same
# groups ("session-1"): every worker keeps its groups under a prefix of its own.
PREFIX = f"scorekeeper-test-live-{xdist_worker()}"


def use_redis_layer(settings: Any) -> None:
    """The Redis channel layer (production's) for this test; skipped without Redis, failed
    under REQUIRE_SERVICES=1."""
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError as error:
        skip_or_fail(f"no Redis at {REDIS}: {error}")
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS], "prefix": PREFIX, "capacity": 2000},
        }
    }


@pytest.fixture
def redis_layer(settings: Any) -> None:
    use_redis_layer(settings)


@pytest.fixture(params=["memory", "redis"])
def either_layer(request: Any, settings: Any) -> str:
    """Each test that uses it runs on the in-memory layer (``make run``'s) and on Redis."""
    if request.param == "redis":
        use_redis_layer(settings)
    return str(request.param)
