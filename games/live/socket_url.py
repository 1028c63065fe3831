"""Where a page opens its WebSocket, and what the Content-Security-Policy lets it connect to.

``make run`` (and Daphne serving everything) answers the sockets on the page's own origin:
the page opens ``/ws/...`` there. ``make serve-prod`` keeps HTTP on gunicorn and runs
Daphne beside it on another port, so the pages must be told where it is: the setting
``LIVE_SOCKET_URL`` (``ws://{host}:8001``), in which ``{host}`` becomes the host name the
page was asked for, so one setting serves every name the site answers to.

Templates read it as ``live_socket_url`` (``<body data-live-socket>``; empty = same
origin); the policy's ``connect-src`` allows it and the page's own origin over ws:/wss:,
which CSP Level 3 counts as ``'self'`` but older browsers (Safari before 15.4) do not.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.http.request import split_domain_port


def request_host(request: HttpRequest) -> str | None:
    """The host (with its port, if any) the request was sent to; None when it is not an
    allowed host (the answer is then an error page that opens no socket)."""
    try:
        return request.get_host()
    except DisallowedHost:
        return None


def socket_origin(request: HttpRequest) -> str:
    """``LIVE_SOCKET_URL`` for this request (``{host}`` filled in); empty = same origin."""
    template: str = settings.LIVE_SOCKET_URL
    if not template:
        return ""
    host = request_host(request)
    # An IPv6 address keeps its brackets: "[::1]:8000" -> "[::1]".
    name = split_domain_port(host)[0] if host else ""
    return template.replace("{host}", name or "localhost")


def connect_sources(request: HttpRequest) -> list[str]:
    """The WebSocket origins a page of this request may connect to, besides ``'self'``."""
    host = request_host(request)
    sources = [f"ws://{host}", f"wss://{host}"] if host else []
    origin = socket_origin(request)
    if origin and origin not in sources:
        sources.append(origin)
    return sources


def live_socket(request: HttpRequest) -> dict[str, str]:
    """Context processor: ``live_socket_url`` for ``<body data-live-socket>``."""
    return {"live_socket_url": socket_origin(request)}
