"""A night entered in headless Chromium, at desktop and at phone width.

Alice signs in, starts a four-player classic-1-6 session (0.5 EUR a unit), enters five
deals from the hands of ``tests/services/hands.py`` (A-B: B scoops, -6; A-C -1; A-D -1;
B-C -1; B-D -1; C-D +1, so per deal A -8, B +4, C +3, D +1), corrects one and closes the
night. Worked by hand (the same deals as tests/services/test_night.py, deals 1, 5, 6, 7, 8):

  1 A=Ann B=Bob C=Cy D=Di                    Ann -8    Bob +4    Cy +3    Di +1
  2 as 1, Bob fouls (middle and back swapped): a foul pays 3 to each live player
                                             Ann +1    Bob -9    Cy +5    Di +3
    (Ann +3 -1 -1; Cy +3 +1 +1; Di +3 +1 -1)
  3 A=Bob B=Cy D=Ann, Di surrenders: 2.5 to each other player
                                             Ann +4.5  Bob -4.5  Cy +7.5  Di -7.5
    (Ann: D vs A +1, D vs B +1, +2.5; Bob: A vs B -6, A vs D -1, +2.5; Cy: +6 -1 +2.5)
  4 A=Cy B=Di C=Ann D=Bob, Bob declares six pairs: 3 from everyone, nothing else with him
                                             Ann -1    Bob +9    Cy -10   Di +2
    (Ann: -3, C vs A +1, C vs B +1; Cy: -3, A vs B -6, A vs C -1; Di: -3, B vs A +6, B vs C -1)
  5 entered as 1, corrected to A=Di B=Ann C=Bob D=Cy
                                             Ann +4    Bob +3    Cy +1    Di -8
    pair by pair: Ann-Bob -1, Ann-Cy -1, Ann-Di +6, Bob-Cy +1, Bob-Di +1, Cy-Di +1

Running totals: -8 4 3 1 | -7 -5 8 4 | -2.5 -9.5 15.5 -3.5 | -3.5 -0.5 5.5 -1.5 |
0.5 2.5 6.5 -9.5. Money at 0.5 EUR: Ann +0.25, Bob +1.25, Cy +3.25, Di -4.75, so Di,
the only loser, pays Cy 3.25, Bob 1.25 and Ann 0.25.
"""

import os
import re
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import services
from games.models import Deal, Session
from tests.services.hands import HANDS, fouled
from tests.web.browser import DESKTOP, PHONE
from tests.web.conftest import PASSWORD

SEATS = ("Ann", "Bob", "Cy", "Di")
RUNNING = [
    ["-8", "+4", "+3", "+1"],
    ["-7", "-5", "+8", "+4"],
    ["-2.5", "-9.5", "+15.5", "-3.5"],
    ["-3.5", "-0.5", "+5.5", "-1.5"],
    ["+0.5", "+2.5", "+6.5", "-9.5"],
]
# Deal 5 pair by pair, in seat order, told from the winner's side (see the docstring).
LAST_PAIRS = [
    "Bob wins 1 from Ann",
    "Cy wins 1 from Ann",
    "Ann wins 6 from Di scoop",
    "Bob wins 1 from Cy",
    "Bob wins 1 from Di",
    "Cy wins 1 from Di",
]
TRANSFERS = ["Di pays Cy 3.25 EUR", "Di pays Bob 1.25 EUR", "Di pays Ann 0.25 EUR"]


@pytest.fixture
def night_owner(transactional_db: None) -> User:
    alice = User.objects.create_user("alice", password=PASSWORD)
    group = services.create_group(alice, "Friday club", "EUR", Decimal("0.5"), "classic-1-6")
    for name in SEATS:
        services.add_player(group, name, by=alice)
    return alice


def type_hands(page: Any, **holding: str) -> None:
    for name, hand in holding.items():
        k = SEATS.index(name)
        for row, cards in HANDS[hand].items():
            page.fill(f"#p{k}-{row}", cards)


def wait_for_preview(page: Any) -> None:
    page.wait_for_selector("#preview-body table")


def save(page: Any) -> None:
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_selector("#scoreboard")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_night_at_the_table(
    chromium: Any, live_server: Any, night_owner: User, viewport: dict[str, int]
) -> None:
    page = chromium.new_page(viewport=viewport)
    page.set_default_timeout(15_000)
    base = live_server.url

    # Sign in: the groups page sends us to the form first.
    page.goto(f"{base}/groups/")
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Friday club").click()

    # A four-player session.
    page.get_by_role("link", name="Start a session").click()
    for k, name in enumerate(SEATS, start=1):
        page.get_by_label(f"Seat {k}").select_option(label=name)
    page.get_by_role("button", name="Start and enter the first deal").click()
    page.wait_for_selector("#deal-form")

    # Deal 1, typed with the keyboard and saved with Enter; the rows are named as typed.
    for name, hand in zip(SEATS, "ABCD", strict=True):
        k = SEATS.index(name)
        for row, cards in HANDS[hand].items():
            page.focus(f"#p{k}-{row}")
            page.keyboard.type(cards)
    expect(page.locator("#p2-back-fb")).to_contain_text("Full house, Sixes over Tens")
    # The row's cards show as chips under it (taps on them send them back to the picker).
    assert page.inner_text("#p3-back-chips").startswith("A♦")
    wait_for_preview(page)
    assert page.inner_text("#preview-body").count("scoops") == 1
    # A card given twice is flagged on both rows as it is typed, then corrected.
    page.fill("#p3-front", "4s 3h Ac")
    expect(page.locator("#p3-front-fb")).to_contain_text("Ac is also in Ann's front")
    expect(page.locator("#p0-front-fb")).to_contain_text("Ac is also in Di's front")
    page.fill("#p3-front", HANDS["D"]["front"])
    page.wait_for_selector("#p0-front-fb .dup", state="detached")
    page.press("#p3-back", "Enter")
    page.wait_for_selector("#scoreboard")

    # Deal 2: Bob's middle and back swapped: the foul shows with its reason before saving.
    page.get_by_role("link", name="Enter a deal").click()
    type_hands(page, Ann="A", Cy="C", Di="D")
    bob = fouled("B")
    page.fill("#p1-front", bob["front"])
    page.fill("#p1-middle", bob["middle"])
    page.fill("#p1-back", bob["back"])
    expect(page.locator("#p1-foul")).to_contain_text("Foul: middle Straight, Seven high beats back")
    expect(page.locator("#preview-body")).to_contain_text("-9 (foul)")
    save(page)

    # Deal 3: Di surrenders.
    page.get_by_role("link", name="Enter a deal").click()
    type_hands(page, Ann="D", Bob="A", Cy="B")
    page.get_by_label("surrendered").nth(3).check()
    save(page)

    # Deal 4: Bob declares six pairs.
    page.get_by_role("link", name="Enter a deal").click()
    type_hands(page, Ann="C", Bob="D", Cy="A", Di="B")
    # Declared for the wrong player first: the engine's refusal shows beside Ann's hand.
    page.locator("#p0-natural").select_option("six_pairs")
    expect(page.locator("#p0-error")).to_have_text(
        "Ann declared six_pairs, but the cards do not make it"
    )
    page.locator("#p0-natural").select_option("")
    expect(page.locator("#p0-error")).to_be_hidden()
    page.locator("#p1-natural").select_option("six_pairs")
    save(page)

    # Deal 5: entered as deal 1, then corrected.
    page.get_by_role("link", name="Enter a deal").click()
    type_hands(page, Ann="A", Bob="B", Cy="C", Di="D")
    save(page)
    page.get_by_role("link", name="Edit deal 5").click()
    type_hands(page, Ann="B", Bob="C", Cy="D", Di="A")
    page.get_by_label("Why the correction").fill("hands mixed up")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_selector("#scoreboard")

    # The scoreboard against the hand-worked numbers (its table of running totals opened).
    page.locator("details.running-table summary").click()
    rows = page.locator("table.running tbody tr")
    assert rows.count() == 5
    for n, expected in enumerate(RUNNING):
        assert rows.nth(n).locator("td").all_inner_texts() == expected
    totals = [t.split("\n") for t in page.locator(".total").all_inner_texts()]
    assert totals == [
        ["Ann", "+0.5", "+0.25 EUR"],
        ["Bob", "+2.5", "+1.25 EUR"],
        ["Cy", "+6.5", "+3.25 EUR"],
        ["Di", "-9.5", "-4.75 EUR"],
    ]
    assert page.get_by_role("heading", name="Deal 5, pair by pair").is_visible()
    pairs = [
        " ".join(p.split())
        for p in page.locator("section[aria-labelledby=last-h] .pairs li").all_inner_texts()
    ]
    assert pairs == LAST_PAIRS
    history = page.locator("#deal-5 details.history")
    history.locator("summary").click()
    assert "hands mixed up" in history.inner_text()
    assert "was Ann -8, Bob +4, Cy +3, Di +1" in history.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    # Close the night: who pays whom.
    # Closing asks first.
    questions: list[str] = []

    def accept(dialog: Any) -> None:
        questions.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.get_by_role("button", name="Close the session").click()
    page.wait_for_selector("#transfers")
    assert questions == ["Close the session? Every deal becomes read-only."]
    transfers = [" ".join(t.split()) for t in page.locator("#transfers li").all_inner_texts()]
    assert transfers == TRANSFERS
    summary = page.locator("#summary-table tbody tr")
    assert summary.nth(1).locator("td").all_inner_texts()[:3] == ["+2.5", "+1.25 EUR", "1"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    session = Session.objects.get()
    assert not session.is_open
    assert session.deals.filter(status=Deal.Status.ACTIVE).count() == 5
    page.close()


def alice_at(chromium: Any, live_server: Any, path: str, *, timeout_ms: int) -> Any:
    """A phone-sized page where Alice has signed in and landed on ``path``."""
    page = chromium.new_page(viewport=PHONE)
    page.set_default_timeout(timeout_ms)
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    return page


def test_arrange_fills_the_rows_in_the_browser(
    chromium: Any, live_server: Any, night_owner: User
) -> None:
    group = night_owner.card_groups.get()
    session = services.start_session(group, list(group.players.all()), night_owner)
    page = alice_at(chromium, live_server, f"/sessions/{session.pk}/deal/", timeout_ms=15_000)
    page.get_by_text("Lay out all 13 cards").first.click()
    page.fill("#p0-cards13", " ".join(HANDS["C"].values()))
    page.get_by_role("button", name="Arrange (best expected setting)").first.click()
    # Not wait_for_function: its string is evaluated, which the pages' policy forbids.
    expect(page.locator("#p0-back")).not_to_have_value("")
    for row in ("front", "middle", "back"):
        page.wait_for_selector(f"#p0-{row}-fb .label")
    assert page.locator("#p0-foul").is_hidden()
    assert page.input_value("#p0-back") != ""
    page.close()


def test_the_sheet_button_gives_a_link_to_the_rendered_pdf(
    chromium: Any, live_server: Any, night_owner: User
) -> None:
    """The real documents API: without a broker the sheet renders as it is asked for."""
    group = night_owner.card_groups.get()
    session = services.start_session(group, list(group.players.all()), night_owner)
    page = alice_at(chromium, live_server, f"/sessions/{session.pk}/summary/", timeout_ms=30_000)
    sheet = page.locator("#pdfs li").first
    sheet.get_by_role("button", name="Score sheet (PDF)").click()
    link = sheet.get_by_role("link", name="Download")
    # The first sheet of a process loads WeasyPrint and its fonts: seconds on a busy machine.
    expect(link).to_have_attribute(
        "href", re.compile(r"/api/v1/documents/\d+/download/$"), timeout=30_000
    )
    pdf = page.request.get(str(link.get_attribute("href")))
    assert pdf.status == 200
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF")
    page.close()


def test_a_long_night_shows_its_chart_and_pages_of_deals(
    chromium: Any, live_server: Any, transactional_db: None
) -> None:
    from tests.reports.big_group import build_group

    alice = User.objects.create_user("alice", password=PASSWORD)
    session = build_group(alice, 300).sessions.get()
    page = alice_at(chromium, live_server, f"/sessions/{session.pk}/", timeout_ms=15_000)
    page.wait_for_selector("#scoreboard")
    chart = page.locator("figure.chart svg")
    assert chart.bounding_box()["height"] > 100
    assert page.locator("figure.chart polyline").count() == 4
    assert page.locator("#deals tbody").first.get_attribute("id") == "deal-300"
    if os.environ.get("SCOREBOARD_SCREENSHOT"):
        page.screenshot(path=os.environ["SCOREBOARD_SCREENSHOT"], full_page=False)
    page.get_by_role("link", name="Older deals").click()
    page.wait_for_selector("#deal-250")
    assert page.locator("#deals tbody").first.get_attribute("id") == "deal-250"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()
