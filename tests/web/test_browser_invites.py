"""An invite link used from a second phone: Alice makes the link on her group
page; Carol opens it in a browser of her own at 360 px, signs up, joins and claims the guest
Cy; Alice's group page then shows Cy linked to carol."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Group, Player
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD
from tests.web.test_browser_payments import fits, sign_in


@pytest.fixture
def club(transactional_db: None) -> Group:
    alice = User.objects.create_user("alice", password=PASSWORD)
    group = services.create_group(alice, "Friday club", "EUR", Decimal("0.5"), "classic-1-6")
    services.add_player(group, "Ann", by=alice, user=alice)
    services.add_player(group, "Cy", by=alice)
    return group


def test_a_friend_signs_up_from_an_invite_and_claims_a_player(
    chromium: Any, live_server: Any, club: Group
) -> None:
    owner = chromium.new_context(viewport=PHONE)
    alice = owner.new_page()
    alice.set_default_timeout(15_000)
    sign_in(alice, live_server.url, "alice")
    alice.goto(f"{live_server.url}/groups/{club.pk}/")
    with alice.expect_navigation():
        alice.get_by_role("button", name="New invite link").click()
    link = alice.locator(".invite-url").first.input_value()
    assert link.startswith(f"{live_server.url}/invites/")
    assert alice.locator(".qr svg").count() == 1

    friend = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    carol = friend.new_page()
    carol.set_default_timeout(15_000)
    carol.goto(link)
    assert "alice invites you" in carol.locator("#invited-by").inner_text()
    assert fits(carol) is None
    carol.locator("#invite-signup").tap()
    carol.get_by_label("Username").fill("carol")
    carol.get_by_label("Password", exact=True).fill(PASSWORD)
    carol.get_by_label("Password confirmation").fill(PASSWORD)
    assert fits(carol) is None
    with carol.expect_navigation():
        carol.get_by_role("button", name="Create my account").tap()
    assert carol.url == link  # back at the invite, signed in
    carol.get_by_label("Cy").check()
    assert fits(carol) is None
    with carol.expect_navigation():
        carol.get_by_role("button", name="Join").tap()
    assert carol.url.endswith(f"/groups/{club.pk}/")
    assert "you play as Cy" in carol.locator(".messages").inner_text()
    friend.close()

    alice.reload()
    assert "Cy (carol)" in alice.locator("#players-list").inner_text()
    assert Player.objects.get(group=club, name="Cy").user == User.objects.get(username="carol")
    owner.close()
