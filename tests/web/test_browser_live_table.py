"""The live table on four phones, in headless Chromium at 360x740 with touch.

Each phone opens its own seat link (no account) and taps its own 13 cards
(``tests/services/hands.py``: Ann A, Bob B, Cy C, Di D under classic-1-6, so Ann -8,
Bob +4, Cy +3, Di +1). The pages talk to Daphne (``tests/web/asgi_server.py``) over a
WebSocket; the deal is recorded once and every phone shows it within a second of the last
submit, and no page overflows 360 px.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Deal, Session
from games.services import seat_links
from tests.services.hands import HANDS
from tests.web.asgi_server import AsgiServer
from tests.web.browser import PHONE, watch_csp
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
    with pages[3].expect_response(lambda r: r.url.endswith("/seats/4/submit/")) as last:
        pages[3].locator("#live-submit").tap()
    assert last.value.status == 200
    # Within a second of the last submit's answer, every phone shows the result.
    for page in pages:
        expect(page.locator("#live-result")).to_be_visible(timeout=1_000)
        expect(page.locator("#live-result-units td")).to_have_text(["-8", "4", "3", "1"])
    assert Deal.objects.filter(session=open_night).count() == 1
    assert recorded_units(open_night) == UNITS
