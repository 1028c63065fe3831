"""Every page for a whole night, in headless Chromium at 360 px (touch) and 1280 px, in
every language of the site (English, Vietnamese, Simplified and Traditional Chinese), in the
light and the dark scheme: axe-core finds no serious or critical violation (contrast
included), every control is a 44x44 px target, and the scoreboard's chart text is at least
12 px on a phone.

The night: a group of four with a pair stake, an open session of four deals (a foul, a
surrender, a declared natural corrected once), a payment recorded, and a seat's page of
the live table.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from games.live import seat_links
from tests.web.browser import DESKTOP, PHONE
from tests.web.conftest import PASSWORD
from tests.web.nights import friday_night

SCHEMES = ("light", "dark")
LANGUAGES = [code for code, _name in settings.LANGUAGES]
# What axe must never find (its "moderate" and "minor" findings are advice).
BLOCKING = ("serious", "critical")

# The controls smaller than 44x44 px on the page, as "tag#id text WxH" (a checkbox or a
# radio button counts as its label; a control hidden from sight, as the deal form's submit
# for the Enter key, counts only while it is in view).
SMALL_TARGETS = """() => {
  const small = [];
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary,'
    + ' [role=button], [tabindex="0"]';
  for (const el of document.querySelectorAll(controls)) {
    if (el.closest('[hidden], .visually-hidden, details:not([open]) > :not(summary)')) continue;
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if ((el.type === 'checkbox' || el.type === 'radio') && el.closest('label')) {
      box = el.closest('label').getBoundingClientRect();
    }
    if (box.width < 44 || box.height < 44) {
      const text = (el.textContent || el.value || '').trim().slice(0, 30);
      small.push(`${el.tagName.toLowerCase()}#${el.id} "${text}" `
        + `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}"""

# The rendered size of the scoreboard chart's smallest text, in CSS pixels.
CHART_TEXT = """() => {
  const svg = document.querySelector('.chart svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].map(
    (t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  return Math.min(...sizes);
}"""


@pytest.fixture
def night(transactional_db: None) -> dict[str, Any]:
    group, session = friday_night(PASSWORD)
    seat = seat_links.token_for(seat_links.make_links(session)[0])
    g, s = group.pk, session.pk
    signed_in = [
        "/groups/",
        "/groups/new/",
        f"/groups/{g}/",
        f"/groups/{g}/rules/",
        f"/groups/{g}/balances/",
        f"/groups/{g}/season/?range=all",
        f"/groups/{g}/season/players/{group.players.get(name='Ann').pk}/?range=all",
        f"/groups/{g}/sessions/new/",
        f"/sessions/{s}/",
        f"/sessions/{s}/deal/",
        f"/sessions/{s}/deals/1/edit/",
        f"/sessions/{s}/deals/1/?option=bonus&value=2-4",
        f"/sessions/{s}/summary/",
        f"/sessions/{s}/live/",
        "/accounts/password/change/",
    ]
    anyone = ["/", "/accounts/login/", "/accounts/signup/", f"/seat/{seat}/"]
    return {
        "signed_in": signed_in,
        "anyone": anyone,
        "scoreboard": f"/sessions/{s}/",
        "season": f"/groups/{g}/season/?range=all",
    }


@pytest.fixture
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def open_as(chromium: Any, base: str, viewport: dict[str, int], scheme: str, language: str) -> Any:
    """A page of a new context, alice signed in, reading ``language`` in ``scheme``."""
    phone = viewport == PHONE
    context = chromium.new_context(
        viewport=viewport, has_touch=phone, is_mobile=phone, color_scheme=scheme
    )
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/groups/")
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    return page


# Besides axe's default rules, one it keeps experimental: a control's name begins with
# what it shows (the card "A♠" is not only "Ace of spades"), so voice control finds it.
OPTIONS = {"rules": {"label-content-name-mismatch": {"enabled": True}}}


def blocking(axe: Any, page: Any) -> list[str]:
    found = axe.run(page, options=OPTIONS).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {len(v['nodes'])} x {v['nodes'][0]['target']}"
        for v in found
        if v["impact"] in BLOCKING
    ]


@pytest.fixture(params=[PHONE, DESKTOP], ids=["360px", "1280px"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return dict(request.param)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_passes_axe_and_has_44px_targets(
    chromium: Any,
    live_server: Any,
    night: dict[str, Any],
    axe: Any,
    viewport: dict[str, int],
    language: str,
) -> None:
    found: dict[str, list[str]] = {}
    for scheme in SCHEMES:
        page = open_as(chromium, live_server.url, viewport, scheme, language)
        for path in night["signed_in"] + night["anyone"]:
            answer = page.goto(live_server.url + path)
            assert answer is not None and answer.ok, path
            assert page.evaluate("document.documentElement.lang") == language, path
            if problems := blocking(axe, page):
                found[f"{scheme} {path}"] = problems
            if scheme == "light" and (small := page.evaluate(SMALL_TARGETS)):
                found[f"targets {path}"] = small
        page.context.close()
    assert found == {}


def test_the_chart_reads_at_12px_on_a_phone(
    chromium: Any, live_server: Any, night: dict[str, Any]
) -> None:
    page = open_as(chromium, live_server.url, PHONE, "light", "en")
    page.goto(live_server.url + night["scoreboard"])

    assert page.evaluate(CHART_TEXT) >= 12
    page.context.close()


# The rendered size of the smallest text of every chart on the page, in CSS pixels.
CHARTS_TEXT = """() => Math.min(...[...document.querySelectorAll('.chart svg')].flatMap((svg) => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map(
    (t) => parseFloat(getComputedStyle(t).fontSize) * scale);
}))"""


def test_the_season_charts_read_at_12px_on_a_phone(
    chromium: Any, live_server: Any, night: dict[str, Any]
) -> None:
    page = open_as(chromium, live_server.url, PHONE, "light", "en")
    page.goto(live_server.url + night["season"])

    assert page.locator(".chart svg").count() == 3  # money, units missed, the matrix
    assert page.evaluate(CHARTS_TEXT) >= 12
    page.context.close()
