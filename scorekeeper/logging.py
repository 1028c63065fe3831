"""Structured logs: one JSON object per line, and one line per HTTP request.

``RequestLogMiddleware`` logs every request to the ``scorekeeper.requests`` logger with its
method, path, status, duration, user id and request id; ``JsonFormatter``
(python-json-logger's, with this project's field names) writes a record and those fields as
one JSON line (settings.LOGGING sends them to standard error when DEBUG is off).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from pythonjsonlogger.json import JsonFormatter as LibraryJsonFormatter

request_log = logging.getLogger("scorekeeper.requests")

# A request id a proxy sent along is kept when it looks like one (no spaces, no quotes).
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,100}")
# The record's own fields, first on every line, by the names the logs have always used;
# anything passed in `extra=` follows under its own name.
FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"
FIELD_NAMES = {"asctime": "time", "levelname": "level", "name": "logger", "exc_info": "exception"}


class JsonFormatter(LibraryJsonFormatter):
    """``{"time", "level", "logger", "message", ...extra fields}`` on one line; a
    traceback goes in ``exception``, the time is UTC to the millisecond."""

    def __init__(self) -> None:
        super().__init__(FIELDS, rename_fields=FIELD_NAMES)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind a trusted proxy (TRUST_X_FORWARDED_FOR)
    the last address of X-Forwarded-For, the one that proxy appended."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def user_id(request: HttpRequest) -> int | None:
    """The signed-in user's id; None when anonymous, or when the database that would say
    who it is does not answer (the line is written all the same)."""
    user = getattr(request, "user", None)
    try:
        return user.pk if user is not None and user.is_authenticated else None
    except (OperationalError, InterfaceError):
        return None


class RequestLogMiddleware:
    """Logs each request once it is answered, and gives it an id (``X-Request-ID``: the
    one the client or proxy sent when it looks valid, else a new one), which the answer
    repeats and any log line can carry as ``request.request_id``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sent = request.headers.get("X-Request-ID", "")
        request_id = sent if REQUEST_ID.fullmatch(sent) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]
        start = time.perf_counter()
        response = self.get_response(request)
        duration_ms = round((time.perf_counter() - start) * 1000, 1)
        response["X-Request-ID"] = request_id
        request_log.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": duration_ms,
                "user_id": user_id(request),
                "request_id": request_id,
                "client_ip": client_ip(request),
            },
        )
        return response
