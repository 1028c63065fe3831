"""Players of a group and the stakes between two of them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.errors import HasHistory, ServiceError
from games.models import Group, PairStake, Payment, Player
from games.permissions import require_member, require_owner
from games.services import checks, names

NAME_LENGTH = Player._meta.get_field("name").max_length or 50


def add_player(group: Group, name: str, by: User, user: User | None = None) -> Player:
    """A player of the group: any member may add one (guests turn up at the table)."""
    name = names.clean(name, max_length=NAME_LENGTH)
    with transaction.atomic():
        require_member(by, group)
        # The group row is locked so that two players added at once cannot both take a name.
        Group.objects.select_for_update().filter(pk=group.pk).first()
        _check_name_free(group, name)
        if user is not None:
            _check_not_linked(group, user)
        return Player.objects.create(group=group, name=name, user=user)


def checked_name(group: Group, name: object, *, but: Player | None = None) -> str:
    """``name`` as a player of ``group`` (other than ``but``) stores it: the names' rules,
    and no other player of the group named alike; ServiceError on ``name`` otherwise."""
    name = names.clean(name, max_length=NAME_LENGTH)
    _check_name_free(group, name, but=but)
    return name


def check_link(group: Group, user: User, *, but: Player | None = None) -> None:
    """A user may play as a player of ``group`` (other than ``but``): they are a member,
    and linked to no other of its players; ServiceError on ``username`` otherwise."""
    if not group.memberships.filter(user_id=user.pk).exists():
        raise ServiceError(
            f"username: {user.get_username()} is not a member of {group.name}", "username"
        )
    _check_not_linked(group, user, but=but)


def _check_name_free(group: Group, name: str, *, but: Player | None = None) -> None:
    """Names are unique in a group after normalising and case-folding."""
    taken = group.players.all() if but is None else group.players.exclude(pk=but.pk)
    clash = names.same_as(name, taken.values_list("name", flat=True))
    if clash is not None:
        same = "" if clash == name else f" ({name!r} is the same name)"
        raise ServiceError(f"{group.name} already has a player named {clash!r}{same}", "name")


def _check_not_linked(group: Group, user: User, *, but: Player | None = None) -> None:
    """A user plays as one player of a group: two would split their history."""
    linked = group.players.filter(user_id=user.pk)
    if but is not None:
        linked = linked.exclude(pk=but.pk)
    already = linked.first()
    if already is not None:
        raise ServiceError(
            f"username: {user.get_username()} is already linked to the player {already.name}",
            "username",
        )


_UNCHANGED: Any = object()


def update_player(
    player: Player,
    by: User,
    *,
    name: str | None = None,
    user: User | None = _UNCHANGED,
    retired: bool | None = None,
) -> Player:
    """Owners rename a player, link them to a member's user (``user=None`` unlinks), or
    retire them (``retired=True``) and bring them back (``retired=False``).

    Names stay unique in the group, retired players' included. Deals keep the names they
    were scored under: each session seats a player under the name they sat down with
    (``SessionSeat.name``), so a new name is used from the next session on. A retired
    player keeps all their history but is seated at no new session.
    """
    changes: dict[str, Any] = {}
    if name is not None:
        name = names.clean(name, max_length=NAME_LENGTH)
        changes["name"] = name
    with transaction.atomic():
        group = player.group
        require_owner(by, group)
        if name is not None:  # the group first, as add_player locks it
            Group.objects.select_for_update().filter(pk=group.pk).first()
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if name is not None:
            _check_name_free(group, name, but=locked)
        if user is not _UNCHANGED:
            if user is not None:
                check_link(group, user, but=locked)
            changes["user"] = user
        if retired is not None and retired != locked.is_retired:
            changes["retired_at"] = timezone.now() if retired else None
        for field, value in changes.items():
            setattr(locked, field, value)
        if changes:
            locked.save(update_fields=list(changes))
    return locked


def delete_player(player: Player, by: User) -> None:
    """Owners delete a player who never sat at a session (with their pair stakes).

    A player with a seat has history (deals, ledger rows): HasHistory, nothing deleted.
    """
    with transaction.atomic():
        require_owner(by, player.group)
        locked = Player.objects.select_for_update().get(pk=player.pk)
        sessions = locked.seats.count()
        if sessions:
            raise HasHistory(
                f"{locked.name} has history: seated in {sessions}"
                f" session{'s' if sessions != 1 else ''}, so the player cannot be deleted"
                " (rename them instead)"
            )
        if Payment.objects.filter(Q(payer=locked) | Q(payee=locked)).exists():
            raise HasHistory(
                f"{locked.name} has history: payments, so the player cannot be deleted"
                " (rename them instead)"
            )
        locked.delete()


def set_pair_stake(
    group: Group, first: Player, second: Player, multiplier: Decimal | int | str, by: User
) -> PairStake:
    """Two players' multiple of the unit (owners only); it changes only their pair's money."""
    value = checks.multiplier(multiplier)
    if first.pk == second.pk:
        raise ServiceError("a pair stake needs two different players", "players")
    if first.group_id != group.pk or second.group_id != group.pk:
        raise ServiceError(f"both players must belong to {group.name}", "players")
    a, b = sorted((first, second), key=lambda p: p.pk)
    with transaction.atomic():
        require_owner(by, group)
        stake, _ = PairStake.objects.update_or_create(
            player_a=a, player_b=b, defaults={"group": group, "multiplier": value}
        )
    return stake


def delete_pair_stake(stake: PairStake, by: User) -> None:
    """Owners drop a pair's multiple: the pair plays at 1x from now on.

    Deals already recorded keep the stakes they were scored at (stored with each deal).
    """
    with transaction.atomic():
        require_owner(by, stake.group)
        PairStake.objects.filter(pk=stake.pk).delete()
