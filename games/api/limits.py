"""Bodies too large, or with too many fields: a clear 413 or 400 instead of Django's page.

Django refuses a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MiB by default) by raising
``RequestDataTooBig`` where it is first read, which it answers with its generic HTML 400
page and logs at ERROR with a traceback. ``BodyLimitMiddleware`` answers instead:

- before anything reads the body, when its declared length is over the limit and it is not
  multipart (Django's own measure: the whole body, unless multipart, whose files do not
  count), ``413 Payload Too Large``;
- before anything reads it, a form (``application/x-www-form-urlencoded``) with more than
  ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields, counted as Django counts them, ``400``: the
  CSRF check reads a page's form before any view, where Django would log a traceback;
- when a view finds out while reading a multipart body (a form field over the limit),
  ``413`` too, and ``400`` for more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields or
  ``DATA_UPLOAD_MAX_NUMBER_FILES`` files.

API paths (``/api/``) get the API's ``{"error", "field"}`` body; pages a line of plain text.
The limit itself is Django's setting, unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse

from games.errors import error_body

log = logging.getLogger("scorekeeper.security")

API_PREFIX = "/api/"
# An attribute a view sets to answer a body over the limit itself.
OWN_BODY_LIMIT = "answers_body_too_large"


def declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def too_large(limit: int) -> str:
    return f"The request body is too large: at most {limit:,} bytes are read."


def refusal(request: HttpRequest, message: str, status: int) -> HttpResponse:
    log.warning("%s %s: %s", request.method, request.path, message, extra={"status": status})
    if request.path.startswith(API_PREFIX):
        return JsonResponse(error_body(message), status=status)
    return HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")


def too_many_fields(request: HttpRequest) -> HttpResponse:
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    return refusal(request, f"The request has too many fields: at most {limit:,}.", 400)


class BodyLimitMiddleware:
    """413 for a body over Django's size limit, 400 for too many fields (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., HttpResponse], *args: object
    ) -> HttpResponse | None:
        """The early refusal, once the view is known: a view marked ``OWN_BODY_LIMIT``
        (the group import, which tells a client to upload the file instead) answers it."""
        if getattr(view, OWN_BODY_LIMIT, False):
            return None
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        multipart = request.content_type == "multipart/form-data"
        if limit is not None and not multipart and declared_length(request) > limit:
            return refusal(request, too_large(limit), 413)
        fields = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        if (
            fields is not None
            and request.content_type == "application/x-www-form-urlencoded"
            and request.body.count(b"&") + 1 > fields  # Django's own count
        ):
            return too_many_fields(request)
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RequestDataTooBig):
            return refusal(request, too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE), 413)
        if isinstance(exception, TooManyFieldsSent):
            return too_many_fields(request)
        if isinstance(exception, TooManyFilesSent):
            limit = settings.DATA_UPLOAD_MAX_NUMBER_FILES
            return refusal(request, f"The request has too many files: at most {limit:,}.", 400)
        return None
