"""The installed app with no network, in headless Chromium on a touch phone.

Alice opens the deal page through a TCP proxy (``tests/live/proxy.py``) and types half a
deal. The proxy then drops every connection, as a phone whose Wi-Fi went: Playwright's
offline switch would leave the service worker's own requests alone. A new tab opened
on the deal page, cold, shows the page from the service worker with the draft restored,
not the browser's error page; a page never opened shows the app's offline page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from games.models import Session
from tests.live.proxy import DroppingProxy
from tests.services.hands import HANDS
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD
from tests.web.test_browser_picker import open_night

__all__ = ["open_night"]  # the fixture, used by name


@pytest.fixture
def proxy(live_server: Any) -> Iterator[DroppingProxy]:
    address = urlsplit(live_server.url)
    found = DroppingProxy((str(address.hostname), int(address.port or 80)))
    yield found
    found.close()


def kept(page: Any, path: str) -> bool:
    """Whether the service worker keeps ``path`` for offline use yet."""
    script = "p => caches.open('scorekeeper-pages').then(c => c.match(p)).then(r => !!r)"
    return bool(page.evaluate(script, path))


def test_the_deal_page_opens_offline_with_its_draft(
    chromium: Any, proxy: DroppingProxy, open_night: Session, settings: Any
) -> None:
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    deal_path = f"/sessions/{open_night.pk}/deal/"
    page.goto(f"{proxy.url}/accounts/login/?next={deal_path}")
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_selector("#picker:not([hidden])")
    # What the browser reads to offer the install: the manifest the page links, and a
    # service worker looking after the whole site.
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert (manifest["display"], manifest["start_url"], manifest["scope"]) == (
        "standalone",
        "/groups/",
        "/",
    )
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    scope = page.evaluate(
        "Promise.race([navigator.serviceWorker.ready.then(r => new URL(r.scope).pathname),"
        " new Promise(done => setTimeout(() => done('no worker within 10 s'), 10000))])"
    )
    assert scope == "/"
    for row, cards in HANDS["A"].items():
        page.fill(f"#p0-{row}", cards)
    for _ in range(100):  # the worker keeps the page (app.js asked it to)
        if kept(page, deal_path):
            break
        page.wait_for_timeout(100)
    assert kept(page, deal_path)

    # The scoreboard, opened once (in a tab of its own: the deal page keeps its draft).
    board_path = f"/sessions/{open_night.pk}/"
    board = context.new_page()
    board.goto(proxy.url + board_path)
    board_heading = board.locator("h1").inner_text()
    for _ in range(100):
        if kept(board, board_path):
            break
        board.wait_for_timeout(100)
    assert kept(board, board_path)
    board.close()

    proxy.drop()  # the network gone, for the worker too
    context.set_offline(True)  # and the phone knows it (navigator.onLine)
    cold = context.new_page()
    cold.goto(proxy.url + deal_path)

    expect(cold.locator("#deal-form")).to_be_visible()
    expect(cold.locator("#draft-notice")).to_be_visible()
    for row, cards in HANDS["A"].items():
        expect(cold.locator(f"#p0-{row}")).to_have_value(cards)
    expect(cold.locator("#offline-banner")).to_be_visible()

    board = context.new_page()
    board.goto(proxy.url + board_path)
    expect(board.locator("h1")).to_have_text(board_heading)

    never = context.new_page()
    never.goto(f"{proxy.url}/groups/{open_night.group_id}/balances/")
    expect(never.locator("h1")).to_have_text("No connection")

    context.set_offline(False)
    proxy.restore()
    context.close()
