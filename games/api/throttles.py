"""Throttles for the stateless calculators, scoped by what a call costs.

``POST /api/v1/score/`` takes milliseconds; ``/arrange/`` a little more; ``/arrange/`` in
expected mode up to seconds of CPU (``samples``), and needs no login. Without a limit a few
anonymous callers could hold every web worker and slow the service for everybody, so each
call counts against a scope: ``score``, ``arrange``, and ``expected`` on top of ``arrange``
for expected mode. A signed-in caller (a token, or a session) is counted by user
under ``<scope>-user``; anyone else by address (``scorekeeper.logging.client_ip``, which a
client's own X-Forwarded-For cannot change) under ``<scope>-anon``. The rates are
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (``THROTTLE_*`` variables), read on each call;
a rate of ``None`` turns that throttle off.

The counts live in the default cache: Redis (``CACHE_URL``) in production, shared by every
web process; local memory otherwise. While Redis does not answer, each process counts in
its own memory (``games.lib.limits_cache``): the rates hold per process, never switch off.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from scorekeeper.logging import client_ip


def signed_in(request: Request) -> bool:
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated)


class CostThrottle(SimpleRateThrottle):
    """Counts a call under ``scope`` (default: the view's ``throttle_scope``), per user or
    per address; see the module's docstring."""

    cache_format = "throttle:%(scope)s:%(ident)s"

    def __init__(self, scope: str | None = None) -> None:
        # The rate depends on the caller, so it is looked up in allow_request, not here.
        self.base_scope = scope

    def get_rate(self) -> str | None:
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No throttle rate is set for the scope {self.scope!r}.")
        rate: str | None = rates[self.scope]
        return rate

    def allow_request(self, request: Request, view: APIView) -> bool:
        base = self.base_scope or getattr(view, "throttle_scope", None)
        if base is None:
            return True
        self.scope = f"{base}-{'user' if signed_in(request) else 'anon'}"
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return bool(super().allow_request(request, view))

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if signed_in(request) else client_ip(request._request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def wait(self) -> float:
        """Seconds until a call would be let through again (DRF's answer, or the whole
        window when DRF has none, after the rate was lowered)."""
        seconds: float | None = super().wait()
        return seconds if seconds is not None else float(self.duration or 0)
