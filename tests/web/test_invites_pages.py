"""Invite links from the pages: Alice (owner) makes one on the group page; Carol opens it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Group, GroupInvite, Player
from games.services.invites import token_for


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol")


def link(invite: GroupInvite) -> str:
    return f"/invites/{token_for(invite)}/"


def test_an_owner_makes_an_invite_and_sees_its_link_qr_and_revoke(
    as_alice: Client, group: Group
) -> None:
    answer = as_alice.post(f"/groups/{group.pk}/invites/new/")
    assert answer.status_code == 302

    invite = GroupInvite.objects.get(group=group)
    page = as_alice.get(f"/groups/{group.pk}/").content.decode()
    assert f"http://testserver{link(invite)}" in page
    assert '<svg width="' in page and 'class="segno"' in page
    assert f'action="/groups/{group.pk}/invites/{invite.pk}/revoke/" data-confirm=' in page


def test_members_neither_see_nor_make_invites(as_bob: Client, alice: User, group: Group) -> None:
    services.create_invite(group, by=alice)
    assert "Invite friends" not in as_bob.get(f"/groups/{group.pk}/").content.decode()
    assert as_bob.post(f"/groups/{group.pk}/invites/new/").status_code == 403
    assert GroupInvite.objects.count() == 1


def test_revoking_closes_the_link(as_alice: Client, alice: User, group: Group) -> None:
    invite = services.create_invite(group, by=alice)
    as_alice.post(f"/groups/{group.pk}/invites/{invite.pk}/revoke/")

    answer = Client().get(link(invite))

    assert answer.status_code == 410
    assert "revoked" in answer.content.decode()
    assert token_for(invite) not in as_alice.get(f"/groups/{group.pk}/").content.decode()


def test_a_signed_out_friend_is_asked_to_sign_up_or_in_and_comes_back(
    alice: User, group: Group
) -> None:
    invite = services.create_invite(group, by=alice)
    page = Client().get(link(invite)).content.decode()
    assert "Join Friday club" in page and "alice invites you" in page
    here = link(invite).replace(":", "%3A")
    assert f'href="/accounts/signup/?next={here}"' in page
    assert f'href="/accounts/login/?next={here}"' in page


def test_a_signed_in_friend_claims_a_guest(
    alice: User, group: Group, players: dict[str, Player], carol: User
) -> None:
    invite = services.create_invite(group, by=alice)
    client = Client()
    client.force_login(carol)
    page = client.get(link(invite)).content.decode()
    assert " Cy</label>" in page and " Di</label>" in page
    assert " Ann</label>" not in page and " Bob</label>" not in page  # only unlinked players

    answer = client.post(link(invite), {"player": players["Cy"].pk})

    assert answer["Location"] == f"/groups/{group.pk}/"
    assert Player.objects.get(pk=players["Cy"].pk).user == carol
    assert "you play as Cy" in client.get(answer["Location"]).content.decode()
    again = client.get(link(invite)).content.decode()
    assert "already a member" in again


def test_a_friend_made_a_new_player_and_a_taken_name_refused(
    alice: User, group: Group, players: dict[str, Player], carol: User
) -> None:
    invite = services.create_invite(group, by=alice)
    client = Client()
    client.force_login(carol)

    taken = client.post(link(invite), {"player": "new", "new_player": "ann"})
    assert taken.status_code == 400 and "already has a player named" in taken.content.decode()
    made = client.post(link(invite), {"player": "new", "new_player": "Carol"})
    assert made.status_code == 302
    assert group.players.get(name="Carol").user == carol


@pytest.mark.parametrize("how", ["expired", "forged", "made up"])
def test_a_dead_link_gets_a_page_that_says_why(
    alice: User, group: Group, carol: User, how: str
) -> None:
    invite = services.create_invite(group, by=alice)
    token = token_for(invite)
    if how == "expired":
        GroupInvite.objects.filter(pk=invite.pk).update(expires_at=timezone.now())
    elif how == "forged":
        token = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    else:
        token = "hello"
    client = Client()
    client.force_login(carol)

    for answer in (client.get(f"/invites/{token}/"), client.post(f"/invites/{token}/", {})):
        assert answer.status_code == 410
        text = answer.content.decode()
        assert "This invite link cannot be used" in text
        assert ("expired" if how == "expired" else "not valid") in text
    assert not group.memberships.filter(user=carol).exists()
