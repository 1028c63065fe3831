"""The live table on four phones, in headless Chromium at 360x740 with touch.

Each phone opens its own seat link (no account) and taps its own 13 cards
(``tests/services/hands.py``: Ann A, Bob B, Cy C, Di D under classic-1-6, so Ann -8,
Bob +4, Cy +3, Di +1). The pages talk to Daphne (``tests/web/asgi_server.py``) over a
WebSocket; the deal is recorded once and every phone shows it within a second of the last
submit. A phone that goes offline mid-entry keeps its cards; two submitted hands holding the
same card are both told, and nothing is recorded until it is fixed; an open scoreboard
follows a deal recorded from another page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import expect

from games.live import seat_links
from games.models import Deal, LiveEntry, Session
from tests.services.hands import HANDS
from tests.web.asgi_server import AsgiServer
from tests.web.browser import PHONE, watch_csp
from tests.web.conftest import PASSWORD
from tests.web.test_browser_picker import open_night

__all__ = ["open_night"]  # fixtures, used by name

SEATS = ("Ann", "Bob", "Cy", "Di")
HOLDING = dict(zip(SEATS, "ABCD", strict=True))
UNITS = {"Ann": Decimal(-8), "Bob": Decimal(4), "Cy": Decimal(3), "Di": Decimal(1)}


class Phones:
    """Browser contexts as separate phones (storage of their own), each page watched for
    Content-Security-Policy violations."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium
        self.contexts: list[Any] = []
        self.violations: list[list[str]] = []

    def open(self, url: str) -> Any:
        context = self.chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        self.violations.append(watch_csp(page))
        page.goto(url)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        assert [v for page in self.violations for v in page] == []


@pytest.fixture
def phones(chromium: Any) -> Iterator[Phones]:
    found = Phones(chromium)
    yield found
    found.close()


def seat_urls(server: AsgiServer, session: Session) -> list[str]:
    return [
        f"{server.url}/seat/{seat_links.token_for(link)}/"
        for link in seat_links.make_links(session)
    ]


def tap_cards(page: Any, cards: str) -> None:
    for card in cards.split():
        page.locator(f'#picker button.pick[data-card="{card}"]').tap()


def tap_hand(page: Any, hand: str) -> None:
    for row, cards in HANDS[hand].items():
        tap_cards(page, cards)
        expect(page.locator(f"#p0-{row}")).to_have_value(cards)


def start_deal(page: Any) -> None:
    page.locator("#live-open").tap()
    expect(page.locator("#live-entry")).to_be_visible()


def recorded_units(session: Session) -> dict[str, Decimal]:
    deal = Deal.objects.get(session=session)
    return {p["name"]: Decimal(p["units"]) for p in deal.result["players"]}


def test_four_phones_enter_their_own_hands(
    phones: Phones, asgi_server: AsgiServer, open_night: Session
) -> None:
    pages = [phones.open(url) for url in seat_urls(asgi_server, open_night)]
    expect(pages[0].locator("#seat-title")).to_contain_text("Ann")
    start_deal(pages[0])
    for page in pages[1:]:  # the others are told over the socket
        expect(page.locator("#live-entry")).to_be_visible()
    for page, name in zip(pages[:3], SEATS, strict=False):
        tap_hand(page, HOLDING[name])
        page.locator("#live-submit").tap()
        expect(page.locator("#live-done")).to_be_visible()
    # Everyone sees who is done.
    for page in pages:
        expect(page.locator("#live-seats li.submitted")).to_have_count(3)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    tap_hand(pages[3], "D")
    fetched: list[list[str]] = [[] for _ in pages]
    for page, urls in zip(pages, fetched, strict=True):
        page.on("request", lambda r, urls=urls: urls.append(r.url) if r.method == "GET" else None)
    with pages[3].expect_response(lambda r: r.url.endswith("/seats/4/submit/")) as last:
        pages[3].locator("#live-submit").tap()
    assert last.value.status == 200
    # Within a second of the last submit's answer, every phone shows the result.
    for page in pages:
        expect(page.locator("#live-result")).to_be_visible(timeout=1_000)
        rows = page.locator("#live-result-rows tr")
        expect(rows.nth(0).locator("td")).to_have_text(["-8", "+4", "+3", "+1"])
        expect(rows.nth(1).locator("td")).to_have_text(["-8", "+4", "+3", "+1"])  # the totals
    # The socket brought it: no phone asked the server for the state.
    assert [[u for u in urls if u.endswith("/live/")] for urls in fetched] == [[]] * 4
    assert Deal.objects.filter(session=open_night).count() == 1
    assert recorded_units(open_night) == UNITS


def test_a_phone_offline_mid_entry_keeps_its_cards(
    phones: Phones, asgi_server: AsgiServer, open_night: Session
) -> None:
    pages = [phones.open(url) for url in seat_urls(asgi_server, open_night)]
    start_deal(pages[0])
    for page, name in zip(pages[:3], SEATS, strict=False):
        expect(page.locator("#live-entry")).to_be_visible()
        tap_hand(page, HOLDING[name])
        page.locator("#live-submit").tap()
        expect(page.locator("#live-done")).to_be_visible()
    di = pages[3]
    expect(di.locator("#live-entry")).to_be_visible()
    tap_cards(di, HANDS["D"]["front"])
    di.context.set_offline(True)
    tap_cards(di, HANDS["D"]["middle"] + " " + HANDS["D"]["back"])
    di.wait_for_timeout(800)  # the draft's save fails: it stays on the phone
    di.context.set_offline(False)
    di.reload()
    for row, cards in HANDS["D"].items():
        expect(di.locator(f"#p0-{row}")).to_have_value(cards)
    # Back online, the draft reaches the server too.
    di.wait_for_timeout(1_000)
    entry = LiveEntry.objects.get(player__name="Di").entry
    assert entry is not None and entry["back"] == HANDS["D"]["back"]
    di.locator("#live-submit").tap()
    for page in pages:
        expect(page.locator("#live-result")).to_be_visible()
    assert recorded_units(open_night) == UNITS


def test_the_same_card_in_two_seats(
    phones: Phones, asgi_server: AsgiServer, open_night: Session
) -> None:
    pages = [phones.open(url) for url in seat_urls(asgi_server, open_night)]
    ann, bob = pages[0], pages[1]
    start_deal(ann)
    expect(bob.locator("#live-entry")).to_be_visible()
    # Ann puts Bob's 2c in her front row instead of her Ac.
    ann.fill("#p0-front", "2c Kc 3d")
    ann.fill("#p0-middle", HANDS["A"]["middle"])
    ann.fill("#p0-back", HANDS["A"]["back"])
    ann.locator("#live-submit").tap()
    expect(ann.locator("#live-done")).to_be_visible()
    for page, name in zip(pages[1:], SEATS[1:], strict=True):
        expect(page.locator("#live-entry")).to_be_visible()
        tap_hand(page, HOLDING[name])
        page.locator("#live-submit").tap()
    # Both hands are in: each of the two seats is told the card and who else holds it.
    expect(bob.locator("#live-conflicts")).to_contain_text("2c is also in Ann's hand")
    expect(ann.locator("#live-conflicts")).to_contain_text("2c is also in Bob's hand")
    assert Deal.objects.filter(session=open_night).count() == 0
    # Ann takes her hand back and fixes it: every seat is in, the deal is recorded.
    ann.locator("#live-withdraw").tap()
    expect(ann.locator("#live-entry")).to_be_visible()
    ann.fill("#p0-front", HANDS["A"]["front"])
    ann.locator("#live-submit").tap()
    for page in pages:
        expect(page.locator("#live-result")).to_be_visible()
    assert recorded_units(open_night) == UNITS


def sign_in(page: Any, server: AsgiServer, path: str) -> None:
    page.goto(f"{server.url}/accounts/login/?next={path}")
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def test_the_scoreboard_follows_a_deal_typed_by_the_host(
    phones: Phones, asgi_server: AsgiServer, open_night: Session
) -> None:
    board = phones.open(f"{asgi_server.url}/")
    sign_in(board, asgi_server, f"/sessions/{open_night.pk}/")
    expect(board.locator("#live-link")).to_be_visible()
    board.evaluate("window.scrollTo(0, 200)")
    host = board.context.new_page()
    phones.violations.append(watch_csp(host))
    host.set_default_timeout(10_000)
    host.goto(f"{asgi_server.url}/sessions/{open_night.pk}/live/")
    expect(host.locator(".seat-link svg")).to_have_count(4)  # a QR code per seat
    assert host.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    host.locator("#live-open").tap()
    expect(host.locator("#live-cancel")).to_be_visible()
    for k, name in enumerate(SEATS, start=1):
        host.locator(f"details.host-seat:nth-of-type({k}) summary").tap()
        for row, cards in HANDS[HOLDING[name]].items():
            host.fill(f"#h{k}-{row}", cards)
        host.locator(f'form.host-form[data-seat="{k}"] button[type=submit]').tap()
        if k < len(SEATS):  # the last submit records the deal
            seat = host.locator(f'#live-seats li[data-seat="{k}"]')
            expect(seat).to_have_class(re.compile(r"\blive-seat submitted\b"))
    expect(host.locator("#live-result")).to_be_visible()
    # The scoreboard, never reloaded, now lists deal 1 and the totals.
    expect(board.locator("#deals")).to_contain_text("1", timeout=3_000)
    expect(board.locator("#scoreboard .totals")).to_contain_text("-8")
    assert recorded_units(open_night) == UNITS


def test_pages_served_by_wsgi_open_their_socket_where_live_socket_url_says(
    phones: Phones, live_server: Any, asgi_server: AsgiServer, open_night: Session, settings: Any
) -> None:
    """As ``make serve-prod`` runs it: the page comes from the WSGI server (gunicorn there,
    pytest-django's live server here), and its socket goes to Daphne on another port."""
    port = asgi_server.url.rsplit(":", 1)[1]
    settings.LIVE_SOCKET_URL = f"ws://{{host}}:{port}"
    ann, bob = (
        phones.open(url.replace(asgi_server.url, live_server.url))
        for url in seat_urls(asgi_server, open_night)[:2]
    )
    for page in (ann, bob):
        expect(page.locator("#live-connection")).to_have_text("Live: changes show as they happen.")
    # Ann starts the deal through the WSGI server; Bob hears it on Daphne's socket.
    start_deal(ann)
    expect(bob.locator("#live-entry")).to_be_visible(timeout=1_500)  # before a 2 s poll


def test_a_phone_whose_link_is_revoked_is_told_at_once(
    phones: Phones, asgi_server: AsgiServer, open_night: Session
) -> None:
    old_url = seat_urls(asgi_server, open_night)[1]
    bob = phones.open(old_url)
    expect(bob.locator("#live-connection")).to_have_text("Live: changes show as they happen.")
    # The owner revokes Bob's link on the live table's page.
    host = phones.open(f"{asgi_server.url}/")
    sign_in(host, asgi_server, f"/sessions/{open_night.pk}/live/")
    host.on("dialog", lambda dialog: dialog.accept())
    host.locator("button.revoke-seat").nth(1).tap()
    # Bob's socket is closed; his page asks why and says it, instead of offering a deal.
    expect(bob.locator("#live-message")).to_have_text(
        "This seat link was revoked: ask the host for the new one.", timeout=1_500
    )
    expect(bob.locator("#live-none")).to_be_hidden()
    expect(bob.locator("#live-entry")).to_be_hidden()
    # The page shows the seat's new link, which works.
    link = host.locator(".seat-link input").nth(1)
    expect(link).not_to_have_value(old_url)
    fresh = phones.open(link.input_value())
    expect(fresh.locator("#seat-title")).to_contain_text("Bob")
