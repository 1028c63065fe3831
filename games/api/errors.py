"""One error shape for the whole API: ``{"error": message, "field": path or null}``.

The engine's and the services' errors carry a message for people and the field that caused
them; DRF's own errors (validation, authentication, not found) are reshaped to match, so a
client reads every failure the same way.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.engine import ScoreError
from games.errors import CONFLICTS, NoSuchObject, ServiceError, error_body
from games.words import answer_language, error_text


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: engine and service errors first, then DRF's, reshaped."""
    answer_in_json(context.get("request"))
    if isinstance(exc, CONFLICTS):
        return Response(error_body(exc.message, exc.field), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, NoSuchObject):  # named by the path, as any other missing object
        return Response(error_body(exc.message), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, ScoreError):
        return score_error_response(exc, context.get("request"))
    if isinstance(exc, ServiceError):
        return Response(error_body(exc.message, exc.field), status=status.HTTP_400_BAD_REQUEST)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, message = first_error(exc.detail)
        response.data = error_body(f"{field}: {message}" if field else message, field)
    elif isinstance(exc, exceptions.Throttled):
        # DRF has set Retry-After to the same number of seconds.
        response.data = error_body(throttled_message(getattr(exc, "wait", None)))
    elif isinstance(response.data, dict) and "detail" in response.data:
        response.data = error_body(str(response.data["detail"]))
    return response


def score_error_response(exc: ScoreError, request: HttpRequest | None) -> Response:
    """400 for input the engine refuses: its words in the language the caller asked for
    (``?lang=``, else the reader's language as the pages pick it: a signed-in user's
    choice, the language cookie, ``Accept-Language``), its code and arguments beside."""
    if exc.code is None or request is None:
        return Response(error_body(exc.message, exc.field), status=status.HTTP_400_BAD_REQUEST)
    asked = request.GET.get("lang")
    lang = answer_language(request) if asked else translation.get_language()
    with translation.override(lang):
        body = error_body(error_text(exc), exc.field, exc.code)
    response = Response(body, status=status.HTTP_400_BAD_REQUEST)
    response["Content-Language"] = lang
    return response


def answer_in_json(request: Any) -> None:
    """A refusal is JSON even where CSV or a PDF was asked for (``?format=csv``)."""
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is not None and renderer.media_type not in ("application/json", "text/html"):
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's handler404: a URL under ``/api/`` that names no operation (``documents/x/``)
    answers 404 in the API's error shape, as every other API refusal; a page's URL keeps
    Django's page."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(_("Not found.")), status=status.HTTP_404_NOT_FOUND)
    return defaults.page_not_found(request, exception or Exception())


def throttled_message(wait: int | None) -> str:
    """What a throttled caller reads (429): how long to wait, as Retry-After says."""
    if not wait:
        return "Too many requests: try again later."
    return f"Too many requests: try again in {wait} second{'s' if wait != 1 else ''}."


def first_error(detail: Any, path: str = "") -> tuple[str | None, str]:
    """The first message of a DRF error tree and its field path (``players[1].name``)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key == "non_field_errors":
                return first_error(value, path)
            child = f"{path}.{key}" if path else str(key)
            return first_error(value, child)
    if isinstance(detail, list):
        for k, value in enumerate(detail):
            if isinstance(value, (dict, list)) and value:
                child = f"{path}[{k}]" if isinstance(value, dict) else path
                return first_error(value, child)
            if value:
                return first_error(value, path)
    return (path or None), str(detail)
