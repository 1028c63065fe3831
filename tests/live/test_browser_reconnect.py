"""A real table's Wi-Fi: four phones in headless Chromium (360x740, touch) and the host's
page, one phone behind a TCP proxy that drops its connections (``tests/live/proxy.py``).

Di's phone loses its connection mid-entry, comes back, and loses it again just as she taps
Submit: her hand waits on the phone and goes by itself when the connection returns, the
deal is recorded exactly once with no second tap, every phone shows the result, and the
host's page said "offline" meanwhile. A submit the server answers with 503, and a tab
closed while its submit waited, are recorded once as well.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from games.models import Deal, Session
from tests.live.proxy import DroppingProxy
from tests.services.hands import HANDS
from tests.web.asgi_server import AsgiServer, _daphne, asgi_server
from tests.web.conftest import chromium
from tests.web.test_browser_live_table import (
    HOLDING,
    SEATS,
    UNITS,
    Phones,
    phones,
    recorded_units,
    seat_urls,
    sign_in,
    start_deal,
    tap_cards,
    tap_hand,
)
from tests.web.test_browser_picker import open_night

__all__ = ["_daphne", "asgi_server", "chromium", "open_night", "phones"]  # fixtures


@pytest.fixture
def proxy(asgi_server: AsgiServer) -> Iterator[DroppingProxy]:
    address = urlsplit(asgi_server.url)
    found = DroppingProxy((str(address.hostname), int(address.port or 80)))
    yield found
    found.close()


def kept(page: Any, path: str) -> bool:
    """Whether the service worker keeps ``path`` for the page's phone yet."""
    script = "p => caches.open('scorekeeper-pages').then(c => c.match(p)).then(r => !!r)"
    return bool(page.evaluate(script, path))


def through(proxy: DroppingProxy, url: str) -> str:
    return proxy.url + urlsplit(url).path


def host_page(phones: Phones, server: AsgiServer, session: Session) -> Any:
    page = phones.open(f"{server.url}/")
    sign_in(page, server, f"/sessions/{session.pk}/live/")
    expect(page.locator("#live-title")).to_be_visible()
    return page


def di_line(host: Any) -> Any:
    return host.locator('#live-seats li[data-seat="4"]')


def test_a_phone_that_drops_twice_is_recorded_once_without_a_second_tap_reconnect(
    phones: Phones, asgi_server: AsgiServer, open_night: Session, proxy: DroppingProxy
) -> None:
    urls = seat_urls(asgi_server, open_night)
    pages = [phones.open(url) for url in urls[:3]]
    di = phones.open(through(proxy, urls[3]))
    host = host_page(phones, asgi_server, open_night)
    start_deal(pages[0])
    expect(di.locator("#live-entry")).to_be_visible()
    for page, name in zip(pages, SEATS, strict=False):
        tap_hand(page, HOLDING[name])
        page.locator("#live-submit").tap()
        expect(page.locator("#live-done")).to_be_visible()
    hand = HANDS["D"]
    tap_cards(di, hand["front"])
    expect(di_line(host)).to_contain_text("3/13")  # the host sees how far she is

    proxy.drop()  # mid-entry
    expect(di_line(host)).to_contain_text("offline for")
    expect(di_line(host)).to_have_class(re.compile(r"\bphone-offline\b"))
    tap_cards(di, hand["middle"])  # she goes on: the picker works without the server
    proxy.restore()
    expect(di_line(host)).to_contain_text("8/13", timeout=15_000)  # back, her draft sent
    expect(di_line(host)).not_to_have_class(re.compile(r"\bphone-offline\b"))

    tap_cards(di, hand["back"])
    expect(di.locator("#p0-back")).to_have_value(hand["back"])
    proxy.drop()  # as she taps Submit
    di.locator("#live-submit").tap()
    expect(di.locator("#live-queued")).to_be_visible()
    expect(di.locator("#live-queued")).to_contain_text("sent by itself")
    expect(di.locator("#live-entry")).to_be_hidden()
    expect(di_line(host)).to_contain_text("offline for")
    assert Deal.objects.filter(session=open_night).count() == 0

    proxy.restore()  # no tap from here on
    for page in [*pages, di, host]:
        expect(page.locator("#live-result")).to_be_visible(timeout=20_000)
        rows = page.locator("#live-result-rows tr")
        expect(rows.nth(0).locator("td")).to_have_text(["-8", "+4", "+3", "+1"])
    expect(di.locator("#live-queued")).to_be_hidden()
    assert Deal.objects.filter(session=open_night).count() == 1
    assert recorded_units(open_night) == UNITS
    assert proxy.drops == 2


def test_a_submit_that_fails_at_once_waits_before_going_again_reconnect(
    phones: Phones, asgi_server: AsgiServer, open_night: Session, proxy: DroppingProxy
) -> None:
    # A network that refuses at once (the proxy resets every connection) fails a fetch in
    # a millisecond: the phone must still pause between tries (2 s, then 4 s), not ask
    # again as fast as it can, which kept a closed tab's process busy for good.
    urls = seat_urls(asgi_server, open_night)
    first = phones.open(urls[0])
    di = phones.open(through(proxy, urls[3]))
    start_deal(first)
    expect(di.locator("#live-entry")).to_be_visible()
    tap_hand(di, "D")
    tries: list[float] = []
    di.on(
        "request",
        lambda request: (
            tries.append(time.monotonic())
            if request.method == "POST" and request.url.endswith("/seats/4/submit/")
            else None
        ),
    )
    proxy.drop()
    di.locator("#live-submit").tap()
    expect(di.locator("#live-queued")).to_be_visible()
    di.wait_for_timeout(5_000)
    # The tap's try, then one after 2 s and one after 4 s more: three, perhaps four with a
    # reconnect's, never dozens.
    assert 2 <= len(tries) <= 4, len(tries)
    assert all(later - earlier >= 1.5 for earlier, later in itertools.pairwise(tries))
    proxy.restore()
    expect(di.locator("#live-queued")).to_be_hidden(timeout=20_000)


def test_a_submit_refused_with_503_goes_again_by_itself_reconnect(
    phones: Phones, asgi_server: AsgiServer, open_night: Session
) -> None:
    pages = [phones.open(url) for url in seat_urls(asgi_server, open_night)]
    start_deal(pages[0])
    for page, name in zip(pages[:3], SEATS, strict=False):
        tap_hand(page, HOLDING[name])
        page.locator("#live-submit").tap()
        expect(page.locator("#live-done")).to_be_visible()
    di = pages[3]
    tap_hand(di, "D")
    refused: list[str] = []

    def busy(route: Any) -> None:
        if not refused:  # the first copy meets a server over capacity
            refused.append(route.request.headers.get("idempotency-key", ""))
            route.fulfill(status=503, headers={"Retry-After": "1"}, json={"error": "busy"})
            return
        assert route.request.headers.get("idempotency-key") == refused[0]
        route.continue_()

    di.route("**/seats/4/submit/", busy)
    di.locator("#live-submit").tap()
    for page in pages:
        expect(page.locator("#live-result")).to_be_visible(timeout=10_000)
    assert refused and refused[0]
    assert Deal.objects.filter(session=open_night).count() == 1


def three_in_and_di_behind(
    phones: Phones, server: AsgiServer, session: Session, proxy: DroppingProxy
) -> tuple[list[str], list[Any], Any]:
    """A deal started with three seats' hands submitted, and Di's phone, behind the proxy,
    at her entry: the seat links, the three pages and hers."""
    urls = seat_urls(server, session)
    pages = [phones.open(url) for url in urls[:3]]
    di = phones.open(through(proxy, urls[3]))
    start_deal(pages[0])
    for page, name in zip(pages, SEATS, strict=False):
        tap_hand(page, HOLDING[name])
        page.locator("#live-submit").tap()
    expect(di.locator("#live-entry")).to_be_visible()
    return urls, pages, di


def test_a_tab_closed_while_its_submit_waited_sends_it_when_reopened_reconnect(
    phones: Phones, asgi_server: AsgiServer, open_night: Session, proxy: DroppingProxy
) -> None:
    urls, pages, di = three_in_and_di_behind(phones, asgi_server, open_night, proxy)
    tap_hand(di, "D")
    proxy.drop()
    di.locator("#live-submit").tap()
    expect(di.locator("#live-queued")).to_be_visible()
    context = di.context
    di.close()  # the tab is gone, the hand with it? no: it waits in the phone's storage
    proxy.restore()

    again = context.new_page()
    again.goto(through(proxy, urls[3]))

    for page in [*pages, again]:
        expect(page.locator("#live-result")).to_be_visible(timeout=15_000)
    assert Deal.objects.filter(session=open_night).count() == 1
    assert recorded_units(open_night) == UNITS


def test_a_seat_page_opened_again_with_no_network_shows_the_waiting_hand_reconnect(
    phones: Phones, asgi_server: AsgiServer, open_night: Session, proxy: DroppingProxy
) -> None:
    urls, pages, di = three_in_and_di_behind(phones, asgi_server, open_night, proxy)
    # The service worker keeps the seat page for the phone once it looks after it.
    path = urlsplit(urls[3]).path
    for _ in range(50):
        if kept(di, path):
            break
        di.wait_for_timeout(200)
    assert kept(di, path)
    tap_hand(di, "D")
    proxy.drop()
    di.locator("#live-submit").tap()
    expect(di.locator("#live-queued")).to_be_visible()
    context = di.context
    di.close()

    again = context.new_page()  # from the home screen, the Wi-Fi still gone
    # What the player sees is what counts: the page's load event may wait on a request the
    # dead network holds, and the service worker has the page itself at once.
    again.goto(through(proxy, urls[3]), wait_until="commit")
    expect(again.locator("#live-queued")).to_contain_text("sent by itself", timeout=15_000)
    expect(again.locator("#live-connection")).to_contain_text("Offline", timeout=15_000)
    assert Deal.objects.filter(session=open_night).count() == 0

    proxy.restore()  # no tap: the hand goes by itself
    for page in [*pages, again]:
        expect(page.locator("#live-result")).to_be_visible(timeout=20_000)
    assert Deal.objects.filter(session=open_night).count() == 1
    assert recorded_units(open_night) == UNITS


def test_a_state_fetch_turned_away_busy_is_asked_again_by_itself_reconnect(
    phones: Phones, asgi_server: AsgiServer, open_night: Session
) -> None:
    calls = {"busy": 0, "served": 0}

    def busy_at_first(route: Any) -> None:
        # The first two fetches meet a server over capacity; its socket opens all the same.
        if route.request.method == "GET" and calls["busy"] < 2:
            calls["busy"] += 1
            route.fulfill(status=503, headers={"Retry-After": "1"}, json={"error": "busy"})
            return
        calls["served"] += route.request.method == "GET"
        route.continue_()

    seat = phones.open("about:blank")
    seat.route(re.compile(r".*/api/v1/sessions/\d+/live/$"), busy_at_first)
    seat.goto(seat_urls(asgi_server, open_night)[0])

    # Nothing changes at the table, so nothing else makes the page ask: it asks again
    # after the Retry-After by itself, once however many fetches were turned away.
    for _ in range(50):
        if calls["served"]:
            break
        seat.wait_for_timeout(200)
    assert calls == {"busy": 2, "served": 1}
    expect(seat.locator("#live-none")).to_be_visible()
