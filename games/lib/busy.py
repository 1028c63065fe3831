"""What a request gets when the server has more work than it can start in time: ``503
Service Unavailable`` with ``Retry-After``, answered before Django reads anything, so that
turning a request away costs almost nothing and the request is not lost: the phone's
submit waits in its queue and goes again (with its Idempotency-Key) after the pause.

Two places decide that a request waited too long:

- one ASGI process (Daphne answering HTTP): a request that found ``ASGI_MAX_REQUESTS``
  running and could not start within ``ASGI_MAX_WAIT`` seconds (``games.lib.asgi_limit``);
- behind a proxy that stamps each request with the moment it arrived (``X-Request-Start``,
  nginx's ``t=${msec}``): a request that reached Django more than ``REQUEST_QUEUE_LIMIT``
  seconds after it (``QueueLimitMiddleware``), the time it spent queued for a worker.

The API (``/api/``) answers in its ``{"error", "field"}`` shape, everything else a short
page; both in the reader's language (the language cookie, then ``Accept-Language``).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from games.errors import error_body

log = logging.getLogger("scorekeeper.busy")

RETRY_AFTER_SECONDS = 2
API_PREFIX = "/api/"
HEADER = "HTTP_X_REQUEST_START"


def language(cookie: str | None, accept: str | None) -> str:
    """The site's language for a reader with this language cookie and Accept-Language."""
    wanted = [cookie or ""]
    for part in (accept or "").split(","):
        wanted.append(part.split(";")[0].strip())
    for code in wanted:
        if not code or code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def answer(path: str, lang: str) -> tuple[str, bytes]:
    """The busy answer's content type and body for ``path``, in ``lang``."""
    with translation.override(lang):
        message = gettext("The server is busy; try again in a moment. Nothing was lost.")
        if path.startswith(API_PREFIX):
            return "application/json", json.dumps(error_body(message)).encode()
        title = gettext("Try again in a moment")
    page = (
        f'<!DOCTYPE html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · Scorekeeper</title></head>"
        f"<body><main><h1>{escape(title)}</h1><p>{escape(message)}</p></main></body></html>"
    )
    return "text/html; charset=utf-8", page.encode()


def headers(content_type: str, body: bytes) -> list[tuple[bytes, bytes]]:
    """The busy answer's headers, as ASGI sends them."""
    return [
        (b"content-type", content_type.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
        (b"cache-control", b"no-store"),
    ]


def response(request: HttpRequest) -> HttpResponse:
    """The busy answer as Django sends it."""
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    content_type, body = answer(
        request.path, language(cookie, request.headers.get("Accept-Language"))
    )
    reply = HttpResponse(body, content_type=content_type, status=503)
    for name, value in headers(content_type, body)[2:]:
        reply[name.decode()] = value.decode()
    return reply


def arrived(stamp: str) -> float | None:
    """The moment (seconds since the epoch) an ``X-Request-Start`` value names: ``t=`` and
    seconds with a fraction (nginx's ``${msec}``), or whole milli- or microseconds."""
    value = stamp.strip().removeprefix("t=")
    try:
        moment = float(value)
    except ValueError:
        return None
    if moment != moment or moment <= 0:  # NaN or nonsense
        return None
    if moment > 1e14:  # microseconds
        return moment / 1e6
    if moment > 1e11:  # milliseconds
        return moment / 1e3
    return moment


class QueueLimitMiddleware:
    """Turns away, with the busy answer, a request that waited longer than
    ``REQUEST_QUEUE_LIMIT`` seconds between the proxy and Django (off at 0, the default,
    and for a request without ``X-Request-Start``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.limit = float(getattr(settings, "REQUEST_QUEUE_LIMIT", 0))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        stamp = request.META.get(HEADER)
        if self.limit and stamp:
            start = arrived(stamp)
            waited = None if start is None else time.time() - start
            if waited is not None and waited > self.limit:
                log.warning(
                    "turned away after %.1f s in the queue: %s %s",
                    waited,
                    request.method,
                    request.path,
                    extra={"path": request.path, "waited": round(waited, 3)},
                )
                return response(request)
        return self.get_response(request)
