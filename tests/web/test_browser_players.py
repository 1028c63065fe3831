"""Renaming, merging and retiring players from the group page on a 360 px phone.

Di came to the second night as "Dee". Alice (the owner) renames Cy, merges Dee into Di
(the page asks first) and Di's standing becomes the sum of the two; then she retires Bob
and the new-session page no longer offers him.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.models import Group, Player
from games.present import money_in, signed
from games.reports.audit import Audit
from tests.pdf.night import play_random_night
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD
from tests.web.test_browser_payments import fits, sign_in


@pytest.fixture
def club(transactional_db: None) -> Group:
    alice = User.objects.create_user("alice", password=PASSWORD)
    group = services.create_group(alice, "Friday club", "EUR", Decimal("0.5"), "classic-1-6")
    ann, bob, cy, di, dee = (
        services.add_player(group, name, by=alice) for name in ("Ann", "Bob", "Cy", "Di", "Dee")
    )
    first = services.start_session(
        group, [ann, bob, cy, di], alice, date=datetime.date(2026, 11, 20)
    )
    play_random_night(first, alice, deals=8, seed=11)
    second = services.start_session(group, [ann, bob, dee], alice, date=datetime.date(2026, 11, 21))
    play_random_night(second, alice, deals=8, seed=12)
    services.record_payment(group, dee, ann, "3", alice, confirmed=True)
    return group


def manage(page: Any, name: str) -> Any:
    """The player's item of the players list, opened (tapping its summary if closed)."""
    pk = Player.objects.get(name=name).pk
    item = page.locator(f'#players-list li[data-player="{pk}"]')
    if not item.locator("details").evaluate("d => d.open"):
        item.locator("summary").tap()
    return item


def standing_row(page: Any, name: str) -> list[str]:
    row = page.locator("#standings-h + p + .scroll tbody tr").filter(
        has=page.get_by_role("rowheader", name=name, exact=True)
    )
    return [cell.strip() for cell in row.locator("td").all_inner_texts()]


def test_rename_merge_and_retire_from_the_group_page_at_360_px(
    chromium: Any, live_server: Any, club: Group
) -> None:
    before = {row["name"]: row for row in reports.group_standings(club)["players"]}
    page = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.set_default_timeout(15_000)
    questions: list[str] = []

    def accept(dialog: Any) -> None:
        questions.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    sign_in(page, live_server.url, "alice")
    group_url = f"{live_server.url}/groups/{club.pk}/"
    page.goto(group_url)
    assert fits(page) is None

    cy = manage(page, "Cy")
    cy.get_by_label("New name").fill("Cyrus")
    with page.expect_navigation():
        cy.get_by_role("button", name="Rename").tap()
    assert "Cy is now called Cyrus" in page.locator("body").inner_text()
    # The past session keeps the name Cy sat down with.
    assert "Ann, Bob, Cy, Di" in page.locator("#sessions-h + p + ul").inner_text()

    dee = manage(page, "Dee")
    dee.get_by_label("Merge Dee into").select_option(label="Di")
    with page.expect_navigation():
        dee.get_by_role("button", name="Merge").tap()
    assert questions and "Merge Dee into the player picked?" in questions[0]
    assert "Dee merged into Di" in page.locator("body").inner_text()
    assert not Player.objects.filter(name="Dee").exists()
    units = before["Di"]["units"] + before["Dee"]["units"]
    money = before["Di"]["money"] + before["Dee"]["money"]
    sessions = before["Di"]["sessions"] + before["Dee"]["sessions"]
    assert standing_row(page, "Di")[:3] == [signed(units), money_in(money, "EUR"), str(sessions)]
    assert page.get_by_role("rowheader", name="Dee", exact=True).count() == 0
    assert "Dee merged into Di by alice" in page.locator("#merges").text_content()
    assert [str(m) for m in Audit().mismatches([club])] == []
    balances = {r["name"]: r["balance"] for r in reports.group_balances(club)["players"]}
    assert sum(balances.values(), Decimal(0)) == 0
    assert fits(page) is None

    bob = manage(page, "Bob")
    with page.expect_navigation():
        bob.get_by_role("button", name="Retire Bob").tap()
    assert "Bob is retired" in page.locator("body").inner_text()
    assert "retired" in manage(page, "Bob").locator("summary").inner_text()
    assert page.get_by_role("rowheader", name="Bob", exact=True).count() == 1  # history kept
    page.goto(f"{group_url}sessions/new/")
    offered = page.locator("#seat1 option").all_inner_texts()
    assert "Bob" not in offered and "Di" in offered and "Cyrus" in offered
    assert fits(page) is None
    page.close()
