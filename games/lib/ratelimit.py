"""Login throttling, for every login path at once.

The admin, the browsable API's login, the token endpoint and the web pages all check a
password through ``django.contrib.auth.authenticate()``, so the throttle is the
authentication backend itself. Failed attempts are counted in the cache (Redis in
production, shared by every web process), per username and client address
(``LOGIN_FAILURE_LIMIT``) and per client address alone (``LOGIN_FAILURE_IP_LIMIT``, against
trying many usernames), over a window of ``LOGIN_FAILURE_WINDOW`` seconds counted from the
first failure. A successful login clears its username's count.

Once a count is reached, further attempts are refused without checking the password:
``LoginThrottled`` (a ValidationError) carries the message, which a login form shows as its
error and DRF as its 400 body; ``LoginThrottleMiddleware`` then turns a JSON answer into
``429 Too Many Requests`` with ``Retry-After``.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from scorekeeper.logging import client_ip

log = logging.getLogger("scorekeeper.security")

# Set on the HttpRequest when a login was refused: seconds until it may be tried again.
RETRY_AFTER = "login_retry_after"


class LoginThrottled(ValidationError):
    def __init__(self, retry_after: int) -> None:
        minutes = max(1, math.ceil(retry_after / 60))
        super().__init__(
            f"Too many failed logins from here: try again in {minutes} minute"
            f"{'s' if minutes > 1 else ''}.",
            code="throttled",
        )
        self.retry_after = retry_after


def _keys(username: str, address: str) -> dict[str, str]:
    """Cache keys of the two counters (hashed: usernames may hold any character)."""
    pair = hashlib.sha256(f"{username.casefold()}\0{address}".encode()).hexdigest()
    return {"pair": f"login-failures:pair:{pair}", "address": f"login-failures:ip:{address}"}


def _limits() -> dict[str, int]:
    return {"pair": settings.LOGIN_FAILURE_LIMIT, "address": settings.LOGIN_FAILURE_IP_LIMIT}


def _count(key: str) -> tuple[int, float]:
    """The failures counted under `key` and when its window ends (0 when none)."""
    entry = cache.get(key)
    return (entry["count"], entry["until"]) if entry else (0, 0.0)


def _record_failure(key: str) -> None:
    window = settings.LOGIN_FAILURE_WINDOW
    count, until = _count(key)
    if not count:
        until = time.time() + window
    # Read-then-write may lose a count under a race; a few extra tries do not matter here.
    cache.set(
        key, {"count": count + 1, "until": until}, timeout=max(1, math.ceil(until - time.time()))
    )


def seconds_refused(username: str, address: str) -> int:
    """0 when this username may try a password from this address now, else the seconds
    until it may."""
    limits = _limits()
    waits = [
        until - time.time()
        for name, key in _keys(username, address).items()
        for count, until in [_count(key)]
        if limits[name] and count >= limits[name]
    ]
    return max(1, math.ceil(max(waits))) if waits else 0


def _request_of(request: Any) -> HttpRequest | None:
    """The Django request under a DRF one (authenticate() may be handed either)."""
    return getattr(request, "_request", request) if request is not None else None


class RateLimitedModelBackend(ModelBackend):
    """Django's username and password check, refused while too many have failed."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        django_request = _request_of(request)
        address = client_ip(django_request) if django_request is not None else "unknown"
        name = str(username or "")
        wait = _unless_cache_fails(lambda: seconds_refused(name, address), 0)
        if wait:
            log.warning(
                "login refused: too many failures",
                extra={"username": name, "client_ip": address, "retry_after": wait},
            )
            if django_request is not None:
                setattr(django_request, RETRY_AFTER, wait)
            raise LoginThrottled(wait)
        user = super().authenticate(request, username, password, **kwargs)
        _unless_cache_fails(lambda: _count_attempt(name, address, succeeded=user is not None), None)
        return user


def _count_attempt(username: str, address: str, succeeded: bool) -> None:
    keys = _keys(username, address)
    if succeeded:
        cache.delete(keys["pair"])
    else:
        for key in keys.values():
            _record_failure(key)


T = TypeVar("T")


def _unless_cache_fails(action: Callable[[], T], default: T) -> T:
    """The action's result; `default` when the cache (Redis) does not answer: logins then
    go on unthrottled rather than failing for everyone."""
    try:
        return action()
    except Exception as exc:
        log.error("login throttle off: the cache does not answer: %s", exc)
        return default


class LoginThrottleMiddleware:
    """A refused login answered in JSON (the token endpoint) becomes 429 with Retry-After;
    a page (a login form showing the message) keeps its status and gets Retry-After."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        wait = getattr(request, RETRY_AFTER, None)
        if wait is not None:
            response["Retry-After"] = str(wait)
            if response.get("Content-Type", "").startswith("application/json"):
                response.status_code = 429
        return response


def form_posts_refused(form: str, request: HttpRequest, limit: int) -> int:
    """Counts one post of an account form (sign-up, password reset) from the client's
    address; 0 while fewer than ``limit`` were posted in the window
    (``LOGIN_FAILURE_WINDOW``), else the seconds until another may be. A limit of 0 turns
    the count off; so does a cache that does not answer, as for logins."""
    if not limit:
        return 0
    key = f"form-posts:{form}:{client_ip(request)}"

    def count() -> int:
        posted, until = _count(key)
        if posted >= limit:
            return max(1, math.ceil(until - time.time()))
        _record_failure(key)
        return 0

    wait = _unless_cache_fails(count, 0)
    if wait:
        log.warning(
            "form refused: too many posts",
            extra={"form": form, "client_ip": client_ip(request), "retry_after": wait},
        )
        setattr(request, RETRY_AFTER, wait)
    return wait
