"""A hand the scorer refuses at the live table, on four phones in headless Chromium at
360x740 with touch, each in its own language: Ann (Vietnamese) submits a front of two
cards, the others their hands; nothing is recorded, Ann's phone says why with her cards
and gives her hand back, and every other phone says why in its own language with her
cards hidden. Ann fixes her front and the deal is recorded.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.models import Deal, Session
from tests.services.hands import HANDS
from tests.web.asgi_server import AsgiServer
from tests.web.browser import PHONE, watch_csp
from tests.web.test_browser_live_table import (
    HOLDING,
    SEATS,
    UNITS,
    recorded_units,
    seat_urls,
    start_deal,
    tap_hand,
)
from tests.web.test_browser_picker import open_night

__all__ = ["open_night"]  # a fixture, used by name

LANGUAGES = ("vi", "zh-hans", "zh-hant", "en")


def _phone(chromium: Any, server: AsgiServer, url: str, language: str) -> tuple[Any, Any]:
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale=language)
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def test_a_refused_hand_is_told_whole_to_its_seat_only(
    chromium: Any, asgi_server: AsgiServer, open_night: Session
) -> None:
    opened = [
        _phone(chromium, asgi_server, url, language)
        for url, language in zip(seat_urls(asgi_server, open_night), LANGUAGES, strict=True)
    ]
    contexts = [context for context, _page in opened]
    pages = [page for _context, page in opened]
    violations = [watch_csp(page) for page in pages]
    try:
        for page, url in zip(pages, seat_urls(asgi_server, open_night), strict=True):
            page.goto(url)
        ann = pages[0]
        start_deal(ann)
        ann.fill("#p0-front", "Ac Kc")
        ann.fill("#p0-middle", HANDS["A"]["middle"])
        ann.fill("#p0-back", HANDS["A"]["back"])
        ann.locator("#live-submit").tap()
        expect(ann.locator("#live-done")).to_be_visible()
        for page, name in zip(pages[1:], SEATS[1:], strict=True):
            expect(page.locator("#live-entry")).to_be_visible()
            tap_hand(page, HOLDING[name])
            page.locator("#live-submit").tap()
        said = {
            "vi": "Ann, chi đầu: có 2 lá (Ac Kc), chi đầu cần 3 lá",
            "zh-hans": "Ann，头道：给了 2 张（…），头道需要 3 张",
            "zh-hant": "Ann，頭道：給了 2 張（…），頭道需要 3 張",
            "en": "Ann, front: 2 cards given (…), the front row needs 3",
        }
        for page, language in zip(pages, LANGUAGES, strict=True):
            expect(page.locator("#live-message")).to_have_text(said[language])
            assert "Kc" not in page.locator("#live-message").inner_text() or page is ann
        assert Deal.objects.filter(session=open_night).count() == 0
        # Ann's hand is back with her to fix; Di's stays submitted.
        expect(ann.locator("#live-entry")).to_be_visible()
        expect(pages[3].locator("#live-done")).to_be_visible()
        ann.fill("#p0-front", HANDS["A"]["front"])
        ann.locator("#live-submit").tap()
        for page in pages:
            expect(page.locator("#live-result")).to_be_visible()
        assert recorded_units(open_night) == UNITS
    finally:
        for context in contexts:
            context.close()
    assert [v for page in violations for v in page] == []
