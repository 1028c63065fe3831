"""The site as an app a phone installs: its manifest, its icons, the service worker that
keeps the pages and static files for offline use, and the page shown offline for a page
never opened before.

The worker (``templates/web/sw.js``) is served from the site's root so that it may look
after every page: the static files cache-first (their names change with their content in
production), each page network-first with the last copy kept for when the network is gone,
so a deal page or a seat page opened once opens again from the home screen offline, where
the deal's draft and queue (``offline.js``, ``live.js``) take over. The API and the
sockets are never cached. Signing out empties the kept pages.
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

THEME = "#112233"  # the header's colour
BACKGROUND = "#f7f7f4"
# What the worker keeps as soon as it is installed: the pages' style and scripts, the icons.
SHELL = (
    "games/table.css",
    "games/forms.js",
    "games/app.js",
    "games/deal.js",
    "games/offline.js",
    "games/picker.js",
    "games/live.js",
    "games/seat_check.js",
    "games/jobs.js",
    "games/icons/icon-192.png",
)
ICONS = (
    ("games/icons/icon-192.png", "192x192", "any"),
    ("games/icons/icon-512.png", "512x512", "any"),
    ("games/icons/icon-maskable-512.png", "512x512", "maskable"),
)


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: what a phone needs to install the site as an app."""
    body = {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": _("Scores for home card games, deal by deal, night by night."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("web:groups"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    return HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json"
    )


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the root so that its scope is the whole site. Its version
    follows what it keeps, so a new release's files replace the old ones."""
    shell = [static(path) for path in SHELL] + [reverse("web:offline")]
    version = hashlib.sha256("\n".join(shell).encode()).hexdigest()[:12]
    context = {
        "version": version,
        "shell": json.dumps(shell),
        "offline": json.dumps(reverse("web:offline")),
        "static_prefix": json.dumps(static("")),
    }
    response = render(request, "web/sw.js", context, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says."""
    return HttpResponseRedirect(static("games/icons/favicon.ico"))


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """Shown offline for a page never opened on this phone (kept by the worker when it is
    installed): no user, no data, only what still works."""
    return render(request, "web/offline.html")
