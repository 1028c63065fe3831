"""On a phone: the switcher (a menu in the header) turns the pages Vietnamese or Chinese,
and the choice stays after signing in; nothing is wider than the screen, and the policy is
kept (the ``chromium`` fixture fails the test on a Content-Security-Policy violation)."""

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.languages import LanguagePreference
from games.models import Group, Session
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD

WIDTH = "document.documentElement.scrollWidth"


def switch(page: Any, language: str) -> None:
    """Opens the header's language menu and picks ``language`` (named in itself); the menu
    is on the screen, nothing wider than it."""
    page.locator("details.languages > summary").tap()
    menu = page.locator("details.languages .account-menu").bounding_box()
    assert menu is not None and menu["x"] >= 0 and menu["x"] + menu["width"] <= PHONE["width"]
    with page.expect_navigation():
        page.get_by_role("button", name=language).tap()


def test_switching_to_vietnamese_on_a_phone(
    chromium: Any, live_server: Any, alice: User, group: Group, session: Session
) -> None:
    page = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    assert page.locator("h1").inner_text() == "Sign in"

    switch(page, "Tiếng Việt")
    assert page.url.endswith("/accounts/login/")
    assert page.locator("h1").inner_text() == "Đăng nhập"
    assert page.locator("html").get_attribute("lang") == "vi"
    assert page.evaluate(WIDTH) <= PHONE["width"]

    page.get_by_label("Tên đăng nhập").fill("alice")
    page.get_by_label("Mật khẩu").fill(PASSWORD)
    page.get_by_role("button", name="Đăng nhập").tap()
    page.wait_for_url("**/groups/")
    assert page.locator("h1").inner_text() == "Nhóm của bạn"

    # Chosen before signing in, kept by choosing again once signed in.
    switch(page, "English")
    assert page.locator("h1").inner_text() == "Your groups"
    switch(page, "Tiếng Việt")
    assert page.locator("h1").inner_text() == "Nhóm của bạn"
    assert LanguagePreference.objects.get(user=alice).language == "vi"

    for path in (f"/groups/{group.pk}/", f"/sessions/{session.pk}/"):
        page.goto(live_server.url + path)
        assert page.locator("html").get_attribute("lang") == "vi"
        assert page.evaluate(WIDTH) <= PHONE["width"], path
    assert page.get_by_role("heading", name="Bảng điểm").count() == 1

    # The scripts write in the page's language too (their words come from the server).
    page.goto(f"{live_server.url}/sessions/{session.pk}/deal/")
    page.wait_for_selector("#picker:not([hidden])")
    expect(page.locator("#picker-target")).to_have_text(
        "Chạm vào các lá bài cho Ann · Chi đầu: 0/3 lá"
    )
    expect(page.get_by_label("Chi đầu (3)", exact=True).first).to_be_visible()
    page.close()


def test_switching_to_chinese_on_a_phone(
    chromium: Any, live_server: Any, alice: User, group: Group, session: Session
) -> None:
    page = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")

    switch(page, "简体中文")
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    assert page.locator("h1").inner_text() == "登录"
    page.get_by_label("用户名").fill("alice")
    page.get_by_label("密码").fill(PASSWORD)
    page.get_by_role("button", name="登录").tap()
    page.wait_for_url("**/groups/")
    assert page.locator("h1").inner_text() == "你的牌友群"

    switch(page, "繁體中文")
    assert page.locator("h1").inner_text() == "你的牌友群"
    assert page.locator("html").get_attribute("lang") == "zh-hant"
    assert LanguagePreference.objects.get(user=alice).language == "zh-hant"
    for path in (f"/groups/{group.pk}/", f"/sessions/{session.pk}/"):
        page.goto(live_server.url + path)
        assert page.locator("html").get_attribute("lang") == "zh-hant"
        assert page.evaluate(WIDTH) <= PHONE["width"], path
    assert page.get_by_role("heading", name="記分板").count() == 1

    page.goto(f"{live_server.url}/sessions/{session.pk}/deal/")
    page.wait_for_selector("#picker:not([hidden])")
    expect(page.locator("#picker-target")).to_have_text("請點選牌 · Ann · 頭道：0/3 張")
    page.close()
