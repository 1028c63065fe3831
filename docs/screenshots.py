"""Screenshots of the table-side pages for the docs and the README (``make screenshots``).

Builds a throw-away SQLite database with a night at the Friday club (the hands of
``tests/services/hands.py``), serves it with ``manage.py runserver`` and photographs the
main pages in headless Chromium at phone (360 px) and desktop width into docs/screenshots/.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
PASSWORD = "a long table password"
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 900}}
SEATS = ("Ann", "Bob", "Cy", "Di")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def build_night() -> tuple[int, int]:
    """The group and an open session with four deals (one foul, one surrender, one natural)."""
    from tests.web.nights import friday_night

    group, session = friday_night(PASSWORD)
    return group.pk, session.pk


def shoot(page: Any, name: str) -> None:
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)
    print("wrote", (OUT / f"{name}.png").relative_to(ROOT))


def sign_in(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/groups/")


def deal_entry(page: Any, base: str, session: int) -> None:
    """A deal half typed: rows named, a foul and a card given twice flagged, units shown."""
    from tests.services.hands import HANDS, fouled

    page.goto(f"{base}/sessions/{session}/deal/")
    page.locator("#picker-hide").click()  # typed: the card picker put away
    for k, hand in enumerate("DCBA"):
        rows = fouled(hand) if k == 1 else HANDS[hand]
        for row, cards in rows.items():
            page.fill(f"#p{k}-{row}", cards)
    page.wait_for_selector("#preview-body table")
    page.fill("#p0-front", "4s 3h Ac")
    page.wait_for_selector("#p0-front-fb .dup")
    page.locator("#p0-front").focus()


def deal_picker(browser: Any, base: str, session: int) -> None:
    """The card picker on a touch phone: Ann's cards tapped in (she folds away), Bob's
    front half tapped, the screen as the host sees it."""
    from tests.services.hands import HANDS

    page = browser.new_page(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    page.on("dialog", lambda dialog: dialog.accept())  # leaving a draft asks first
    sign_in(page, base)
    page.goto(f"{base}/sessions/{session}/deal/")
    taps = [*" ".join(HANDS["A"].values()).split(), *HANDS["B"]["front"].split()[:2]]
    for card in taps:
        page.locator(f'#picker button.pick[data-card="{card}"]').tap()
    page.wait_for_selector("#p0-front-fb .label", state="attached")
    page.screenshot(path=str(OUT / "deal-picker-phone.png"))
    print("wrote", (OUT / "deal-picker-phone.png").relative_to(ROOT))

    # Offline: the banner, and Save queues the deal (sent once the phone is online again).
    for card in [*HANDS["B"]["front"].split()[2:], *" ".join(HANDS["C"].values()).split()]:
        page.locator(f'#picker button.pick[data-card="{card}"]').tap()
    page.context.set_offline(True)
    page.wait_for_selector("#offline-banner:not([hidden])")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / "deal-offline-phone.png"))
    print("wrote", (OUT / "deal-offline-phone.png").relative_to(ROOT))
    page.context.set_offline(False)

    # Saved: the scoreboard's notice with Next deal and Undo (the draft forgotten first).
    page.evaluate("localStorage.clear()")
    page.goto(f"{base}/sessions/{session}/deal/")
    for hand in "ABCD":
        for card in " ".join(HANDS[hand].values()).split():
            page.locator(f'#picker button.pick[data-card="{card}"]').tap()
    page.locator(".actions button[name=save]").tap()
    page.wait_for_selector("#saved")
    page.screenshot(path=str(OUT / "deal-saved-phone.png"))
    print("wrote", (OUT / "deal-saved-phone.png").relative_to(ROOT))
    page.close()


def seat_urls(base: str, session: int) -> list[str]:
    """Each seat's link (read before Playwright's loop runs in this thread)."""
    from games.live import seat_links
    from games.models import Session

    links = seat_links.make_links(Session.objects.get(pk=session))
    return [f"{base}/seat/{seat_links.token_for(link)}/" for link in links]


def live_table(browser: Any, urls: list[str], base: str, session: int) -> None:
    """The live table on four phones and the host's page: a seat entering (its hands
    named), a fouling hand stopped at Submit, the host's progress view with one phone gone,
    and a seat's result with the reasons."""
    from tests.services.hands import HANDS, fouled

    phone = {"viewport": VIEWPORTS["phone"], "has_touch": True, "is_mobile": True}
    contexts = [browser.new_context(**phone) for _ in SEATS]
    seats = [context.new_page() for context in contexts]
    for page, url in zip(seats, urls, strict=True):
        page.goto(url)
    ann, bob, cy, di = seats
    ann.locator("#live-open").tap()
    for page in seats:
        page.wait_for_selector("#live-entry:not([hidden])")

    def tap(page: Any, cards: str) -> None:
        for card in cards.split():
            page.locator(f'#picker button.pick[data-card="{card}"]').tap()

    tap(ann, HANDS["A"]["front"] + " " + " ".join(HANDS["A"]["middle"].split()[:3]))
    ann.wait_for_selector("#p0-front-fb .label")
    ann.screenshot(path=str(OUT / "live-seat-entering-phone.png"), full_page=True)
    print("wrote", (OUT / "live-seat-entering-phone.png").relative_to(ROOT))

    tap(bob, " ".join(fouled("B").values()))  # middle and back the wrong way round
    bob.wait_for_selector("#p0-foul:not([hidden])")
    bob.locator("#live-submit").tap()
    bob.wait_for_selector("#live-submit:has-text('anyway')")
    bob.screenshot(path=str(OUT / "live-seat-foul-phone.png"), full_page=True)
    print("wrote", (OUT / "live-seat-foul-phone.png").relative_to(ROOT))
    bob.locator("#live-submit").tap()
    bob.wait_for_selector("#live-done:not([hidden])")

    tap(cy, HANDS["C"]["front"] + " " + HANDS["C"]["middle"])
    tap(di, HANDS["D"]["front"])
    host = browser.new_page(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    sign_in(host, base)
    host.goto(f"{base}/sessions/{session}/live/")
    host.wait_for_selector('#live-seats li[data-seat="3"]:has-text("8/13")')
    di.close()  # Di's phone is gone
    host.wait_for_selector('#live-seats li[data-seat="4"]:has-text("offline")')
    host.wait_for_timeout(3000)  # a few seconds counted
    host.locator("#live-h").scroll_into_view_if_needed()
    host.evaluate("window.scrollBy(0, -8)")
    host.screenshot(path=str(OUT / "live-host-progress-phone.png"))
    print("wrote", (OUT / "live-host-progress-phone.png").relative_to(ROOT))

    tap(ann, " ".join(HANDS["A"]["middle"].split()[3:]) + " " + HANDS["A"]["back"])
    ann.locator("#live-submit").tap()
    tap(cy, HANDS["C"]["back"])
    cy.locator("#live-submit").tap()
    di = contexts[3].new_page()  # back, on the same phone
    di.goto(urls[3])
    di.wait_for_selector("#live-entry:not([hidden])")
    tap(di, HANDS["D"]["middle"] + " " + HANDS["D"]["back"])
    di.locator("#live-submit").tap()
    bob.wait_for_selector("#live-result-mine:not([hidden])")
    bob.screenshot(path=str(OUT / "live-seat-result-phone.png"), full_page=True)
    print("wrote", (OUT / "live-seat-result-phone.png").relative_to(ROOT))
    for context in contexts:
        context.close()
    host.close()


def phone(browser: Any, **options: Any) -> Any:
    """A touch phone's page, Alice signed in."""
    context = browser.new_context(
        viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True, **options
    )
    page = context.new_page()
    return page


def dark(browser: Any, base: str, group: int, session: int) -> None:
    """The scoreboard and the deal page's picker in the phone's dark scheme."""
    page = phone(browser, color_scheme="dark")
    sign_in(page, base)
    page.goto(f"{base}/sessions/{session}/")
    shoot(page, "dark-scoreboard-phone")
    page.goto(f"{base}/sessions/{session}/deal/")
    page.wait_for_selector("#picker:not([hidden])")
    for card in ("As", "Ad", "Kh"):
        page.locator(f'#picker button.pick[data-card="{card}"]').tap()
    page.screenshot(path=str(OUT / "dark-deal-picker-phone.png"))
    print("wrote docs/screenshots/dark-deal-picker-phone.png")
    page.context.close()


def first_night(browser: Any, base: str) -> None:
    """A new group with its owner among the players, then its first session's seats,
    filled in the order the players were named."""
    page = phone(browser)
    sign_in(page, base)
    page.goto(f"{base}/groups/new/")
    page.locator("#group-name").fill("Sunday club")
    page.locator("#currency").fill("VND")
    page.locator("#unit-value").fill("10000")
    page.locator("#players").fill("Minh\nHana\nLan\nTuan")
    page.locator("#owner_plays").fill("Minh")
    shoot(page, "first-night-group-phone")
    page.get_by_role("button", name="Create the group").click()
    page.wait_for_url("**/groups/*/")
    page.goto(page.url + "sessions/new/")
    shoot(page, "first-night-session-phone")
    page.context.close()


def offline_app(browser: Any, base: str, group: int, server: Any) -> None:
    """The deal page of a new night opened again, cold, after the server is gone: the
    service worker's copy, with the deal being typed brought back (the last shot: it
    stops the server)."""
    page = phone(browser)
    sign_in(page, base)
    page.goto(f"{base}/groups/{group}/sessions/new/")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/deal/")
    session = page.url.rstrip("/").split("/")[-2]
    page.wait_for_selector("#picker:not([hidden])")
    page.fill("#p0-front", "As Ad Kh")
    script = "p => caches.open('scorekeeper-pages').then(c => c.match(p)).then(r => !!r)"
    for _ in range(100):
        if page.evaluate(script, f"/sessions/{session}/deal/"):
            break
        page.wait_for_timeout(100)
    server.terminate()
    server.wait(timeout=10)
    page.context.set_offline(True)
    cold = page.context.new_page()
    cold.goto(f"{base}/sessions/{session}/deal/")
    cold.wait_for_selector("#draft-notice:not([hidden])")
    cold.screenshot(path=str(OUT / "app-offline-phone.png"))
    print("wrote docs/screenshots/app-offline-phone.png")
    page.context.close()


def main() -> None:
    workdir = tempfile.mkdtemp(prefix="scorekeeper-shots-")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir}/shots.sqlite3",
        "DEBUG": "true",
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
    }
    env.pop("CELERY_BROKER_URL", None)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from playwright.sync_api import sync_playwright

    from tests.web.browser import CHROMIUM, CHROMIUM_ARGS

    call_command("migrate", verbosity=0)
    group, session = build_night()
    urls = seat_urls("", session)
    OUT.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    urls = [base + url for url in urls]
    command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            pages = {}
            for width, viewport in VIEWPORTS.items():
                page = pages[width] = browser.new_page(viewport=viewport)
                sign_in(page, base)
                page.goto(f"{base}/groups/{group}/")
                shoot(page, f"group-{width}")
                page.goto(f"{base}/groups/{group}/rules/")
                page.get_by_label("surrender_cost").fill("lots")
                page.get_by_role("button", name="Save new rules").click()
                shoot(page, f"rules-{width}")
                deal_entry(page, base, session)
                shoot(page, f"deal-entry-{width}")
                page.goto(f"{base}/sessions/{session}/")
                shoot(page, f"scoreboard-{width}")
            deal_picker(browser, base, session)
            dark(browser, base, group, session)
            first_night(browser, base)
            live_table(browser, urls, base, session)
            pages["phone"].goto(f"{base}/sessions/{session}/summary/")
            pages["phone"].once("dialog", lambda dialog: dialog.accept())
            pages["phone"].get_by_role("button", name="Close the session").click()
            pages["phone"].wait_for_selector("#transfers")
            for width, page in pages.items():
                page.goto(f"{base}/sessions/{session}/summary/")
                page.locator("details.ledger summary").first.click()
                shoot(page, f"summary-{width}")
            offline_app(browser, base, group, server)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
