"""The scoreboard at 360 px on a touch phone: a deal opens to every player's rows
as set and what passed between each pair; the chart; who dealt each deal; who deals next."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Session
from tests.services.hands import deal
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD
from tests.web.test_browser_payments import fits, sign_in


@pytest.fixture
def night(transactional_db: None) -> Session:
    alice = User.objects.create_user("alice", password=PASSWORD)
    group = services.create_group(alice, "Friday club", "EUR", Decimal("1"), "classic-1-6")
    seats = [
        services.add_player(group, name, by=alice, user=alice if name == "Ann" else None)
        for name in ("Ann", "Bob", "Cy", "Di")
    ]
    session = services.start_session(group, seats, alice)
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    services.record_deal(session, deal(Ann="B", Bob="A", Cy="D", Di="C"), alice, dealer="Cy")
    services.record_deal(session, deal(Ann="C", Bob="D", Cy="A", Di="B"), alice)
    return session


def test_the_scoreboard_opens_each_deal_at_360_px(
    chromium: Any, live_server: Any, night: Session
) -> None:
    page = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/sessions/{night.pk}/")

    assert page.locator("#next-dealer").inner_text() == "Next deal: Ann deals."
    assert page.locator("figure.chart svg polyline").count() == 4
    assert page.locator("figure.chart svg").bounding_box()["height"] > 100
    dealers = page.locator(".showdown summary .dealer").all_inner_texts()
    assert dealers == ["Di dealt", "Cy dealt", "Ann dealt"]  # newest first

    deal_two = page.locator("#showdown-2")
    deal_two.locator("summary").tap()
    bob = deal_two.locator('li[data-player="Bob"]')
    # Bob held hand A in deal 2: his rows as he set them, front to back.
    rows = bob.locator(".row-cards").all_inner_texts()
    assert len(rows) == 3
    assert rows[0].startswith("A♣ K♣ 3♦")
    assert "4♣ 4♦" in rows[1] and "7♣ 7♦ 7♥" in rows[2]
    pairs = deal_two.locator(".pairs li").all_inner_texts()
    assert len(pairs) == 6  # every pair of the four
    assert any(p.startswith("Ann wins 6 from Bob") for p in pairs)
    assert fits(page) is None
    page.close()
