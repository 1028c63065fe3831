"""Who may do what in a group: members enter and edit deals, owners also govern the group."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied

from games.models import Group, Membership

User = AbstractBaseUser | AnonymousUser


class NotAllowed(PermissionDenied):
    """The user lacks the role this change needs (a PermissionDenied, so DRF answers 403)."""


_KNOWN_ROLES = "_known_roles"


def remember_role(group: Group, user: User, role: str) -> None:
    """Note a role read together with the group (say, by a view's own query) on this group
    object, so that checks on it need no query of their own. The note lives as long as the
    object, which a view fetches for one request."""
    group.__dict__.setdefault(_KNOWN_ROLES, {})[user.pk] = role


def role_of(user: User | None, group: Group) -> str | None:
    """The user's role in the group, or None for a stranger (or nobody)."""
    if user is None or not user.is_authenticated:
        return None
    known: dict[object, str] = group.__dict__.get(_KNOWN_ROLES, {})
    if user.pk in known:
        return known[user.pk]
    return (
        Membership.objects.filter(user_id=user.pk, group=group)
        .values_list("role", flat=True)
        .first()
    )


def require_member(user: User | None, group: Group) -> str:
    """The user's role; NotAllowed unless they belong to the group."""
    role = role_of(user, group)
    if role is None:
        raise NotAllowed(f"you are not a member of {group.name}")
    return role


def require_owner(user: User | None, group: Group) -> None:
    """NotAllowed unless the user owns the group: rules, stakes, members and voids are theirs."""
    if require_member(user, group) != Membership.Role.OWNER:
        raise NotAllowed(f"only an owner of {group.name} may do this")
