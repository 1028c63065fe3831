"""Invite links: Ann (the owner) invites; Cy's friend Carol joins and claims the guest Cy."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from games import services
from games.models import Group, GroupInvite, Membership, Player
from games.services import invites


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol")


@pytest.fixture
def invite(group: Group, ann_user: User) -> GroupInvite:
    return services.create_invite(group, by=ann_user)


def token(invite: GroupInvite) -> str:
    return invites.token_for(invite)


def test_an_invite_expires_in_seven_days_by_default(invite: GroupInvite) -> None:
    left = invite.expires_at - timezone.now()
    assert timedelta(days=6, hours=23) < left <= timedelta(days=7)
    assert services.open_invite(token(invite)) == invite


def test_only_owners_make_or_revoke_invites(
    group: Group, bob_user: User, invite: GroupInvite
) -> None:
    with pytest.raises(services.NotAllowed):
        services.create_invite(group, by=bob_user)
    with pytest.raises(services.NotAllowed):
        services.revoke_invite(invite, by=bob_user)
    assert invite in invites.active_invites(group)


@pytest.mark.parametrize("days", [0, -1, 91, True])
def test_an_invite_lasts_one_to_ninety_days(group: Group, ann_user: User, days: int) -> None:
    with pytest.raises(services.ServiceError) as refused:
        services.create_invite(group, by=ann_user, days=days)
    assert refused.value.field == "days"


def test_claiming_an_unlinked_player_joins_as_that_player(
    invite: GroupInvite, players: dict[str, Player], carol: User, group: Group
) -> None:
    joined = services.accept_invite(token(invite), carol, player=players["Cy"].pk)

    assert joined.player == players["Cy"]
    assert Player.objects.get(pk=players["Cy"].pk).user == carol
    assert joined.membership.role == Membership.Role.MEMBER
    assert group.memberships.filter(user=carol).exists()


def test_a_player_is_claimed_by_name_after_case_folding(
    invite: GroupInvite, players: dict[str, Player], carol: User
) -> None:
    joined = services.accept_invite(token(invite), carol, player="  cY ")
    assert joined.player == players["Cy"]


def test_a_new_player_is_made_under_the_typed_name(
    invite: GroupInvite, players: dict[str, Player], carol: User, group: Group
) -> None:
    joined = services.accept_invite(token(invite), carol, new_player="Carol")

    assert joined.player.name == "Carol"
    assert joined.player.user == carol
    assert group.players.count() == 5


def test_a_new_player_takes_no_name_already_taken(
    invite: GroupInvite, players: dict[str, Player], carol: User, group: Group
) -> None:
    with pytest.raises(services.ServiceError) as refused:
        services.accept_invite(token(invite), carol, new_player="DI")

    assert refused.value.field == "name"
    assert not group.memberships.filter(user=carol).exists()  # all or nothing


def test_a_player_linked_to_someone_is_not_claimed(
    invite: GroupInvite, players: dict[str, Player], carol: User, group: Group
) -> None:
    with pytest.raises(services.ServiceError) as refused:
        services.accept_invite(token(invite), carol, player=players["Bob"].pk)

    assert refused.value.field == "player"
    assert Player.objects.get(pk=players["Bob"].pk).user_id == players["Bob"].user_id is not None
    assert not group.memberships.filter(user=carol).exists()


def test_a_player_of_another_group_or_none_is_refused(
    invite: GroupInvite, players: dict[str, Player], carol: User, ann_user: User
) -> None:
    other = services.create_group(ann_user, "Other", "EUR", "1", "classic-1-6")
    stranger = services.add_player(other, "Zed", by=ann_user)
    for choice in (stranger.pk, "Nobody"):
        with pytest.raises(services.ServiceError):
            services.accept_invite(token(invite), carol, player=choice)
    with pytest.raises(services.ServiceError):
        services.accept_invite(token(invite), carol)
    with pytest.raises(services.ServiceError):
        services.accept_invite(token(invite), carol, player="Cy", new_player="Carol")


def test_the_same_user_using_the_link_again_is_refused_politely(
    invite: GroupInvite, players: dict[str, Player], carol: User, group: Group
) -> None:
    services.accept_invite(token(invite), carol, player="Cy")

    with pytest.raises(services.ServiceError) as refused:
        services.accept_invite(token(invite), carol, new_player="Carol again")

    assert "already a member" in refused.value.message
    assert group.players.filter(user=carol).count() == 1


def test_a_link_serves_several_friends_until_it_expires(
    invite: GroupInvite, players: dict[str, Player], carol: User
) -> None:
    dave = User.objects.create_user("dave")
    services.accept_invite(token(invite), carol, player="Cy")
    services.accept_invite(token(invite), dave, player="Di")
    GroupInvite.objects.filter(pk=invite.pk).update(expires_at=timezone.now())

    with pytest.raises(services.InviteRefused, match="expired"):
        services.accept_invite(token(invite), User.objects.create_user("erin"), new_player="E")


def test_a_revoked_link_is_refused(
    invite: GroupInvite, ann_user: User, carol: User, group: Group
) -> None:
    services.revoke_invite(invite, by=ann_user)

    with pytest.raises(services.InviteRefused, match="revoked"):
        services.accept_invite(token(invite), carol, new_player="Carol")
    assert invite not in invites.active_invites(group)
    assert not group.memberships.filter(user=carol).exists()


def test_an_invite_closes_when_its_maker_is_no_longer_an_owner(
    group: Group, ann_user: User, bob_user: User, carol: User
) -> None:
    services.set_member_role(group.memberships.get(user=bob_user), "owner", by=ann_user)
    made_by_bob = services.create_invite(group, by=bob_user)
    services.set_member_role(group.memberships.get(user=bob_user), "member", by=ann_user)

    with pytest.raises(services.InviteRefused, match="no longer owns"):
        services.open_invite(token(made_by_bob))


def test_a_token_of_a_deleted_invite_is_refused(invite: GroupInvite) -> None:
    kept = token(invite)
    invite.delete()
    with pytest.raises(services.InviteRefused, match="no longer exists"):
        services.open_invite(kept)


class TestForgedTokens(TestCase):
    """Any change to a real token, or a made-up one, fails the signature."""

    token: str

    @classmethod
    def setUpTestData(cls) -> None:
        owner = User.objects.create_user("ann")
        group = services.create_group(owner, "Friday club", "EUR", "0.5", "classic-1-6")
        cls.token = token(services.create_invite(group, by=owner))

    @settings(max_examples=60, deadline=None)
    @given(data=st.data())
    def test_an_altered_token_is_refused(self, data: st.DataObject) -> None:
        position = data.draw(st.integers(0, len(self.token) - 1))
        replacement = data.draw(st.characters(codec="utf-8").filter(lambda c: c != "\x00"))
        forged = self.token[:position] + replacement + self.token[position + 1 :]
        if forged.strip() == self.token:
            return
        with pytest.raises(services.InviteRefused, match="not valid"):
            services.open_invite(forged)

    @settings(max_examples=40, deadline=None)
    @given(made_up=st.text(max_size=80))
    def test_a_made_up_token_is_refused(self, made_up: str) -> None:
        with pytest.raises(services.InviteRefused):
            services.open_invite(made_up)

    def test_a_nonce_signed_with_another_key_is_refused(self) -> None:
        from django.core import signing

        nonce = self.token.split(":")[0]
        forged = signing.Signer(key="not the site's key", salt=invites.SALT).sign(nonce)
        with pytest.raises(services.InviteRefused, match="not valid"):
            services.open_invite(forged)
