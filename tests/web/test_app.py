"""The site as an installable app: the manifest and its icons, the service worker served
from the root, the favicon, the offline page, and the links every page carries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from tests.web.conftest import signed_in

STATIC = Path(__file__).resolve().parents[2] / "games" / "static"


def test_the_manifest_makes_the_site_installable(db: None) -> None:
    answer = Client().get("/manifest.webmanifest")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] == manifest["short_name"] == "Scorekeeper"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/groups/" and manifest["scope"] == "/"
    assert manifest["theme_color"] == "#112233"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        from PIL import Image

        file = STATIC / icon["src"].removeprefix("/static/")
        with Image.open(file) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"]


def test_the_manifest_speaks_the_readers_language(db: None) -> None:
    client = Client()
    client.cookies["django_language"] = "vi"

    manifest = json.loads(client.get("/manifest.webmanifest").content)

    assert manifest["lang"] == "vi"
    assert manifest["description"] != "Scores for home card games, deal by deal, night by night."


def test_the_service_worker_is_served_from_the_root(db: None) -> None:
    answer = Client().get("/sw.js")

    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer["Cache-Control"]
    worker = answer.content.decode()
    # What it keeps at once: the style, the scripts, the offline page; never the API.
    for kept in ('"/static/games/table.css"', '"/static/games/offline.js"', '"/offline/"'):
        assert kept in worker
    assert "(api|ws|admin|api-auth)" in worker


def test_the_favicon_and_the_offline_page(db: None) -> None:
    icon = Client().get("/favicon.ico")
    assert icon.status_code == 302 and icon["Location"] == "/static/games/icons/favicon.ico"
    assert (STATIC / "games" / "icons" / "favicon.ico").exists()

    page = Client().get("/offline/").content.decode()
    assert "No connection" in page and "Sign out" not in page


def test_every_page_links_the_manifest_and_the_icons(alice: User, settings: Any) -> None:
    page = signed_in(alice).get("/groups/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<link rel="apple-touch-icon" href="/static/games/icons/icon-180.png">' in page
    assert '<script src="/static/games/app.js" defer></script>' in page
    # Signed out, the sign-in page asks the worker to forget the pages it kept.
    assert "data-forget-pages" in Client().get("/accounts/login/").content.decode()
    assert "data-forget-pages" not in page


def test_offline_app_off_leaves_the_worker_out(alice: User, settings: Any) -> None:
    settings.OFFLINE_APP = False
    page = signed_in(alice).get("/groups/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page  # still installable
    assert "/static/games/app.js" not in page
