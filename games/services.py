"""The operations that change data, and the read helpers built on the ledger.

Every change runs in one transaction and checks the caller's role (``games.permissions``).
Scoring is the engine's: a deal is scored with ``score_request`` under the rules stored on
its session, and a ``ScoreError`` from the engine propagates unchanged with nothing stored.

Balances are sums of ``LedgerEntry`` rows. A void deal has no ledger rows (they are deleted
when it is voided; the deal keeps its last result and a ``DealRevision``), so every sum
over the ledger already leaves it out.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Max, QuerySet, Sum
from django.utils import timezone

from games.after_response import after_response
from games.engine import Rules, ScoreError, score_request
from games.engine.arrange import review_request
from games.engine.bigtwo import target_reached as engine_target_reached
from games.engine.rules import decimal_text
from games.engine.settlement import Transfer, fewest_transfers, pair_settlement
from games.engine.tally import tally
from games.models import (
    Deal,
    DealRevision,
    Group,
    LedgerEntry,
    Membership,
    PairStake,
    Player,
    ReviewLine,
    RuleSet,
    Session,
    SessionSeat,
)
from games.permissions import NotAllowed, require_member, require_owner

__all__ = [
    "Amounts",
    "DealNotActive",
    "HasHistory",
    "NotAllowed",
    "Recorded",
    "RunningTotal",
    "ServiceError",
    "SessionClosed",
    "add_member",
    "add_player",
    "balances",
    "close_session",
    "create_group",
    "delete_group",
    "delete_pair_stake",
    "delete_player",
    "delete_session",
    "edit_deal",
    "fantasyland",
    "pair_matrix",
    "record_deal",
    "record_or_replay",
    "remove_member",
    "running_totals",
    "set_member_role",
    "set_pair_stake",
    "set_rules",
    "settlement",
    "start_session",
    "store_review",
    "target_reached",
    "update_group",
    "update_player",
    "update_session",
    "void_deal",
]

ZERO = Decimal(0)

# The preset a session gets when it names a game the group's own rules are not for.
DEFAULT_PRESETS = {"chinese": "standard", "open-face": "ofc", "big-two": "big-two"}


class ServiceError(Exception):
    """A change that cannot be made; ``field`` names the culprit as ScoreError's does."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class SessionClosed(ServiceError):
    """The session is closed: its deals are read-only."""


class DealNotActive(ServiceError):
    """The deal is void: it can be neither edited nor voided again."""


class HasHistory(ServiceError):
    """The object carries recorded history (seats, deals), so it is not deleted."""


class Amounts(NamedTuple):
    units: Decimal
    money: Decimal


class RunningTotal(NamedTuple):
    """Every seated player's totals after one active deal."""

    number: int
    totals: dict[str, Amounts]


# --- groups, rules, players, stakes --------------------------------------------------------


def create_group(
    owner: User,
    name: str,
    currency: str,
    unit_value: Decimal | int | str,
    preset_spec: str | Mapping[str, Any],
) -> Group:
    """A new group owned by ``owner``, with its rules as version 1 (RuleError if invalid)."""
    rules = Rules.from_mapping(preset_spec)
    if not name.strip():
        raise ServiceError("name: a group needs a name", "name")
    code = _currency(currency)
    value = _amount(unit_value, "unit_value")
    with transaction.atomic():
        group = Group.objects.create(name=name.strip(), currency=code, unit_value=value)
        Membership.objects.create(user=owner, group=group, role=Membership.Role.OWNER)
        RuleSet.objects.create(
            group=group, version=1, spec=preset_spec, rules=rules.to_mapping(), created_by=owner
        )
    return group


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
        if not name.strip():
            raise ServiceError("name: a group needs a name", "name")
        changes["name"] = name.strip()
    if currency is not None:
        changes["currency"] = _currency(currency)
    if unit_value is not None:
        changes["unit_value"] = _amount(unit_value, "unit_value")
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
        if deals and confirm != locked.name:
            raise HasHistory(
                f"{locked.name} has {deals} recorded deal{'s' if deals != 1 else ''}:"
                f" to delete it with its whole history, confirm with its name ({locked.name})"
            )
        # Seats and ledger rows protect their players, and sessions their rule sets:
        # the sessions (with their seats, deals and ledger rows) go first.
        locked.sessions.all().delete()
        locked.delete()


def _currency(code: str) -> str:
    if not (len(code) == 3 and code.isascii() and code.isalpha()):
        raise ServiceError(f"currency: expected a 3-letter code, got {code!r}", "currency")
    return code.upper()


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


def _keep_an_owner(membership: Membership) -> None:
    # Locking the owners' rows makes two owners demoting each other queue.
    owners = list(
        Membership.objects.select_for_update()
        .filter(group_id=membership.group_id, role=Membership.Role.OWNER)
        .values_list("pk", flat=True)
    )
    if membership.role == Membership.Role.OWNER and len(owners) == 1:
        raise ServiceError(f"{membership.user} is the group's only owner", "role")


def set_rules(group: Group, spec: str | Mapping[str, Any], by: User) -> RuleSet:
    """A new version of the group's rules; sessions already started keep theirs."""
    rules = Rules.from_mapping(spec)
    with transaction.atomic():
        require_owner(by, group)
        Group.objects.select_for_update().get(pk=group.pk)
        latest = group.rule_sets.aggregate(v=Max("version"))["v"] or 0
        return RuleSet.objects.create(
            group=group, version=latest + 1, spec=spec, rules=rules.to_mapping(), created_by=by
        )


def add_player(group: Group, name: str, by: User, user: User | None = None) -> Player:
    """A player of the group: any member may add one (guests turn up at the table)."""
    name = name.strip()
    if not name:
        raise ServiceError("name: a player needs a name", "name")
    with transaction.atomic():
        require_member(by, group)
        if group.players.filter(name=name).exists():
            raise ServiceError(f"{group.name} already has a player named {name!r}", "name")
        if user is not None:
            _check_not_linked(group, user)
        return Player.objects.create(group=group, name=name, user=user)


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
    player: Player, by: User, *, name: str | None = None, user: User | None = _UNCHANGED
) -> Player:
    """Owners rename a player or link them to a member's user (``user=None`` unlinks).

    Names stay unique in the group. Deals keep the names they were scored under: each
    session seats a player under the name they sat down with (``SessionSeat.name``), so a
    new name is used from the next session on.
    """
    changes: dict[str, Any] = {}
    if name is not None:
        name = name.strip()
        if not name:
            raise ServiceError("name: a player needs a name", "name")
        changes["name"] = name
    with transaction.atomic():
        group = player.group
        require_owner(by, group)
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if name is not None and group.players.filter(name=name).exclude(pk=locked.pk).exists():
            raise ServiceError(f"{group.name} already has a player named {name!r}", "name")
        if user is not _UNCHANGED:
            if user is not None and not group.memberships.filter(user_id=user.pk).exists():
                raise ServiceError(
                    f"username: {user.get_username()} is not a member of {group.name}", "username"
                )
            if user is not None:
                _check_not_linked(group, user, but=locked)
            changes["user"] = user
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
        locked.delete()


def set_pair_stake(
    group: Group, first: Player, second: Player, multiplier: Decimal | int | str, by: User
) -> PairStake:
    """Two players' multiple of the unit (owners only); it changes only their pair's money."""
    value = _amount(multiplier, "multiplier")
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


# --- sessions ----------------------------------------------------------------------------


def start_session(
    group: Group,
    players: Sequence[Player],
    by: User,
    *,
    game: str | None = None,
    rules_override: str | Mapping[str, Any] | None = None,
    target_score: Decimal | int | str | None = None,
    date: datetime.date | None = None,
    place: str = "",
    notes: str = "",
) -> Session:
    """A night for 2-4 of the group's players, seated in the order given.

    The rules are the group's current version, unless ``rules_override`` says otherwise:
    a preset name or a mapping with ``preset`` replaces them for the night, a mapping of
    options only updates them. ``game`` alone picks that game's default preset when the
    group's rules are for another game. ``target_score`` (Big Two) ends the session when a
    player's loss reaches it.
    """
    if not 2 <= len(players) <= 4:
        raise ServiceError(
            f"players: a session seats 2 to 4 players, got {len(players)}", "players"
        )
    if len({p.pk for p in players}) != len(players):
        raise ServiceError("players: a player can take only one seat", "players")
    for player in players:
        if player.group_id != group.pk:
            raise ServiceError(f"players: {player.name} is not a player of {group.name}", "players")
    with transaction.atomic():
        require_member(by, group)
        rule_set = group.current_rule_set()
        spec = _session_spec(rule_set, game, rules_override, target_score)
        rules = Rules.from_mapping(spec)
        if game is not None and rules.game != game:
            raise ServiceError(f"game: {game!r} does not match the rules ({rules.game})", "game")
        session = Session.objects.create(
            group=group,
            game=rules.game,
            date=date or timezone.localdate(),
            place=place,
            notes=notes,
            rule_set=rule_set,
            rules_override=None if spec == rule_set.spec else spec,
            rules=rules.to_mapping(),
            target_score=rules.target_score,
            created_by=by,
        )
        # Seated under their names as stored now (the objects given may predate a rename),
        # and locked, so that a player being deleted meanwhile is either gone or stays.
        seated = Player.objects.select_for_update().filter(pk__in=[p.pk for p in players])
        names = dict(seated.values_list("pk", "name"))
        gone = [p.name for p in players if p.pk not in names]
        if gone:
            raise ServiceError(f"players: no longer in the group: {', '.join(gone)}", "players")
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, player=player, seat=k, name=names[player.pk])
            for k, player in enumerate(players, start=1)
        )
    return session


def _session_spec(
    rule_set: RuleSet,
    game: str | None,
    override: str | Mapping[str, Any] | None,
    target_score: Decimal | int | str | None,
) -> str | Mapping[str, Any]:
    spec: str | Mapping[str, Any] = rule_set.spec
    if override is None and game is not None and rule_set.rules.get("game", "chinese") != game:
        if game not in DEFAULT_PRESETS:
            raise ServiceError(f"game: {game!r} is not one of {', '.join(DEFAULT_PRESETS)}", "game")
        spec = DEFAULT_PRESETS[game]
    elif isinstance(override, str) or (override is not None and "preset" in override):
        spec = override
    elif override is not None:
        spec = {**_spec_mapping(spec), **override}
    if target_score is not None:
        spec = {**_spec_mapping(spec), "target_score": str(target_score)}
    return spec


def _spec_mapping(spec: str | Mapping[str, Any]) -> dict[str, Any]:
    return {"preset": spec} if isinstance(spec, str) else dict(spec)


def update_session(
    session: Session,
    by: User,
    *,
    date: datetime.date | None = None,
    place: str | None = None,
    notes: str | None = None,
) -> Session:
    """Members correct an open session's date, place or notes; its seats and rules stay."""
    changes: dict[str, Any] = {"date": date, "place": place, "notes": notes}
    changes = {field: value for field, value in changes.items() if value is not None}
    with transaction.atomic():
        require_member(by, session.group)
        locked = _lock_open_session(session)
        for field, value in changes.items():
            setattr(locked, field, value)
        if changes:
            locked.save(update_fields=list(changes))
    return locked


def close_session(session: Session, by: User) -> Session:
    """Close the night: from now on its deals are read-only."""
    with transaction.atomic():
        require_member(by, session.group)
        locked = _lock_open_session(session)
        _close(locked, by)
    return locked


def delete_session(session: Session, by: User) -> None:
    """Any member deletes a session started by mistake: only while open and without deals.

    A session with a deal (even a void one) has history: HasHistory, nothing deleted.
    """
    with transaction.atomic():
        require_member(by, session.group)
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if not locked.is_open:
            raise HasHistory(f"session {locked.pk} is closed: it is kept as played")
        deals = locked.deals.count()
        if deals:
            raise HasHistory(
                f"session {locked.pk} has {deals} deal{'s' if deals != 1 else ''}:"
                " void them instead of deleting the session"
            )
        locked.delete()


def _close(session: Session, by: User | None) -> None:
    session.status = Session.Status.CLOSED
    session.closed_by = by
    session.closed_at = timezone.now()
    session.save(update_fields=["status", "closed_by", "closed_at"])


def _lock_open_session(session: Session) -> Session:
    locked = Session.objects.select_for_update().get(pk=session.pk)
    if not locked.is_open:
        raise SessionClosed(f"session {locked.pk} is closed: its deals are read-only")
    return locked


# --- deals -------------------------------------------------------------------------------


def record_deal(
    session: Session,
    request_players: Sequence[Mapping[str, Any]],
    by: User,
    idempotency_key: str | None = None,
) -> Deal:
    """Score one deal under the session's rules and store it with its ledger rows.

    ``request_players`` is the request's ``players`` list; each must be seated. Open-face
    deals get ``in_fantasyland`` from the players' previous deals unless it is given. A
    key already used in this session returns that deal unchanged (a retried request).
    The session row is locked while the next number is taken, so concurrent entries queue;
    the unique (session, number) constraint is the backstop.
    """
    return record_or_replay(session, request_players, by, idempotency_key).deal


class Recorded(NamedTuple):
    deal: Deal
    created: bool  # False: the idempotency key had already recorded this deal


def record_or_replay(
    session: Session,
    request_players: Sequence[Mapping[str, Any]],
    by: User,
    idempotency_key: str | None = None,
) -> Recorded:
    """``record_deal``, also telling whether this call recorded the deal or replayed it."""
    group = session.group
    require_member(by, group)
    # A session's game, rules and seats never change once it starts, and a stake applies
    # from whenever it is set: all are read before the session is locked, to hold the lock
    # as briefly as possible.
    seated, pair_stakes = _table(session)
    try:
        with transaction.atomic():
            number = _next_deal_number(session)
            if idempotency_key is not None:
                existing = session.deals.filter(idempotency_key=idempotency_key).first()
                if existing is not None:
                    raise _Replayed(existing)
            if number is None:
                raise SessionClosed(f"session {session.pk} is closed: no more deals")
            open_face = session.game == Session.Game.OPEN_FACE
            fantasy = fantasyland(session, seated) if open_face else {}
            players = _checked_players(request_players, seated, fantasy)
            stakes = _stakes(group.unit_value, pair_stakes, players, seated)
            request = {"players": players, "stakes": stakes}
            result = score_request({"rules": session.rules, **request})
            deal = Deal.objects.create(
                session=session,
                number=number,
                request=request,
                rules=session.rules,
                result=result,
                tally=tally(result),
                idempotency_key=idempotency_key,
                created_by=by,
            )
            _write_ledger(deal, result, seated)
            _close_at_target(session)
            _review_after_commit(deal)
    except _Replayed as replayed:
        return Recorded(replayed.deal, created=False)
    session.last_deal_number = number
    return Recorded(deal, created=True)


class _Table(NamedTuple):
    seated: dict[str, int]  # player ids by seat name, in seat order
    pair_stakes: list[tuple[int, int, Decimal]]  # the group's (player a, player b, multiple)


def _table(session: Session) -> _Table:
    """The session's seats and its group's pair stakes, in one round trip: this runs for
    every deal recorded, so it is one plain query rather than two of the ORM's. Multipliers
    come as text, which both databases give exactly (SQLite keeps a decimal as a number)."""
    seats = connection.ops.quote_name(SessionSeat._meta.db_table)
    stakes = connection.ops.quote_name(PairStake._meta.db_table)
    query = (
        f"SELECT seat, name, player_id, NULL, NULL FROM {seats} WHERE session_id = %s"
        " UNION ALL SELECT NULL, NULL, player_a_id, player_b_id, CAST(multiplier AS TEXT)"
        f" FROM {stakes} WHERE group_id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [session.pk, session.group_id])
        rows = cursor.fetchall()
    seated = {
        name: player for seat, name, player, _, _ in sorted(r for r in rows if r[0] is not None)
    }
    pair_stakes = sorted((a, b, Decimal(m)) for seat, _, a, b, m in rows if seat is None)
    return _Table(seated, pair_stakes)


class _Replayed(Exception):
    """Rolls back the number taken for a deal whose idempotency key is already recorded."""

    def __init__(self, deal: Deal) -> None:
        super().__init__(deal)
        self.deal = deal


def _next_deal_number(session: Session) -> int | None:
    """Takes the session's next deal number, or None when the session is closed.

    One UPDATE both counts and locks the session row until the transaction ends, so
    concurrent entries queue here and each gets the number after the one committed before
    it; the unique (session, number) constraint is the backstop.
    """
    table = connection.ops.quote_name(Session._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET last_deal_number = last_deal_number + 1"
            " WHERE id = %s AND status = %s RETURNING last_deal_number",
            [session.pk, Session.Status.OPEN],
        )
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def edit_deal(
    deal: Deal, request_players: Sequence[Mapping[str, Any]], by: User, reason: str = ""
) -> Deal:
    """Rescore a deal with corrected input; the previous version is kept as a revision.

    The deal keeps its rules and stakes; an open-face player's ``in_fantasyland`` is kept
    from the previous version unless given.
    """
    require_member(by, deal.session.group)
    with transaction.atomic():
        session = _lock_open_session(deal.session)
        locked = _lock_active_deal(deal)
        seated = _seated(session)
        fantasy = {
            p["name"]: 1 for p in locked.request["players"] if p.get("in_fantasyland") is True
        }
        players = _checked_players(request_players, seated, fantasy)
        stakes = _restrict_stakes(locked.request.get("stakes"), players)
        request = {"players": players, "stakes": stakes}
        result = score_request({"rules": locked.rules, **request})
        _keep_revision(locked, DealRevision.Action.EDIT, reason, by)
        locked.request = request
        locked.result = result
        locked.tally = tally(result)
        locked.version += 1
        locked.review = None
        locked.save(update_fields=["request", "result", "tally", "version", "review", "updated_at"])
        locked.ledger.all().delete()
        locked.review_lines.all().delete()
        _write_ledger(locked, result, seated)
        _close_at_target(session)
        _review_after_commit(locked)
    return locked


def void_deal(deal: Deal, by: User, reason: str = "") -> Deal:
    """Owners only: the deal stays visible as void, and its ledger rows are deleted."""
    require_owner(by, deal.session.group)
    with transaction.atomic():
        _lock_open_session(deal.session)
        locked = _lock_active_deal(deal)
        _keep_revision(locked, DealRevision.Action.VOID, reason, by)
        locked.status = Deal.Status.VOID
        locked.version += 1
        locked.save(update_fields=["status", "version", "updated_at"])
        locked.ledger.all().delete()
    return locked


def _lock_active_deal(deal: Deal) -> Deal:
    locked = Deal.objects.select_for_update().get(pk=deal.pk)
    if not locked.is_active:
        raise DealNotActive(f"deal {locked.number} is void")
    return locked


def _keep_revision(deal: Deal, action: str, reason: str, by: User) -> None:
    DealRevision.objects.create(
        deal=deal,
        version=deal.version,
        request=deal.request,
        result=deal.result,
        action=action,
        reason=reason,
        changed_by=by,
    )


def _seated(session: Session) -> dict[str, int]:
    """The session's player ids by the name they sat down with, in seat order."""
    return dict(session.seats.order_by("seat").values_list("name", "player_id"))


def _checked_players(
    request_players: object, seated: Mapping[str, int], fantasy: Mapping[str, int]
) -> list[dict[str, Any]]:
    """The players list with names checked against the seats and fantasy land filled in.

    Entries the engine would reject (no name, not an object) are passed on untouched for
    it to report in its own words.
    """
    if not isinstance(request_players, list):
        raise ScoreError("players: a list of 2 to 4 players is required", "players")
    players: list[dict[str, Any]] = []
    for k, entry in enumerate(request_players):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            players.append(entry)
            continue
        name = entry["name"].strip()
        if name and name not in seated:
            raise ScoreError(
                f"{name} is not seated in this session (seated: {', '.join(seated)})",
                f"players[{k}].name",
            )
        player = {**entry, "name": name}
        if fantasy and "in_fantasyland" not in player:
            player["in_fantasyland"] = name in fantasy
        players.append(player)
    return players


def _stakes(
    unit_value: Decimal,
    pair_stakes: Iterable[tuple[int, int, Decimal]],
    players: Sequence[Mapping[str, Any]],
    seated: Mapping[str, int],
) -> dict[str, Any]:
    """The engine's ``stakes``: the unit value and the pair stakes among these players.

    ``pair_stakes`` are the group's (player a id, player b id, multiplier); pairs are named
    as the players are seated (``seated``).
    """
    at_deal = {
        seated[p["name"]]: p["name"]
        for p in players
        if isinstance(p, Mapping) and p.get("name") in seated
    }
    pairs = [
        {"players": [at_deal[a], at_deal[b]], "multiplier": decimal_text(multiplier)}
        for a, b, multiplier in pair_stakes
        if a in at_deal and b in at_deal
    ]
    return {"unit_value": decimal_text(unit_value), "pairs": pairs}


def _restrict_stakes(stakes: Any, players: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """A deal's stored stakes, without pairs that are no longer both at the deal."""
    if stakes is None:
        return None
    names = {p.get("name") for p in players if isinstance(p, Mapping)}
    pairs = [pair for pair in stakes.get("pairs", []) if set(pair["players"]) <= names]
    return {**stakes, "pairs": pairs}


def _write_ledger(deal: Deal, result: Mapping[str, Any], seated: Mapping[str, int]) -> None:
    LedgerEntry.objects.bulk_create(ledger_entries(deal, result, seated))


def ledger_entries(
    deal: Deal, result: Mapping[str, Any], seated: Mapping[str, int]
) -> list[LedgerEntry]:
    """The deal's ledger rows (unsaved), one per pair of the engine's ``result``;
    ``seated`` gives the player ids by seat name."""
    return [
        LedgerEntry(
            deal=deal,
            player_a_id=seated[pair["players"][0]],
            player_b_id=seated[pair["players"][1]],
            units=_ledger_amount(pair, "units"),
            money=_ledger_amount(pair, "money"),
        )
        for pair in result["pairs"]
    ]


_LEDGER_FIELD = LedgerEntry._meta.get_field("money")
_LEDGER_STEP = Decimal(1).scaleb(-_LEDGER_FIELD.decimal_places)
_LEDGER_LIMIT = Decimal(10) ** (_LEDGER_FIELD.max_digits - _LEDGER_FIELD.decimal_places)


def _ledger_amount(pair: Mapping[str, Any], key: str) -> Decimal:
    """A pair's units or money as the ledger keeps it; ScoreError when the ledger could not
    keep it exactly, so that balances (sums of ledger rows) always equal the engine's
    results. Only odd stakes get here, such as 0.0125 a unit on a 0.5-unit deal."""
    amount = Decimal(pair.get(key, "0"))
    # The size first: quantizing a huge amount would overflow the decimal context.
    if abs(amount) < _LEDGER_LIMIT and amount == amount.quantize(_LEDGER_STEP):
        return amount
    a, b = pair["players"]
    raise ScoreError(
        f"{a} and {b}: {key} {pair[key]} cannot be kept exactly (the ledger keeps"
        f" {_LEDGER_STEP} steps below {_LEDGER_LIMIT:,}); choose a unit value or pair stake"
        " with fewer decimal places",
        "stakes",
    )


def _review_after_commit(deal: Deal) -> None:
    """Queue the deal's review for when its transaction commits. With a broker it is sent
    once the response has gone out (``games.after_response``); run eagerly (no broker) it
    runs at the commit, so the next page already shows it. A broker that cannot be reached
    is logged, not raised: the deal is stored, and ``manage.py review_deals`` catches up."""
    from games.tasks import review_deal  # the tasks module imports this one

    deal_pk = deal.pk

    def queue() -> None:
        review_deal.delay(deal_pk)

    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(queue, robust=True)
    else:
        transaction.on_commit(lambda: after_response(queue), robust=True)


def store_review(deal_pk: int) -> dict[str, Any] | None:
    """Review the deal's current version with the engine and store it with its review lines.

    Returns the review, or None when the deal is gone or was edited meanwhile (the task
    queued by the edit reviews the new version).
    """
    deal = Deal.objects.filter(pk=deal_pk).select_related("session").first()
    if deal is None:
        return None
    review = {**review_request({"rules": deal.rules, **deal.request}), "version": deal.version}
    seated = _seated(deal.session)
    with transaction.atomic():
        if not Deal.objects.filter(pk=deal_pk, version=deal.version).update(review=review):
            return None
        ReviewLine.objects.filter(deal_id=deal_pk).delete()
        ReviewLine.objects.bulk_create(
            ReviewLine(
                deal_id=deal_pk,
                player_id=seated[player["name"]],
                units_missed=Decimal(player["units_missed"]),
            )
            for player in review["players"]
            if player["reviewed"]
        )
    return review


def _close_at_target(session: Session) -> None:
    """Big Two: the session ends once a player's loss reaches the target score."""
    if (
        session.game == Session.Game.BIG_TWO
        and session.target_score is not None
        and target_reached(session)
    ):
        _close(session, None)


# --- reading the ledger ------------------------------------------------------------------


def _ledger(session: Session) -> QuerySet[LedgerEntry]:
    return LedgerEntry.objects.filter(deal__session=session)


def _seat_names(session: Session) -> dict[int, str]:
    """Player id -> the name the player sat down with, in seat order."""
    return dict(session.seats.order_by("seat").values_list("player_id", "name"))


def balances(session: Session) -> dict[str, Amounts]:
    """Each seated player's units and money over the session's active deals (seat order)."""
    name_of = _seat_names(session)
    totals = dict.fromkeys(name_of.values(), Amounts(ZERO, ZERO))
    for side, sign in (("player_a_id", 1), ("player_b_id", -1)):
        rows = _ledger(session).values(side).annotate(u=Sum("units"), m=Sum("money"))
        for row in rows:
            name = name_of[row[side]]
            units, money = totals[name]
            totals[name] = Amounts(units + sign * row["u"], money + sign * row["m"])
    return totals


def pair_matrix(session: Session) -> dict[str, dict[str, Amounts]]:
    """``matrix[x][y]``: what x won from y over the session; ``matrix[y][x]`` is its negative."""
    name_of = _seat_names(session)
    names = list(name_of.values())
    matrix = {x: {y: Amounts(ZERO, ZERO) for y in names if y != x} for x in names}
    rows = (
        _ledger(session)
        .values("player_a_id", "player_b_id")
        .annotate(u=Sum("units"), m=Sum("money"))
    )
    for row in rows:
        a, b = name_of[row["player_a_id"]], name_of[row["player_b_id"]]
        units, money = matrix[a][b]
        matrix[a][b] = Amounts(units + row["u"], money + row["m"])
        matrix[b][a] = Amounts(-matrix[a][b].units, -matrix[a][b].money)
    return matrix


def running_totals(session: Session) -> list[RunningTotal]:
    """Everyone's totals after each active deal, in deal order."""
    name_of = _seat_names(session)
    totals = dict.fromkeys(name_of.values(), Amounts(ZERO, ZERO))
    out: list[RunningTotal] = []
    rows = (
        _ledger(session)
        .order_by("deal__number")
        .values_list("deal__number", "player_a_id", "player_b_id", "units", "money")
    )
    for number, a_id, b_id, units, money in rows:
        a, b = name_of[a_id], name_of[b_id]
        if not out or out[-1].number != number:
            totals = dict(totals)
            out.append(RunningTotal(number, totals))
        totals[a] = Amounts(totals[a].units + units, totals[a].money + money)
        totals[b] = Amounts(totals[b].units - units, totals[b].money - money)
    return out


def settlement(session: Session, *, pair_by_pair: bool = False) -> list[Transfer]:
    """Who pays whom (payer, payee, money): the fewest transfers, or one per pair."""
    if pair_by_pair:
        matrix = pair_matrix(session)
        names = list(matrix)
        return pair_settlement(
            {(a, b): matrix[a][b].money for i, a in enumerate(names) for b in names[i + 1 :]}
        )
    return fewest_transfers({name: b.money for name, b in balances(session).items()})


def fantasyland(session: Session, seated: Iterable[str] | None = None) -> dict[str, int]:
    """Open-face: who plays their next deal in fantasy land, and with how many cards.

    Read from each seated player's latest active deal (a player who sat a deal out keeps
    what their last deal earned). ``seated``: the seated names, when already known.
    """
    pending = set(_seated(session) if seated is None else seated)
    out: dict[str, int] = {}
    deals = session.deals.filter(status=Deal.Status.ACTIVE).order_by("-number")
    for result in deals.values_list("result", flat=True).iterator():
        for player in result["players"]:
            name = player["name"]
            if name in pending:
                pending.discard(name)
                if player.get("fantasyland_next"):
                    out[name] = player["fantasyland_next"]
        if not pending:
            break
    return out


def target_reached(session: Session) -> list[str]:
    """Big Two: the players whose loss has reached the session's target score."""
    totals = {name: amounts.units for name, amounts in balances(session).items()}
    return engine_target_reached(totals, Rules.from_mapping(session.rules))


def _amount(value: Decimal | int | str, field: str) -> Decimal:
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        raise ServiceError(f"{field}: expected a number, got {value!r}", field) from None
    if not number.is_finite() or number < 0:
        raise ServiceError(f"{field}: expected a number of at least 0, got {value!r}", field)
    exponent = number.normalize().as_tuple().exponent
    if isinstance(exponent, int) and exponent < -4:
        raise ServiceError(f"{field}: at most 4 decimal places, got {value!r}", field)
    return number
