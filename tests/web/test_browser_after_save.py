"""After Save, in headless Chromium on a touch phone: the saved notice with Next deal and
Undo; Void asks first and an owner restores the deal."""

from typing import Any

from playwright.sync_api import expect

from games.models import Deal, Session
from tests.web.test_browser_offline import type_deal
from tests.web.test_browser_picker import open_night, phone_at

__all__ = ["open_night"]  # the fixture, used by name


def test_saved_then_voided_after_asking_then_restored(
    chromium: Any, live_server: Any, open_night: Session
) -> None:
    page = phone_at(chromium, live_server, f"/sessions/{open_night.pk}/deal/")
    type_deal(page)
    page.locator(".actions button[name=save]").tap()
    notice = page.locator("#saved")
    expect(notice.get_by_role("heading")).to_have_text("Deal 1 saved")
    expect(notice).to_contain_text("Ann -8, Bob +4, Cy +3, Di +1")
    expect(notice.get_by_role("link", name="Next deal")).to_be_visible()
    expect(notice.get_by_role("button", name="Undo deal 1")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Void asks first: answered No, nothing happens; Yes, the deal is void.
    answers = iter([False, True])
    questions: list[str] = []

    def answer(dialog: Any) -> None:
        questions.append(dialog.message)
        if next(answers):
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    page.locator("#deal-1 details.void summary").tap()
    page.fill("#void-reason-1", "wrong table")
    page.get_by_role("button", name="Void deal 1").tap()
    expect(page.get_by_role("button", name="Void deal 1")).to_be_visible()
    assert open_night.deals.get().status == Deal.Status.ACTIVE
    page.get_by_role("button", name="Void deal 1").tap()
    expect(page.locator("#deal-1 .badge.void")).to_be_visible()
    assert questions == [questions[0]] * 2 and questions[0].startswith("Void deal 1?")
    assert open_night.deals.get().status == Deal.Status.VOID

    # The owner restores it; its history tells both.
    page.locator("#deal-1 details.void summary").tap()
    page.fill("#restore-reason-1", "right table after all")
    page.get_by_role("button", name="Restore deal 1").tap()
    expect(page.locator("#deal-1 .badge.void")).to_have_count(0)
    page.locator("#deal-1 details.history summary").tap()
    expect(page.locator("#deal-1 details.history")).to_contain_text("restored by alice")
    assert open_night.deals.get().status == Deal.Status.ACTIVE
    page.close()
