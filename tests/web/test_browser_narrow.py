"""At 360 px with 12-character names: nothing overflows, every control is a 44 px target.

A night of the Friday club with Konstantinos, Christabella, Maximiliano and Bartholomew,
three deals (one void), each page opened on a touch phone: the page is no wider than the
screen (``scrollWidth`` equals the viewport), and every button, field, select, disclosure
and stand-alone link is at least 44 px tall and wide (a checkbox counts with its label,
which takes the tap).
"""

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Session
from tests.services.hands import HANDS
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD

NAMES = ("Konstantinos", "Christabella", "Maximiliano", "Bartholomew")

# Controls too small to tap, as "tag#id.class 'text' WxH"; links inside a sentence or the
# breadcrumb are text, not targets (WCAG's inline exception).
SMALL_TARGETS = """
() => {
  const out = [];
  const controls = document.querySelectorAll(
    "button, input:not([type=hidden]), select, textarea, summary, a");
  for (const el of controls) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;  // not shown
    if (el.matches("a") && el.closest("p, li, .crumbs, td.note, .muted, .visually-hidden, .skip"))
      continue;
    if (el.matches(".visually-hidden, .skip")) continue;
    let target = box;
    if (el.matches("input[type=checkbox], input[type=radio]") && el.closest("label"))
      target = el.closest("label").getBoundingClientRect();
    if (target.height < 43.5 || target.width < 43.5)
      out.push(el.tagName.toLowerCase() + "#" + el.id + "." + el.className + " '" +
        (el.textContent || el.value || "").trim().slice(0, 30) + "' " +
        Math.round(target.width) + "x" + Math.round(target.height));
  }
  return out;
}
"""


WIDE = """
() => Array.from(document.querySelectorAll("body *")).filter(e => {
  const b = e.getBoundingClientRect();
  return b.right > 361 && !e.closest(".scroll") && b.width > 0;
}).slice(-4).map(e => e.tagName + "." + e.className + " " +
  Math.round(e.getBoundingClientRect().right) + " " + (e.textContent || "").trim().slice(0, 40))
"""


@pytest.fixture
def long_names(transactional_db: None) -> Session:
    alice = User.objects.create_user("alice", password=PASSWORD)
    group = services.create_group(alice, "Friday club", "VND", Decimal("325000"), "classic-1-6")
    players = [services.add_player(group, name, by=alice) for name in NAMES]
    services.set_pair_stake(group, players[0], players[1], 2, by=alice)
    session = services.start_session(group, players, alice)
    hands = [dict(HANDS[h], name=n) for n, h in zip(NAMES, "ABCD", strict=True)]
    for _ in range(3):
        services.record_deal(session, hands, alice)
    services.void_deal(session.deals.get(number=2), alice, reason="dealt twice")
    return session


def test_nothing_overflows_and_every_control_is_a_target(
    chromium: Any, live_server: Any, long_names: Session
) -> None:
    page = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    problems: dict[str, tuple[Any, ...]] = {}
    if page.evaluate(SMALL_TARGETS):
        problems["/accounts/login/"] = (0, page.evaluate(SMALL_TARGETS))
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/groups/")
    s, g = long_names.pk, long_names.group_id
    paths = [
        "/groups/",
        f"/groups/{g}/",
        f"/groups/{g}/rules/",
        f"/groups/{g}/sessions/new/",
        f"/sessions/{s}/deal/",
        f"/sessions/{s}/?saved=3",
        f"/sessions/{s}/summary/",
        f"/sessions/{s}/deals/1/edit/",
        f"/groups/{g}/season/?range=all",
        f"/groups/{g}/season/players/{long_names.seats.get(seat=1).player_id}/?range=all",
        f"/sessions/{s}/deals/1/?option=foul_penalty&value=sweep",
    ]
    for path in paths:
        page.goto(live_server.url + path)
        page.locator("details > summary").evaluate_all("all => all.forEach(s => s.click())")
        width = page.evaluate("document.documentElement.scrollWidth")
        small = page.evaluate(SMALL_TARGETS)
        if width > PHONE["width"] or small:
            wide = page.evaluate(WIDE)
            problems[path] = (width, small, wide)  # what is too wide, to find it
    assert problems == {}
    page.close()


def test_the_option_titles_fit_a_phone_in_vietnamese(
    chromium: Any, live_server: Any, long_names: Session
) -> None:
    """The what-if's select and the rules form name options by their titles, longer in
    Vietnamese than the keys were: at 360 px the select is picked from and answers, and
    neither page is wider than the screen."""
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="vi")
    context.add_cookies([{"name": "django_language", "value": "vi", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("input[name=username]").fill("alice")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit]").last.tap()
    page.wait_for_url("**/groups/")

    page.goto(f"{live_server.url}/sessions/{long_names.pk}/deals/1/")
    select = page.get_by_label("Tùy chọn")
    select.select_option(label="Mậu binh trắng gặp người đầu hàng (hiện là có)")
    page.get_by_label("Giá trị").fill("no")
    page.locator("#what-if-form button[type=submit]").tap()
    page.wait_for_url("**option=natural_collects_from_surrendered&value=no*")
    caption = page.locator("#what-if-caption")
    assert "Với Mậu binh trắng gặp người đầu hàng: không thay cho có" in caption.inner_text()
    widths = {"deal": page.evaluate("document.documentElement.scrollWidth")}
    assert (
        page.evaluate("document.querySelector('#what-if-option').getBoundingClientRect().right")
        <= PHONE["width"]
    )

    page.goto(f"{live_server.url}/groups/{long_names.group_id}/rules/")
    assert page.get_by_label("Mậu binh trắng gặp người đầu hàng").is_visible()
    widths["rules"] = page.evaluate("document.documentElement.scrollWidth")
    assert widths == {"deal": PHONE["width"], "rules": PHONE["width"]}, page.evaluate(WIDE)
    context.close()
