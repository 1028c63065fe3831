"""The language a person reads the pages and the PDFs in, and where their choice is kept.

A signed-in user's choice is a ``LanguagePreference`` row, so it follows them to any device
and to the PDFs they ask for. Signing in copies it into the session (``SESSION_KEY``), and
``UserLanguageMiddleware`` activates it from there (no query per request) after Django's
``LocaleMiddleware`` has picked the cookie's language or the browser's (Accept-Language).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.lib import outage
from games.models import LanguagePreference


def known(code: str | None) -> bool:
    """Whether ``code`` is one of ``settings.LANGUAGES``."""
    return code in dict(settings.LANGUAGES)


def stored_language(user: Any) -> str | None:
    """The signed-in user's chosen language, or None (anonymous, or never chosen)."""
    if user is None or not user.is_authenticated:
        return None
    code = (
        LanguagePreference.objects.filter(user_id=user.pk)
        .values_list("language", flat=True)
        .first()
    )
    return code if known(code) else None


SESSION_KEY = "_language"


def remember(request: HttpRequest, code: str) -> None:
    """Keep ``code`` as the signed-in user's language, in their row and their session."""
    if request.user.is_authenticated and known(code):
        LanguagePreference.objects.update_or_create(
            user_id=request.user.pk, defaults={"language": code}
        )
        request.session[SESSION_KEY] = code


@receiver(user_logged_in, dispatch_uid="games.languages.on_login")
def _on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    code = stored_language(user)
    if request is not None and code is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = code


def language_for(user: Any) -> str:
    """The language a document asked for by ``user`` is rendered in: their choice, else the
    language of the request being answered."""
    return stored_language(user) or translation.get_language() or settings.LANGUAGE_CODE


class UserLanguageMiddleware:
    """Activates a signed-in user's stored language, as their session keeps it. While the
    database cannot be reached, answers the 503 itself (``games.lib.outage``): no view
    could run without it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        try:
            # The first reads of the session and the user: with a session cookie, both are
            # queries, made here before any view.
            code = session.get(SESSION_KEY) if session is not None else None
            signed_in = isinstance(code, str) and request.user.is_authenticated
        except outage.UNREACHABLE as exc:
            return outage.answer(request, exc)
        if isinstance(code, str) and known(code) and signed_in:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return self.get_response(request)
