"""A typed deal is never lost, in headless Chromium on a touch phone.

Half a deal typed and the page reloaded: it comes back, with a notice, and leaving asks
first. Offline: a banner shows, Save queues the deal on the phone; the scoreboard lists it
while it cannot be sent; back online it is sent with its idempotency key, and a second
send (another page sending the same queue) still stores exactly one deal.
"""

from typing import Any

from playwright.sync_api import expect

from games.models import Deal, Session
from tests.services.hands import HANDS
from tests.web.test_browser_picker import open_night, phone_at

__all__ = ["open_night"]  # the fixture, used by name


def type_deal(page: Any, hands: str = "ABCD") -> None:
    for k, hand in enumerate(hands):
        for row, cards in HANDS[hand].items():
            page.fill(f"#p{k}-{row}", cards)


def test_half_a_deal_comes_back_after_a_reload(
    chromium: Any, live_server: Any, open_night: Session
) -> None:
    page = phone_at(chromium, live_server, f"/sessions/{open_night.pk}/deal/")
    key = page.input_value("input[name=idempotency_key]")
    type_deal(page, "AB")
    page.locator("#p2-front").press_sequentially("Qc Jc")
    dialogs: list[str] = []

    def answer(dialog: Any) -> None:
        dialogs.append(dialog.type)
        dialog.accept()

    page.on("dialog", answer)
    page.reload()
    assert dialogs == ["beforeunload"]  # leaving with a draft asks first
    expect(page.locator("#draft-notice")).to_be_visible()
    expect(page.locator("#draft-text")).to_contain_text("Restored the deal you were typing")
    for k, hand in enumerate("AB"):
        for row, cards in HANDS[hand].items():
            expect(page.locator(f"#p{k}-{row}")).to_have_value(cards)
    expect(page.locator("#p2-front")).to_have_value("Qc Jc")
    # The same key: saving the restored deal twice stores it once.
    assert page.input_value("input[name=idempotency_key]") == key
    expect(page.locator("#picker-target")).to_contain_text("Cy · Front: 2 of 3")
    # Starting afresh clears the rows and forgets the draft.
    page.locator("#draft-discard").tap()
    expect(page.locator("#p0-front")).to_have_value("")
    assert page.input_value("input[name=idempotency_key]") != key
    page.reload()
    expect(page.locator("#draft-notice")).to_be_hidden()
    assert dialogs == ["beforeunload"]
    page.close()


def test_a_deal_saved_offline_is_queued_and_lands_once(
    chromium: Any, live_server: Any, open_night: Session
) -> None:
    page = phone_at(chromium, live_server, f"/sessions/{open_night.pk}/deal/")
    type_deal(page)
    key = page.input_value("input[name=idempotency_key]")
    page.context.set_offline(True)
    expect(page.locator("#offline-banner")).to_be_visible()
    page.locator(".actions button[name=save]").tap()
    expect(page.locator("#draft-text")).to_contain_text("Queued")
    expect(page.locator("#queued-list li")).to_contain_text("Ann, Bob, Cy, Di")
    expect(page.locator("#p0-front")).to_have_value("")  # ready for the next deal
    assert page.input_value("input[name=idempotency_key]") != key
    assert Deal.objects.count() == 0

    # Online again but the posts failing: the scoreboard lists the deal still queued.
    page.route("**/deal/", lambda route: route.abort())
    page.context.set_offline(False)
    page.goto(f"{live_server.url}/sessions/{open_night.pk}/")
    expect(page.locator("#queued-list li")).to_contain_text("queued on this phone")
    assert Deal.objects.count() == 0

    # Sent, but its answer lost on the way back: stored, and still queued on the phone.
    posts: list[int] = []

    def answer_lost(route: Any) -> None:
        posts.append(route.fetch(max_redirects=0).status)
        route.abort()

    page.unroute("**/deal/")
    page.route("**/deal/", answer_lost)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_load_state("networkidle")
    assert posts == [302]
    assert Deal.objects.count() == 1
    expect(page.locator("#queued-list li")).to_contain_text("queued on this phone")

    # The connection back for good: the same deal is sent again with its key, and lands
    # once; the scoreboard shows it in place of the queue.
    page.unroute("**/deal/")
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#last-h")).to_have_text("Deal 1, pair by pair")
    expect(page.locator("#queued")).to_be_hidden()
    deal = Deal.objects.get(session=open_night)
    assert deal.idempotency_key == key
    units = {p["name"]: p["units"] for p in deal.result["players"]}
    assert units == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    page.reload()
    expect(page.locator("#queued")).to_be_hidden()
    assert Deal.objects.count() == 1
    page.close()
