"""Creating a group from the pages on a 360 px phone.

Alice, signed in with no group yet, makes the Tuesday table with four players and the
Mau Binh rules; she lands on its page, sees the players and the rules, and starts a
session with all four.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Group, Session
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD
from tests.web.test_browser_payments import fits, sign_in


@pytest.fixture
def alice(transactional_db: None) -> User:
    return User.objects.create_user("alice", password=PASSWORD)


def test_create_a_group_with_four_players_and_start_a_session_at_360_px(
    chromium: Any, live_server: Any, alice: User
) -> None:
    page = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "alice")
    assert "You belong to no group yet" in page.inner_text("main")
    page.get_by_role("link", name="New group").tap()
    page.wait_for_url("**/groups/new/")
    assert fits(page) is None

    page.get_by_label("Name", exact=True).fill("Tuesday table")
    page.get_by_label("Currency").fill("VND")
    page.get_by_label("What one unit is worth").fill("10000")
    page.get_by_label("Rules").select_option("mau-binh-south")
    # A slip first: the same name twice. Nothing is stored and nothing typed is lost.
    page.get_by_label("Players, one name per line").fill("Ann\nBob\nCy\nbob")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the group").tap()
    assert "Player 4: 'Bob' is named twice" in page.locator("#players-error").inner_text()
    assert page.get_by_label("Name", exact=True).input_value() == "Tuesday table"
    assert page.get_by_label("Rules").input_value() == "mau-binh-south"
    assert not Group.objects.exists()
    assert fits(page) is None

    players = page.get_by_label("Players, one name per line")
    players.fill(players.input_value().replace("bob", "Di"))
    with page.expect_navigation():
        page.get_by_role("button", name="Create the group").tap()
    group = Group.objects.get()
    page.wait_for_url(f"**/groups/{group.pk}/")
    main = page.inner_text("main")
    assert "Tuesday table is ready" in main
    players_section = page.locator("section[aria-labelledby=players-h]")
    names = players_section.locator("#players-list summary strong").all_inner_texts()
    assert names == ["Ann", "Bob", "Cy", "Di"]
    assert "Preset mau-binh-south, version 1" in main
    assert fits(page) is None

    page.get_by_role("link", name="Start a session").tap()
    page.wait_for_url(f"**/groups/{group.pk}/sessions/new/")
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Di"), start=1):
        page.get_by_label(f"Seat {seat}").select_option(label=name)
    with page.expect_navigation():
        page.get_by_role("button", name="Start and enter the first deal").tap()
    session = Session.objects.get()
    assert list(session.seat_names().values()) == ["Ann", "Bob", "Cy", "Di"]
    assert session.rules["preset"] == "mau-binh-south"
    page.wait_for_url(f"**/sessions/{session.pk}/deal/")
    page.close()
