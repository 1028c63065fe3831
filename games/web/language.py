"""The language switcher's form (every page, templates/base.html)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from games.languages import remember


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, then back to ``next``); a signed-in user's
    choice is kept with them too, for their other devices and their PDFs."""
    response = django_set_language(request)
    remember(request, request.POST.get("language", ""))
    return response


def languages(request: HttpRequest) -> dict[str, list[tuple[str, str]]]:
    """The switcher's languages, each named in itself as ``settings.LANGUAGES`` writes it
    ("Tiếng Việt", "繁體中文"): Django's own tag would translate the names into the page's
    language ("Tiếng Anh" for English on a Vietnamese page)."""
    return {"site_languages": list(settings.LANGUAGES)}
