"""Recording and confirming a payment on a 360 px phone.

Bob (a member) records that Cy paid Alice's player Ann; the payment is pending until Alice,
its payee, taps Confirm received; then it counts in the balances. Every settling-up page
fits the screen and keeps its controls at 44 px.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Payment, Session
from tests.services.hands import deal
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD
from tests.web.test_browser_narrow import SMALL_TARGETS, WIDE


@pytest.fixture
def night(transactional_db: None) -> Session:
    alice = User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    group = services.create_group(alice, "Friday club", "VND", Decimal("325000"), "classic-1-6")
    services.add_member(group, bob, "member", by=alice)
    seats = [
        services.add_player(group, "Ann", by=alice, user=alice),
        services.add_player(group, "Bob", by=alice, user=bob),
        services.add_player(group, "Cy", by=alice),
        services.add_player(group, "Di", by=alice),
    ]
    session = services.start_session(group, seats, alice)
    services.record_deal(session, deal(Ann="C", Bob="B", Cy="A", Di="D"), alice)
    return session


def sign_in(page: Any, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/groups/")


def fits(page: Any) -> tuple[Any, ...] | None:
    page.locator("details > summary").evaluate_all("all => all.forEach(s => s.click())")
    width = page.evaluate("document.documentElement.scrollWidth")
    small = page.evaluate(SMALL_TARGETS)
    if width > PHONE["width"] or small:
        return (width, small, page.evaluate(WIDE))
    return None


def test_record_then_confirm_a_payment_at_360_px(
    chromium: Any, live_server: Any, night: Session
) -> None:
    group = night.group_id
    bob = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    bob.set_default_timeout(15_000)
    sign_in(bob, live_server.url, "bob")
    bob.goto(f"{live_server.url}/groups/{group}/balances/")
    assert fits(bob) is None
    form = bob.locator("#payment-form")
    form.get_by_label("Who paid").select_option(label="Cy")
    form.get_by_label("Who was paid").select_option(label="Ann")
    form.get_by_label("Amount (VND)").fill("1300000")
    form.get_by_label("Note").fill("bank transfer")
    with bob.expect_navigation():
        form.get_by_role("button", name="Record the payment").click()
    item = bob.locator(".payment").first
    assert "1,300,000 VND" in item.inner_text() and "pending" in item.inner_text()
    assert item.get_by_role("button", name="Confirm received").count() == 0  # not Bob's
    assert fits(bob) is None
    bob.close()

    alice = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    alice.set_default_timeout(15_000)
    sign_in(alice, live_server.url, "alice")
    alice.goto(f"{live_server.url}/sessions/{night.pk}/summary/")
    assert fits(alice) is None
    alice.goto(f"{live_server.url}/groups/{group}/balances/")
    with alice.expect_navigation():
        alice.locator(".payment").first.get_by_role("button", name="Confirm received").tap()
    assert "confirmed" in alice.locator(".payment").first.inner_text()
    payment = Payment.objects.get()
    assert payment.status == "confirmed"
    alice.goto(f"{live_server.url}/groups/{group}/payments/{payment.pk}/edit/")
    assert fits(alice) is None
    # Settle the night from its end: the remaining transfers, pending.
    alice.goto(f"{live_server.url}/sessions/{night.pk}/summary/")
    with alice.expect_navigation():
        alice.get_by_role("button", name="Settle this night (fewest transfers)").tap()
    assert Payment.objects.filter(status="pending", session=night).exists()
    assert fits(alice) is None
    alice.close()
