"""Invite links: an owner shares one, a friend opens it, joins the group and claims a player.

The link's token is the invite's random nonce signed with the site's key
(``django.core.signing``, salted for invites): a forged or altered token fails its signature
before any lookup. Whether an invite still holds (not expired, not revoked, its inviter
still an owner) is read from its row each time it is opened.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.models import Group, GroupInvite, Membership, Player
from games.permissions import require_owner, role_of
from games.services import groups, names, players

SALT = "games.invite"
DEFAULT_DAYS = 7
MAX_DAYS = 90


class InviteRefused(ServiceError):
    """The link cannot be used: forged or altered, expired, revoked, or its inviter gone."""


def token_for(invite: GroupInvite) -> str:
    """The token the invite's link carries."""
    return signing.Signer(salt=SALT).sign(invite.nonce)


def create_invite(group: Group, by: User, days: int = DEFAULT_DAYS) -> GroupInvite:
    """Owners make a new invite link for the group, valid for ``days`` days."""
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise ServiceError(_("days: a whole number from 1 to %(max)d") % {"max": MAX_DAYS}, "days")
    with transaction.atomic():
        require_owner(by, group)
        return GroupInvite.objects.create(
            group=group,
            created_by=by,
            expires_at=timezone.now() + timedelta(days=days),
            nonce=secrets.token_urlsafe(24),
        )


def active_invites(group: Group) -> QuerySet[GroupInvite]:
    """The group's invites that can still be used, newest first."""
    return group.invites.filter(revoked_at=None, expires_at__gt=timezone.now()).select_related(
        "created_by"
    )


def revoke_invite(invite: GroupInvite, by: User) -> GroupInvite:
    """Owners revoke an invite: its link is refused from now on (revoking twice is a no-op)."""
    with transaction.atomic():
        require_owner(by, invite.group)
        locked = GroupInvite.objects.select_for_update().get(pk=invite.pk)
        if locked.revoked_at is None:
            locked.revoked_at = timezone.now()
            locked.save(update_fields=["revoked_at"])
    return locked


def open_invite(token: str) -> GroupInvite:
    """The invite a token stands for; InviteRefused, saying why, when it cannot be used."""
    try:
        nonce = signing.Signer(salt=SALT).unsign(str(token).strip())
    except signing.BadSignature:
        raise InviteRefused(
            _("This invite link is not valid: it may have been copied incompletely."), "token"
        ) from None
    invite = GroupInvite.objects.select_related("group", "created_by").filter(nonce=nonce).first()
    if invite is None:
        raise InviteRefused(_("This invite link no longer exists."), "token")
    if invite.revoked_at is not None:
        raise InviteRefused(
            _("This invite link was revoked: ask %(name)s for a new one.")
            % {"name": invite.created_by.get_username()},
            "token",
        )
    if invite.expires_at <= timezone.now():
        raise InviteRefused(
            _("This invite link has expired: ask %(name)s for a new one.")
            % {"name": invite.created_by.get_username()},
            "token",
        )
    if role_of(invite.created_by, invite.group) != Membership.Role.OWNER:
        raise InviteRefused(
            _("%(name)s no longer owns %(group)s, so this invite link is closed.")
            % {"name": invite.created_by.get_username(), "group": invite.group.name},
            "token",
        )
    return invite


def claimable_players(group: Group) -> QuerySet[Player]:
    """The group's players not linked to any user yet: the ones a newcomer may claim."""
    return group.players.filter(user=None)


@dataclass(frozen=True)
class Joined:
    invite: GroupInvite
    membership: Membership
    player: Player


def accept_invite(
    token: str,
    user: User,
    *,
    player: str | int | None = None,
    new_player: str | None = None,
) -> Joined:
    """``user`` joins the invite's group as a member and plays as ``player`` (an unlinked
    player of the group, by id or name) or as a new player named ``new_player``.

    All or nothing: a refused claim leaves the user outside the group.
    """
    invite = open_invite(token)
    group = invite.group
    if (player is None or player == "") == (new_player is None or new_player == ""):
        raise ServiceError(
            _("Choose one: a player of the group to play as, or a name for a new player."),
            "player",
        )
    with transaction.atomic():
        if Membership.objects.filter(group=group, user_id=user.pk).exists():
            raise ServiceError(
                _("You are already a member of %(group)s.") % {"group": group.name}, "token"
            )
        membership = groups.add_member(group, user, Membership.Role.MEMBER, by=invite.created_by)
        if new_player:
            joined_as = players.add_player(group, new_player, by=user, user=user)
        else:
            claimed = _player_of(group, player)
            if claimed.user_id is not None:
                raise ServiceError(
                    _("%(name)s already plays as someone's account: pick another player.")
                    % {"name": claimed.name},
                    "player",
                )
            joined_as = players.update_player(claimed, by=invite.created_by, user=user)
    return Joined(invite=invite, membership=membership, player=joined_as)


def _player_of(group: Group, player: str | int | None) -> Player:
    """The group's player with this id (a number) or name (after case-folding)."""
    text = str(player).strip()
    found = None
    if isinstance(player, int) or text.isdigit():
        found = group.players.filter(pk=int(text)).first()
    if found is None:
        by_name = {p.name: p for p in group.players.all()}
        same = names.same_as(text, by_name)
        found = by_name.get(same) if same is not None else None
    if found is None:
        raise ServiceError(
            _("%(group)s has no player %(name)s.") % {"group": group.name, "name": repr(text)},
            "player",
        )
    return found
