"""The cache the rate limits count in: Redis, shared by every web process, or this
process's own memory while Redis does not answer.

The calculators' throttles (``games.api.throttles``) and the account forms' counts
(``games.lib.form_posts``) use the default cache. Django's Redis cache raises while Redis
is down, and both used to let every call through then: an outage of Redis switched every
limit off. ``LimitsCache``, production's default cache, is Django's Redis cache that does
the same operation in a local-memory cache of this process when Redis does not answer
(refused, timed out, an error from the server), so that each limit keeps counting per
process: with four gunicorn workers a caller may get up to four times a rate while Redis
is down, never an unlimited number of calls.

After a failure the process keeps to its memory for ``RETRY_SECONDS`` before one call asks
Redis again, so an outage costs one socket timeout per process every few seconds, not one
per request. It logs one WARNING when it starts counting alone and one INFO when Redis
answers again (``scorekeeper.security``). Counts made alone are not carried over: back on
Redis, the counts Redis still holds are the ones that count.

Why not a library: django-redis's ``IGNORE_EXCEPTIONS`` turns a failed call into a miss,
which is what switched the limits off; django-cache-fallback asks the first cache on every
call (a timeout per request while Redis hangs) and logs a traceback each time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger("scorekeeper.security")

# How long a process counts alone after Redis failed to answer, before asking it again.
RETRY_SECONDS = 5.0
# Entries this process keeps while counting alone (Django's default of 300 would forget
# counts as soon as a few hundred addresses call).
LOCAL_MAX_ENTRIES = 10_000
# What counts as Redis not answering: redis-py's errors (refused, timed out, a server
# error such as a read-only replica), and the socket's own.
UNREACHABLE = (RedisError, OSError)

# The words /healthz uses (games.lib.health): the counts are shared by every process, or
# kept by this process alone because Redis does not answer, or because none is configured.
SHARED = "shared"
FALLBACK = "fallback"
LOCAL = "local"

clock: Callable[[], float] = time.monotonic


def without_password(url: str) -> str:
    """``url`` fit for a log line: no user or password."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


class Outage:
    """Whether one Redis is taken for down by this process, and when to ask it again.

    Shared by every thread of the process (Django gives each thread its own cache
    object), so that one failure is noticed, and logged, once."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.lock = threading.Lock()
        self.down = False
        self.retry_at = 0.0

    def ask_redis(self) -> bool:
        """Whether this call should go to Redis: always while it answers; while it is down,
        one call once ``RETRY_SECONDS`` have passed (the others meanwhile stay local)."""
        with self.lock:
            if not self.down:
                return True
            now = clock()
            if now < self.retry_at:
                return False
            self.retry_at = now + RETRY_SECONDS
            return True

    def failed(self, exc: BaseException) -> None:
        with self.lock:
            self.retry_at = clock() + RETRY_SECONDS
            if self.down:
                return
            self.down = True
        log.warning(
            "rate limits: Redis at %s does not answer (%s); this process counts alone, "
            "asking Redis again every %g s",
            self.where,
            exc,
            RETRY_SECONDS,
        )

    def answered(self) -> None:
        if not self.down:  # the usual case, without the lock
            return
        with self.lock:
            if not self.down:
                return
            self.down = False
        log.info("rate limits: Redis at %s answers again; the counts are shared", self.where)


_outages: dict[str, Outage] = {}
_outages_lock = threading.Lock()


def outage_for(name: str, where: str) -> Outage:
    with _outages_lock:
        outage = _outages.get(name)
        if outage is None:
            outage = _outages[name] = Outage(where)
        return outage


class LimitsCache(RedisCache):
    """Django's Redis cache, falling back to this process's memory while Redis does not
    answer (module docstring). Set as ``CACHES["default"]`` when ``CACHE_URL`` is."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        # One outage and one local store per Redis and key prefix, for every thread.
        name = f"{server}|{params.get('KEY_PREFIX', '')}"
        self.outage = outage_for(name, without_password(server))
        # The same keys and expiries as in Redis; only the options are memory's own.
        same = ("TIMEOUT", "KEY_PREFIX", "VERSION", "KEY_FUNCTION")
        local: dict[str, Any] = {key: params[key] for key in same if key in params}
        local["OPTIONS"] = {"MAX_ENTRIES": LOCAL_MAX_ENTRIES}
        self.local = LocMemCache(f"rate-limits:{name}", local)

    def either(self, operation: str, *args: Any, **kwargs: Any) -> Any:
        """``operation`` done in Redis while it answers, else in this process's memory."""
        if self.outage.ask_redis():
            try:
                answer = getattr(RedisCache, operation)(self, *args, **kwargs)
            except UNREACHABLE as exc:
                self.outage.failed(exc)
            else:
                self.outage.answered()
                return answer
        return getattr(self.local, operation)(*args, **kwargs)

    def counting_in_redis(self) -> bool:
        """Whether the counts go to Redis now: asks it (a PING) unless this process already
        knows it is down and it is not time to ask again."""
        if not self.outage.ask_redis():
            return False
        try:
            self._cache.get_client().ping()
        except UNREACHABLE as exc:
            self.outage.failed(exc)
            return False
        self.outage.answered()
        return True

    # Every operation Django's Redis cache does itself; the rest of BaseCache's (decr,
    # get_or_set, the async ones...) are built on these.
    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self.either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        self.local.clear()
        return self.either("clear")


def where_limits_count() -> str:
    """``SHARED``, ``FALLBACK`` or ``LOCAL``: where the default cache keeps the counts now."""
    cache = caches["default"]
    if isinstance(cache, LimitsCache):
        return SHARED if cache.counting_in_redis() else FALLBACK
    if isinstance(cache, RedisCache):
        return SHARED
    return LOCAL
