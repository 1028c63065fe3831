"""What a request gets while the database cannot be reached (PostgreSQL restarting or
unreachable, SQLite locked past its timeout): ``503 Service Unavailable`` with
``Retry-After`` rather than a bare 500.

The API (``/api/``) answers in its ``{"error", "field"}`` shape; everything else (the
pages, the admin, the forms) gets ``templates/503.html``, rendered without the request: no
user, no session, no message, nothing that would ask the database again. Its language is
the one Django's ``LocaleMiddleware`` took from the cookie or the browser.

A database error can surface in three places, and each turns it into the same answer:

- in a view or its template: ``DatabaseUnavailableMiddleware.process_exception``;
- in a middleware that reads the session or the user before any view runs
  (``games.languages``): it calls ``answer`` itself;
- anywhere else Django catches it (a middleware saving the session on the way out):
  ``server_error``, the project's ``handler500``. Django calls it only with DEBUG off; with
  DEBUG on it shows its debug page there instead.

Each answer logs one WARNING line on ``scorekeeper.outage`` naming the error, without a
traceback, and keeps Django's request logger from adding its "Service Unavailable" line;
the request log (``scorekeeper.logging``) then writes the request's own line, status 503.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import TypeVar

from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views import defaults

from games.errors import error_body

log = logging.getLogger("scorekeeper.outage")

# The errors of a database that does not answer, as Django raises them for any backend.
UNREACHABLE = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5
API_PREFIX = "/api/"
TEMPLATE = "503.html"

Response = TypeVar("Response", bound=HttpResponse)


def api_message() -> str:
    return gettext("The database is not answering; try again in a few seconds.")


def logged_already(response: Response) -> Response:
    """``response`` marked so that Django's request logger does not log it again: it
    writes "Service Unavailable: /path" at ERROR for any 5xx unless the answer carries
    this mark, which its own error handling sets on what it has logged."""
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def answer(request: HttpRequest, exception: BaseException) -> HttpResponse:
    """The 503 for ``request``, which failed with ``exception`` because the database does
    not answer: the API's error body or the page, with ``Retry-After``."""
    cause = " ".join(str(exception).split())
    log.warning(
        "database unreachable: %s %s: %s: %s",
        request.method,
        request.path,
        type(exception).__name__,
        cause,
        extra={"path": request.path, "request_id": getattr(request, "request_id", None)},
    )
    # No one can be looked up now: whatever reads request.user later (the request log, a
    # response hook) finds nobody signed in instead of asking the database once more.
    request.user = AnonymousUser()
    # A connection that broke mid-request is not handed to the next one.
    connections["default"].close()
    response: HttpResponse
    if request.path.startswith(API_PREFIX):
        response = JsonResponse(error_body(api_message()), status=503)
    else:
        retry = request.get_full_path() if request.method in ("GET", "HEAD") else None
        response = HttpResponse(render_to_string(TEMPLATE, {"retry": retry}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return logged_already(response)


class DatabaseUnavailableMiddleware:
    """A view that fails because the database does not answer gets the 503 (``answer``),
    so a client knows to send the request again (with the same Idempotency-Key for a
    deal). Kept synchronous and last: see tests/deploy/test_login_throttle.py."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, UNREACHABLE):
            return None
        return answer(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the 503 when the error being handled is the database's (raised
    outside any view), Django's own 500 page otherwise."""
    exception = sys.exc_info()[1]
    if isinstance(exception, UNREACHABLE):
        return answer(request, exception)
    return defaults.server_error(request)
