"""A seat's page says what the deal form says, in headless Chromium at 360x740 with touch.

Ann and Bob play heads-up from their own phones (classic-1-6, 0.5 EUR a unit). Ann puts a
pair of kings in front of a pair of threes: her page names each row's hand as it fills and
warns of the foul; her first tap on Submit is stopped with the warning, the second sends
the hand. Once Bob submits, each page tells its player's pair with its reason and money,
Bob's in Vietnamese (his phone reads that language), Ann's in English although the deal
reached her in Bob's words over the WebSocket.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import services
from games.models import Deal, LiveEntry, Session
from tests.web.asgi_server import AsgiServer
from tests.web.browser import PHONE, watch_csp
from tests.web.conftest import PASSWORD
from tests.web.test_browser_live_table import seat_urls, start_deal

KINGS_OVER_THREES = {"front": "Kc Kd 2h", "middle": "3c 3d 4h 5s 7d", "back": "Ac Ad As 9c 9d"}
BOBS_HAND = {"front": "Qc Jc 9h", "middle": "8c 8d 8h Ah 2s", "back": "6c 6h 6s Th Td"}


@pytest.fixture
def heads_up(transactional_db: None) -> Session:
    alice = User.objects.create_user("alice", password=PASSWORD)
    group = services.create_group(alice, "Friday club", "EUR", Decimal("0.5"), "classic-1-6")
    players = [services.add_player(group, name, by=alice) for name in ("Ann", "Bob")]
    return services.start_session(group, players, alice)


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    """Opens a seat's page on a phone of its own (``locale``: the language it reads)."""
    contexts: list[Any] = []
    violations: list[list[str]] = []

    def open_page(url: str, locale: str = "en-GB") -> Any:
        context = chromium.new_context(
            viewport=PHONE, has_touch=True, is_mobile=True, locale=locale
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        violations.append(watch_csp(page))
        page.goto(url)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert [v for page in violations for v in page] == []


def test_a_fouling_hand_is_named_warned_of_and_sent_on_the_second_tap(
    phone: Any, asgi_server: AsgiServer, heads_up: Session
) -> None:
    ann_url, bob_url = seat_urls(asgi_server, heads_up)
    ann, bob = phone(ann_url), phone(bob_url, "vi-VN")
    start_deal(ann)
    expect(bob.locator("#live-entry")).to_be_visible()

    # Ann's rows are named as they fill, a row half typed says how far it is.
    ann.fill("#p0-front", KINGS_OVER_THREES["front"])
    expect(ann.locator("#p0-front-fb .label")).to_have_text("Pair of Kings, 2 kicker")
    ann.fill("#p0-middle", "3c 3d")
    expect(ann.locator("#p0-middle-fb .progress")).to_have_text("2 of 5")
    ann.fill("#p0-middle", KINGS_OVER_THREES["middle"])
    expect(ann.locator("#p0-middle-fb .label")).to_have_text("Pair of Threes, 7 5 4 kickers")
    expect(ann.locator("#p0-foul")).to_be_hidden()
    ann.fill("#p0-back", KINGS_OVER_THREES["back"])
    expect(ann.locator("#p0-back-fb .label")).to_have_text("Full house, Aces over Nines")
    foul = ann.locator("#p0-foul")
    expect(foul).to_have_text(
        "Foul: front Pair of Kings, 2 kicker beats middle Pair of Threes, 7 5 4 kickers"
    )
    assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The first tap is stopped: nothing is sent, the warning says why and what to do.
    submits: list[str] = []
    ann.on("request", lambda r: submits.append(r.url) if r.url.endswith("/submit/") else None)
    ann.locator("#live-submit").tap()
    expect(foul).to_have_class("foul warned")
    expect(foul).to_contain_text("This hand fouls: front Pair of Kings")
    expect(ann.locator("#live-submit")).to_have_text("Submit anyway (this hand fouls)")
    ann.wait_for_timeout(300)
    assert submits == []
    assert LiveEntry.objects.get(player__name="Ann").submitted_at is None
    expect(ann.locator("#live-done")).to_be_hidden()

    # The second tap, the rows unchanged, sends the hand; the page says what was sent.
    ann.locator("#live-submit").tap()
    expect(ann.locator("#live-done")).to_be_visible()
    summary = ann.locator("#live-done-summary li")
    expect(summary).to_have_text(
        [
            "Front: Pair of Kings, 2 kicker",
            "Middle: Pair of Threes, 7 5 4 kickers",
            "Back: Full house, Aces over Nines",
            "Foul: front Pair of Kings, 2 kicker beats middle Pair of Threes, 7 5 4 kickers",
        ]
    )
    assert len(submits) == 1

    # Bob's hand fouls nothing: his first tap sends it, and the deal is recorded.
    for row, cards in BOBS_HAND.items():
        bob.fill(f"#p0-{row}", cards)
    expect(bob.locator("#p0-back-fb .label")).to_have_text("Cù lũ 6 đôi 10")
    fetched: dict[str, list[str]] = {"ann": [], "bob": []}
    for name, page in (("ann", ann), ("bob", bob)):
        page.on(
            "request",
            lambda r, urls=fetched[name]: (
                urls.append(r.url) if r.method == "GET" and r.url.endswith("/live/") else None
            ),
        )
    bob.locator("#live-submit").tap()

    # Each page tells its own player's pair, with the reason, and the money.
    expect(ann.locator("#live-result-pairs li")).to_have_text(["-3 to Bob: foul"])
    expect(ann.locator("#live-result-money span")).to_have_text(
        ["This deal: -1.50 EUR", "Tonight: -1.50 EUR"]
    )
    expect(bob.locator("#live-result-pairs li")).to_have_text(["+3 từ Ann: binh lủng"])
    expect(bob.locator("#live-result-money span")).to_have_text(
        ["Ván này: +1,50 EUR", "Tối nay: +1,50 EUR"]
    )
    # The deal reached Ann in Bob's words, so her page asked for its own, once; Bob's
    # page had its own words already.
    assert (len(fetched["ann"]), fetched["bob"]) == (1, [])
    deal = Deal.objects.get(session=heads_up)
    assert {p["name"]: p["units"] for p in deal.result["players"]} == {"Ann": "-3", "Bob": "3"}
