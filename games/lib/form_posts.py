"""Posts of the account forms that need no password (sign-up, password reset), counted per
client address in the cache (Redis in production, shared by every web process; each
process's own memory while Redis does not answer, ``games.lib.limits_cache``), so neither
can be used to flood the database or someone's mailbox.

Logins are counted elsewhere (django-axes, ``games.lib.lockout``); these forms check no
password, so axes never sees them.
"""

from __future__ import annotations

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from scorekeeper.logging import client_ip

log = logging.getLogger("scorekeeper.security")


def _refused_for(key: str, limit: int) -> int:
    """Counts one post under ``key``; 0 while fewer than ``limit`` were counted in the
    window (``LOGIN_FAILURE_WINDOW``, from the first), else the seconds until another may be."""
    entry = cache.get(key)
    count, until = (entry["count"], entry["until"]) if entry else (0, 0.0)
    if count >= limit:
        return max(1, math.ceil(until - time.time()))
    if not count:
        until = time.time() + settings.LOGIN_FAILURE_WINDOW
    # Read-then-write may lose a count under a race; a few extra posts do not matter here.
    cache.set(
        key, {"count": count + 1, "until": until}, timeout=max(1, math.ceil(until - time.time()))
    )
    return 0


def form_posts_refused(form: str, request: HttpRequest, limit: int) -> int:
    """Counts one post of an account form from the client's address; 0 while fewer than
    ``limit`` were posted in the window, else the seconds until another may be. A limit of
    0 turns the count off."""
    if not limit:
        return 0
    address = client_ip(request)
    wait = _refused_for(f"form-posts:{form}:{address}", limit)
    if wait:
        log.warning(
            "form refused: too many posts",
            extra={"form": form, "client_ip": address, "retry_after": wait},
        )
    return wait
