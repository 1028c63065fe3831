"""Sessions: a night at the table, from its seats and rules to its close.

Also what a session's next deal depends on: who plays in fantasy land (open-face) and
whether a player's loss has reached the target score (Big Two).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import Rules
from games.engine.bigtwo import target_reached as engine_target_reached
from games.engine.bigtwo import target_reason as engine_target_reason
from games.engine.games import GAMES, descriptor_for
from games.errors import HasHistory, ServiceError, SessionClosed, SessionOpen
from games.live.close import cancel_open_live
from games.live.push import announce
from games.live.seat_links import make_links
from games.models import Deal, Group, Player, RuleSet, Session, SessionEvent, SessionSeat
from games.permissions import require_member, require_owner
from games.reports.ledger import balances
from games.services import texts
from games.services.names import clean as clean_name
from games.services.reasons import checked_reason

PLACE_LENGTH = Session._meta.get_field("place").max_length or 100


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
    place = clean_name(place, "place", max_length=PLACE_LENGTH, required=False)
    notes = texts.clean(notes, "notes", multiline=True)
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
        # Rules set for the night are bounded; the group's own, as stored, are not re-judged.
        rules = Rules.from_mapping(spec, limits=spec != rule_set.spec)
        if game is not None and rules.game != game:
            raise ServiceError(f"game: {game!r} does not match the rules ({rules.game})", "game")
        played = descriptor_for(rules)
        most = played.seats(rules)[1]
        if len(players) > most:
            called = played.display_name if rules.criss_cross else rules.preset
            raise ServiceError(
                f"players: the {called} rules allow at most {most} players, got {len(players)}",
                "players",
            )
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
        retired = sorted(seated.filter(retired_at__isnull=False).values_list("name", flat=True))
        if retired:
            raise ServiceError(
                _("players: %(names)s retired: bring them back on the group page first")
                % {"names": ", ".join(retired)},
                "players",
            )
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, player=player, seat=k, name=names[player.pk])
            for k, player in enumerate(players, start=1)
        )
        make_links(session)  # one per seat, for the live table
    return session


def _session_spec(
    rule_set: RuleSet,
    game: str | None,
    override: str | Mapping[str, Any] | None,
    target_score: Decimal | int | str | None,
) -> str | Mapping[str, Any]:
    spec: str | Mapping[str, Any] = rule_set.spec
    if override is None and game is not None and rule_set.rules.get("game", "chinese") != game:
        # A game the group's own rules are not for plays that game's default preset.
        if game not in GAMES:
            raise ServiceError(f"game: {game!r} is not one of {', '.join(GAMES)}", "game")
        spec = GAMES[game].default_spec
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
    if place is not None:
        place = clean_name(place, "place", max_length=PLACE_LENGTH, required=False)
    if notes is not None:
        notes = texts.clean(notes, "notes", multiline=True)
    changes: dict[str, Any] = {"date": date, "place": place, "notes": notes}
    changes = {field: value for field, value in changes.items() if value is not None}
    with transaction.atomic():
        require_member(by, session.group)
        locked = lock_open_session(session)
        for field, value in changes.items():
            setattr(locked, field, value)
        if changes:
            locked.save(update_fields=list(changes))
    return locked


def close_session(session: Session, by: User) -> Session:
    """Close the night: from now on its deals are read-only."""
    with transaction.atomic():
        require_member(by, session.group)
        locked = lock_open_session(session)
        _close(locked, by)
    return locked


def reopen_session(session: Session, by: User, reason: str = "") -> Session:
    """Owners only: a closed session takes deals again (its documents go stale, as the
    status they show has changed); the reopen is kept in the session's history."""
    require_owner(by, session.group)
    reason = checked_reason(reason)
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if locked.is_open:
            raise SessionOpen(f"session {locked.pk} is open: there is nothing to reopen")
        locked.status = Session.Status.OPEN
        locked.closed_by = None
        locked.closed_at = None
        locked.save(update_fields=["status", "closed_by", "closed_at"])
        SessionEvent.objects.create(
            session=locked, action=SessionEvent.Action.REOPEN, by=by, reason=reason
        )
        announce(locked.pk)
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
    SessionEvent.objects.create(session=session, action=SessionEvent.Action.CLOSE, by=by)
    cancel_open_live(session)
    announce(session.pk)


def lock_open_session(session: Session) -> Session:
    locked = Session.objects.select_for_update().get(pk=session.pk)
    if not locked.is_open:
        raise SessionClosed(f"session {locked.pk} is closed: its deals are read-only")
    return locked


def close_at_target(session: Session) -> str | None:
    """A game with a target score (Big Two): the session ends once a player's loss
    reaches it. Returns why it has just closed ("Di lost 33, the target is 30"), or None."""
    reason = target_closure(session)
    if reason is not None:
        _close(session, None)
    return reason


def closed_at_target(session: Session) -> str | None:
    """Why the session was closed by its target score ("Di lost 33, the target is 30"),
    read afresh; None while it is open or when someone closed it (or the game has no
    target score, without a query)."""
    if "target_score" not in GAMES[session.game].options or session.target_score is None:
        return None
    closed = Session.objects.filter(
        pk=session.pk, status=Session.Status.CLOSED, closed_by__isnull=True
    ).exists()
    return target_closure(session) if closed else None


def target_closure(session: Session) -> str | None:
    """Why the session's target score ends it ("Di lost 33, the target is 30"), or None
    while no loss has reached it (or the game has no target)."""
    if "target_score" not in GAMES[session.game].options or session.target_score is None:
        return None
    totals = {name: amounts.units for name, amounts in balances(session).items()}
    return engine_target_reason(totals, Rules.from_mapping(session.rules))


def fantasyland(session: Session, seated: Iterable[str] | None = None) -> dict[str, int]:
    """Open-face: who plays their next deal in fantasy land, and with how many cards.

    Read from each seated player's latest active deal (a player who sat a deal out keeps
    what their last deal earned). ``seated``: the seated names, when already known.
    """
    pending = set(session.seated() if seated is None else seated)
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
