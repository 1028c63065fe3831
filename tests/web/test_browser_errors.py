"""Errors on the deal page stay where they happen, in headless Chromium at phone width.

Enter moves from row to row and never saves a half-typed deal; a row being filled is
counted ("2 of 5"), not called wrong; the server's refusal of a Save stays on screen and
focused whatever the live feedback says, until the row it names is changed.
"""

from typing import Any

from playwright.sync_api import expect

from games.models import Session
from tests.services.hands import HANDS
from tests.web.test_browser_picker import open_night, phone_at

__all__ = ["open_night"]  # the fixture, used by name


def test_enter_moves_to_the_next_row_and_saves_nothing(
    chromium: Any, live_server: Any, open_night: Session
) -> None:
    page = phone_at(chromium, live_server, f"/sessions/{open_night.pk}/deal/")
    # Typing only: the picker put away, no row is marked for it.
    page.locator("#picker-hide").tap()
    expect(page.locator("#picker")).to_be_hidden()
    expect(page.locator(".row-entry.active")).to_have_count(0)
    page.focus("#p0-front")
    expect(page.locator("#picker")).to_be_hidden()
    page.keyboard.type(HANDS["A"]["front"])
    page.keyboard.press("Enter")
    expect(page.locator("#p0-middle")).to_be_focused()
    page.keyboard.type("4c 4d")
    expect(page.locator("#p0-middle-fb .progress")).to_have_text("2 of 5")
    expect(page.locator("#p0-middle-fb .error")).to_have_count(0)
    page.keyboard.press("Enter")
    expect(page.locator("#p0-back")).to_be_focused()
    # From the last row, Enter goes back to the first row still short of cards.
    page.focus("#p3-back")
    page.keyboard.press("Enter")
    expect(page.locator("#p0-middle")).to_be_focused()
    assert page.url.endswith(f"/sessions/{open_night.pk}/deal/")
    assert open_night.deals.count() == 0
    # The cards back: they fill the row being typed.
    page.locator("#picker-show").tap()
    expect(page.locator("#picker-target")).to_have_text("Tap the cards for Ann · Middle: 2 of 5")
    page.close()


def test_a_refused_save_stays_on_screen_until_its_row_is_fixed(
    chromium: Any, live_server: Any, open_night: Session
) -> None:
    page = phone_at(chromium, live_server, f"/sessions/{open_night.pk}/deal/")
    for k, hand in enumerate("ABCD"):
        for row, cards in HANDS[hand].items():
            if (k, row) != (1, "middle"):
                page.fill(f"#p{k}-{row}", cards)
    page.locator(".actions button[name=save]").tap()
    # The page comes back with the server's message beside Bob's middle row, focused.
    middle = page.locator("#p1-middle")
    expect(middle).to_be_focused()
    expect(middle).to_have_attribute("aria-invalid", "true")
    error = page.locator("#p1-middle-fb .error[role=alert]")
    expect(error).to_contain_text("Bob")
    message = error.inner_text()
    assert middle.evaluate("e => e.getBoundingClientRect().top") >= 0
    # The live feedback runs (another row changes) and the message stays.
    page.fill("#p0-front", HANDS["A"]["front"].replace("Ac", "Ah"))
    expect(page.locator("#p0-front-fb .label")).to_contain_text("Ace high")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#p1-middle-fb .error[role=alert]")).to_have_text(message)
    page.fill("#p0-front", HANDS["A"]["front"])
    # Fixed, the row loses its error and its red border.
    middle.fill(HANDS["B"]["middle"])
    expect(page.locator("#p1-middle-fb .label")).to_contain_text("Two pair")
    expect(page.locator("#p1-middle-fb .error")).to_have_count(0)
    expect(middle).not_to_have_attribute("aria-invalid", "true")
    assert open_night.deals.count() == 0
    page.close()


def test_the_rules_page_opens_at_its_first_error(
    chromium: Any, live_server: Any, open_night: Session
) -> None:
    page = phone_at(chromium, live_server, f"/sessions/{open_night.pk}/deal/")
    page.goto(f"{live_server.url}/groups/{open_night.group_id}/rules/")
    page.get_by_label("Surrender cost").fill("lots")
    page.get_by_role("button", name="Save new rules").click()
    field = page.locator("#opt-surrender_cost")
    expect(field).to_be_focused()
    expect(field).to_have_value("lots")  # what was typed stays
    top = field.evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top <= page.viewport_size["height"]
    page.close()
