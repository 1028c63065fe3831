"""Groups: creating one, its members and their roles, its settings and its rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from games.engine import Rules
from games.errors import HasHistory, LastOwner, ServiceError
from games.live import push
from games.models import Deal, Group, Membership, RuleSet
from games.permissions import require_owner
from games.services import checks, names, players

NAME_LENGTH = Group._meta.get_field("name").max_length or 100
# Players named when a group is created: a table of friends, not a club's roll.
MAX_PLAYERS = 100


def create_group(
    owner: User,
    name: str,
    currency: str,
    unit_value: Decimal | int | str,
    preset_spec: str | Mapping[str, Any],
    player_names: Sequence[str] = (),
    owner_plays: str = "",
) -> Group:
    """A new group owned by ``owner``, with its rules as version 1 (RuleError if invalid)
    and its players, all or nothing: a bad name (``players[k]``) stores no group.

    ``owner_plays``: the name, among ``player_names``, of the owner's own player, linked
    to the owner at once (so no one joining by an invite can claim it)."""
    Rules.from_mapping(preset_spec, limits=True)  # checked before anything is stored
    name = names.clean(name, max_length=NAME_LENGTH, what="a group")
    code = checks.currency(currency)
    value = checks.unit_value(unit_value)
    cleaned = _player_names(player_names)
    with transaction.atomic():
        group = Group(name=name, currency=code, unit_value=value)
        group.initial_rules, group.initial_rules_by = preset_spec, owner
        group.save()
        Membership.objects.create(user=owner, group=group, role=Membership.Role.OWNER)
        me = _owner_plays(owner_plays, cleaned)
        for player_name in cleaned:
            players.add_player(
                group, player_name, by=owner, user=owner if player_name == me else None
            )
    return group


def _owner_plays(typed: str, cleaned: list[str]) -> str | None:
    """Which of the names is the owner's (``names.same_as``: case and spacing aside), or
    ServiceError on ``owner_plays`` when it names none of them."""
    if not typed.strip():
        return None
    found = names.same_as(typed.strip(), cleaned)
    if found is None:
        raise ServiceError(
            _("owner_plays: %(name)s is not one of the players") % {"name": typed.strip()},
            "owner_plays",
        )
    return found


def _player_names(typed: Sequence[str]) -> list[str]:
    """The names as stored, or ServiceError on ``players[k]``: a bad name, or the same
    name twice (after case-folding)."""
    if isinstance(typed, str) or not isinstance(typed, Sequence):
        raise ServiceError("players: expected a list of names", "players")
    if len(typed) > MAX_PLAYERS:
        raise ServiceError(f"players: at most {MAX_PLAYERS} names, got {len(typed)}", "players")
    cleaned: list[str] = []
    for k, typed_name in enumerate(typed):
        field = f"players[{k}]"
        clean = names.clean(typed_name, field, max_length=players.NAME_LENGTH)
        clash = names.same_as(clean, cleaned)
        if clash is not None:
            same = "" if clash == clean else f" ({clean!r} is the same name)"
            raise ServiceError(f"{field}: {clash!r} is named twice{same}", field)
        cleaned.append(clean)
    return cleaned


def add_member(group: Group, user: User, role: str, by: User) -> Membership:
    """Owners add members (or other owners); a second membership for one user is refused."""
    if role not in Membership.Role.values:
        raise ServiceError(f"role: {role!r} is not one of owner, member", "role")
    with transaction.atomic():
        require_owner(by, group)
        if Membership.objects.filter(group=group, user_id=user.pk).exists():
            raise ServiceError(f"{user} is already a member of {group.name}", "user")
        return Membership.objects.create(group=group, user=user, role=role)


def update_group(
    group: Group,
    by: User,
    *,
    name: str | None = None,
    currency: str | None = None,
    unit_value: Decimal | int | str | None = None,
) -> Group:
    """Owners rename the group or change its stakes: currency and unit value.

    Deals already recorded keep the stakes they were scored at.
    """
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = names.clean(name, max_length=NAME_LENGTH, what="a group")
    if currency is not None:
        changes["currency"] = checks.currency(currency)
    if unit_value is not None:
        changes["unit_value"] = checks.unit_value(unit_value)
    with transaction.atomic():
        require_owner(by, group)
        locked = Group.objects.select_for_update().get(pk=group.pk)
        for field, value in changes.items():
            setattr(locked, field, value)
        if changes:
            locked.save(update_fields=list(changes))
    return locked


def delete_group(group: Group, by: User, confirm: str | None = None) -> None:
    """Owners delete the group with everything in it.

    A group with recorded deals is deleted only when ``confirm`` repeats its name exactly;
    otherwise HasHistory, and nothing is deleted.
    """
    with transaction.atomic():
        require_owner(by, group)
        locked = Group.objects.select_for_update().get(pk=group.pk)
        deals = Deal.objects.filter(session__group=locked).count()
        payments = locked.payments.count()
        if payments and not deals and confirm != locked.name:
            raise HasHistory(
                f"{locked.name} has {payments} recorded payment{'s' if payments != 1 else ''}:"
                f" to delete it with its whole history, confirm with its name ({locked.name})"
            )
        if deals and confirm != locked.name:
            raise HasHistory(
                f"{locked.name} has {deals} recorded deal{'s' if deals != 1 else ''}:"
                f" to delete it with its whole history, confirm with its name ({locked.name})"
            )
        # Seats, payments and ledger rows protect their players, and sessions their rule
        # sets: the payments (with their rows and history) and the sessions (with their
        # seats, deals and ledger rows) go first.
        locked.payments.all().delete()
        locked.sessions.all().delete()
        locked.delete()


def set_member_role(membership: Membership, role: str, by: User) -> Membership:
    """Owners make a member an owner or back; a group always keeps at least one owner."""
    if role not in Membership.Role.values:
        raise ServiceError(f"role: {role!r} is not one of owner, member", "role")
    with transaction.atomic():
        require_owner(by, membership.group)
        locked = Membership.objects.select_for_update().get(pk=membership.pk)
        if role == Membership.Role.MEMBER:
            _keep_an_owner(locked)
        locked.role = role
        locked.save(update_fields=["role"])
    return locked


def remove_member(membership: Membership, by: User) -> None:
    """Owners remove a member (their players and deals stay); never the last owner."""
    with transaction.atomic():
        require_owner(by, membership.group)
        locked = Membership.objects.select_for_update().get(pk=membership.pk)
        _keep_an_owner(locked)
        locked.delete()
        # Their pages following the group's open sessions live stop hearing them.
        open_sessions = locked.group.sessions.filter(status="open").values_list("pk", flat=True)
        push.left(list(open_sessions), locked.user_id)


def _keep_an_owner(membership: Membership) -> None:
    # Locking the owners' rows makes two owners demoting each other queue.
    owners = list(
        Membership.objects.select_for_update()
        .filter(group_id=membership.group_id, role=Membership.Role.OWNER)
        .values_list("pk", flat=True)
    )
    if membership.role == Membership.Role.OWNER and len(owners) == 1:
        raise LastOwner(f"{membership.user} is the group's only owner", "role")


def set_rules(group: Group, spec: str | Mapping[str, Any], by: User) -> RuleSet:
    """A new version of the group's rules; sessions already started keep theirs."""
    rules = Rules.from_mapping(spec, limits=True)
    with transaction.atomic():
        require_owner(by, group)
        Group.objects.select_for_update().get(pk=group.pk)
        latest = group.rule_sets.aggregate(v=Max("version"))["v"] or 0
        return RuleSet.objects.create(
            group=group, version=latest + 1, spec=spec, rules=rules.to_mapping(), created_by=by
        )
