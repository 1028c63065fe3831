"""The live table: a deal entered seat by seat, each from its own phone, and recorded once.

Who writes is an ``Actor``: a member (a user of the session's group) or the holder of a
seat link (``games.live.seat_links``, no account). A seat holder writes only its own
seat, and not once the host took it over; a member writes any seat ("host"), or their
own seat as its player.

A seat link's holder writes only from the phone that holds the seat (``Seat.own``, the
first phone to open the link): a member shown every link cannot read or change another
seat's hand through it.

Every write locks the session row first (closing a session does the same, ``live_close``),
reading the deal in progress, its entries and its seats in the same statement
(``games.live.rows``), so the writes of one deal queue: the check that
no card is in two submitted hands and the check that every seat has now submitted read
what the previous write committed, and the deal is recorded by exactly one submit, in
its transaction, with the idempotency key ``live-<id>`` as a backstop. Drafts are never
compared with each other: a clash is found between submitted hands only, and both seats
are told, so that typing guessed cards reveals nothing of another seat.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import ScoreError
from games.engine.messages import english
from games.errors import NoSuchObject, ServiceError
from games.live import rows as live_rows
from games.live import said, seat_links
from games.live.cards import CARD_FIELDS, submitted_clashes
from games.live.push import announce, nudged
from games.live.rows import TableRows
from games.live.seat_links import Seat
from games.models import LiveDeal, LiveEntry, Session
from games.permissions import NotAllowed, remember_role, require_member
from games.services.deals import record_or_replay
from games.words.refusals import cards_hidden

# The player an engine error names, by the index of its entry (``players[2].front``).
_PLAYER = re.compile(r"^players\[(\d+)\]")

ENTRY_KEYS = frozenset(
    {*CARD_FIELDS, "surrender", "natural", "fouled", "sat_out", "in_fantasyland", "cards_left"}
)
ENTRY_SIZE = 2000  # characters of JSON: 13 cards in any notation fit many times over


class LiveConflict(ServiceError):
    """A write the deal in progress refuses as it stands (HTTP 409); ``code`` says which."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message, None)
        self.code = code


@dataclass(frozen=True)
class Actor:
    """Who writes: a member's ``user``, or a seat link's ``seat`` (then no user)."""

    user: User | None = None
    seat: Seat | None = None


def _read_locked(session: Session, actor: Actor | None = None, **wanted: Any) -> TableRows:
    """The live table's rows with the session row locked (``games.live.rows.read``); the
    presence of the actor's phone, when still to be written, written with the lock."""
    seat = None if actor is None else actor.seat
    moment = seat_links.take_owed(seat)
    heard = None if seat is None or moment is None else (seat.link.pk, moment)
    rows = live_rows.read(session, lock=True, heard=heard, **wanted)
    if seat is not None and moment is not None:
        seat_links.written(seat, moment)
        transaction.on_commit(seat.owed.clear)  # (rolled back: the view settles it)
    if rows is None:
        raise Session.DoesNotExist(f"session {session.pk} is gone")
    return rows


def _open_deal(rows: TableRows, *, need_open_deal: bool = True) -> LiveDeal | None:
    """The open deal in progress (None when there is none and none is needed); a
    LiveConflict when the session is closed or the deal is needed but none is open."""
    live = rows.live if rows.live is not None and rows.live.is_open else None
    if rows.status != Session.Status.OPEN:
        raise LiveConflict(_("the session is closed: no more deals"), "session_closed")
    if need_open_deal and live is None:
        raise LiveConflict(_("there is no deal in progress"), "no_deal")
    return live


def _locked(
    session: Session, actor: Actor | None = None, *, need_open_deal: bool = True
) -> tuple[TableRows, LiveDeal | None]:
    rows = _read_locked(session, actor)
    return rows, _open_deal(rows, need_open_deal=need_open_deal)


def _check_actor(session: Session, actor: Actor) -> None:
    if actor.seat is not None:
        if actor.seat.session.pk != session.pk:
            raise NotAllowed("this seat link is for another session")
        if not actor.seat.own:
            raise LiveConflict(
                _("%(name)s's seat is open on another phone: the host can free it for this one")
                % {"name": actor.seat.name},
                "seat_elsewhere",
            )
        return
    require_member(actor.user, session.group)


def open_live(session: Session, actor: Actor) -> tuple[LiveDeal, bool]:
    """The session's deal in progress, opened now unless one is open (created: False)."""
    _check_actor(session, actor)
    with transaction.atomic():
        rows = _read_locked(session, actor, user_id=_user_id(actor))
        live = _open_deal(rows, need_open_deal=False)
        if live is not None:
            live_rows.keep(rows)
            return live, False
        try:
            with transaction.atomic(savepoint=not _serialized()):
                live = LiveDeal.objects.create(session=session, opened_by=actor.user)
        except IntegrityError:  # opened meanwhile (a database without row locks)
            return LiveDeal.objects.get(session=session, status="open"), False
        entries = LiveEntry.objects.bulk_create(
            LiveEntry(live_deal=live, player_id=player) for player, *_rest in rows.seated
        )
        rows.live, rows.entries = live, {entry.player_id: entry for entry in entries}
        announce(session.pk, "live")
        live_rows.keep(rows)
    return live, True


def _serialized() -> bool:
    """Whether two writes of one session cannot both get past ``_read_locked`` at once:
    the database locks the session's row, or (SQLite) every write transaction begins by
    taking the database's write lock. Only otherwise can two opens clash, and the loser
    needs a savepoint to go on."""
    immediate = connection.settings_dict.get("OPTIONS", {}).get("transaction_mode")
    return bool(connection.features.has_select_for_update) or immediate == "IMMEDIATE"


def _user_id(actor: Actor) -> int | None:
    return None if actor.user is None else int(actor.user.pk)


def _seat_of(rows: TableRows, seat: int) -> tuple[int, str]:
    """The player and the name at ``seat``; NoSuchObject (404) when there is no such seat."""
    for player_id, number, name, _user in rows.seated:
        if number == seat:
            return player_id, name
    raise NoSuchObject(_("seat %(seat)s: no such seat at this session") % {"seat": seat}, "seat")


def _seat_entry(rows: TableRows, live: LiveDeal, seat: int, actor: Actor) -> tuple[LiveEntry, str]:
    """The seat's entry (the session locked) once ``actor`` may write it; with the name
    of the seat."""
    player_id, name = _seat_of(rows, seat)
    if actor.seat is not None and actor.seat.seat != seat:
        raise NotAllowed(_("this seat link is for %(name)s's seat") % {"name": actor.seat.name})
    entry = rows.entries.get(player_id)
    if entry is None:
        entry = LiveEntry.objects.create(live_deal=live, player_id=player_id)
        rows.entries[player_id] = entry
    if actor.seat is not None and entry.taken_over:
        raise LiveConflict(_("the host took over %(name)s's seat") % {"name": name}, "taken_over")
    return entry, name


def _by(rows: TableRows, entry: LiveEntry, actor: Actor) -> str:
    if actor.seat is not None:
        return LiveEntry.By.PHONE
    users = {player: user for player, _seat, _name, user in rows.seated}
    own = actor.user is not None and users.get(entry.player_id) == actor.user.pk
    return LiveEntry.By.PHONE if own and not entry.taken_over else LiveEntry.By.HOST


def checked_entry(entry: object, *, complete: bool) -> dict[str, Any] | None:
    """An entry as it is stored: an object of the deal format's player keys without
    ``name``; ScoreError (HTTP 400) otherwise. ``complete``: it is being submitted."""
    if entry is None and not complete:
        return None
    if not isinstance(entry, Mapping):
        raise ScoreError(_("entry: an object with the rows or the cards is required"), "entry")
    unknown = sorted(set(entry) - ENTRY_KEYS)
    if unknown:
        raise ScoreError(
            _("entry: unknown keys %(keys)s") % {"keys": ", ".join(map(str, unknown))}, "entry"
        )
    if len(repr(entry)) > ENTRY_SIZE:
        raise ScoreError(_("entry: too long"), "entry")
    if complete and not entry:
        raise ScoreError(_("entry: an empty hand cannot be submitted"), "entry")
    return dict(entry)


def _bump(live: LiveDeal, message: str = "", code: dict[str, Any] | None = None) -> None:
    live.version += 1
    live.message, live.message_code = message, code
    live.save(update_fields=["version", "message", "message_code"])
    announce(live.session_id, "live")


def save_draft(session: Session, seat: int, entry: object, actor: Actor) -> LiveDeal:
    """Keep a seat's entry as typed so far (an unsubmitted one; a submitted one must be
    withdrawn first)."""
    _check_actor(session, actor)
    stored = checked_entry(entry, complete=False)
    with transaction.atomic():
        rows, live = _locked(session, actor)
        assert live is not None
        row, name = _seat_entry(rows, live, seat, actor)
        if row.submitted_at is not None:
            raise _already(name)
        row.entry, row.by = stored, _by(rows, row, actor)
        row.save(update_fields=["entry", "by", "updated_at"])
        _bump(live)
        live_rows.keep(rows)
    return live


def _already(name: str) -> LiveConflict:
    return LiveConflict(
        _("%(name)s has already submitted this hand") % {"name": name}, "already_submitted"
    )


def submit(session: Session, seat: int, entry: object, actor: Actor, key: str = "") -> LiveDeal:
    """Submit a seat's entry; the last one records the deal (``live.deal``).

    ``key`` (the request's Idempotency-Key): a submit sent again with the key of the
    seat's last submit changes nothing and answers the deal it went to, even once that
    deal is recorded. A hand sharing a card with another submitted hand is kept as
    submitted: both seats are told, and nothing is recorded until one of them changes."""
    _check_actor(session, actor)
    stored = checked_entry(entry, complete=True)
    refusal: ScoreError | None = None
    # A seat link replays only its own seat's submits.
    replays = bool(key) and (actor.seat is None or actor.seat.seat == seat)
    with transaction.atomic():
        rows = _read_locked(
            session,
            actor,
            key=key if replays else "",
            seat=seat if replays else None,
            user_id=_user_id(actor),
            for_deal=True,
        )
        if rows.replayed is not None:
            live_rows.keep(rows)
            if rows.live is not None and rows.live.pk == rows.replayed:
                return rows.live
            return LiveDeal.objects.get(pk=rows.replayed)
        live = _open_deal(rows)
        assert live is not None
        row, name = _seat_entry(rows, live, seat, actor)
        if row.submitted_at is not None:
            raise _already(name)
        row.entry, row.by = stored, _by(rows, row, actor)
        row.submitted_at, row.submit_key = timezone.now(), key
        message, code = "", None
        clashing = any(submitted_clashes(rows.entries.values()).values())
        if not clashing and all(e.submitted_at is not None for e in rows.entries.values()):
            refusal, named = _record(session, rows, live)
            if refusal is not None:
                message, code = _refusal_kept(refusal, named)
                _unsubmit(rows, row if named is None else rows.entries[named], row)
        row.save(update_fields=["entry", "by", "submitted_at", "submit_key", "updated_at"])
        if live.is_open:
            _bump(live, message, code)
        live_rows.keep(rows)
    if refusal is not None:
        raise _told(refusal, named, row.player_id)
    return live


def _refusal_kept(refusal: ScoreError, named: int | None) -> tuple[str, dict[str, Any] | None]:
    """The refusal as the deal in progress keeps it: words anyone may read, and the code."""
    if refusal.code is None:
        return refusal.message, None
    return said.kept_words(refusal.code), said.kept(refusal.code, named)


def _unsubmit(rows: TableRows, refused: LiveEntry, submitting: LiveEntry) -> None:
    """The seat whose hand was refused fixes it and submits again (the one submitting is
    saved by the caller)."""
    refused.submitted_at = None
    if refused is not submitting:
        refused.save(update_fields=["submitted_at", "updated_at"])


def _told(refusal: ScoreError, named: int | None, submitter: int) -> ScoreError:
    """The refusal as the submitting seat is told it: whole when it names that seat's own
    hand, else with the named hand's cards hidden."""
    if refusal.code is None or named in (None, submitter):
        return refusal
    hidden = cards_hidden(refusal.code)
    return ScoreError(english(hidden), refusal.field, hidden)


def _record(
    session: Session, rows: TableRows, live: LiveDeal
) -> tuple[ScoreError | None, int | None]:
    """Record the deal of a deal in progress whose seats have all submitted; the engine's
    refusal, with nothing recorded, when it refuses the entries, and the player whose
    hand it names (None when it names none)."""
    entries = rows.entries
    order = [p for p in rows.names() if p in entries]
    players = [{**(entries[p].entry or {}), "name": rows.names()[p]} for p in order]
    try:
        recorded = record_or_replay(
            session,
            players,
            by=_recorder(session, rows),
            idempotency_key=f"live-{live.pk}",
            # The session is locked and this deal in progress open: its key, its own,
            # has recorded nothing (recording it closes the deal in this transaction).
            savepoint=False,
            new_key=True,
        )
    except ScoreError as refused:
        index = _PLAYER.match(refused.field or "")
        named = int(index.group(1)) if index is not None else None
        return refused, order[named] if named is not None and named < len(order) else None
    deal = recorded.deal
    live.status, live.deal, live.message = LiveDeal.Status.RECORDED, deal, ""
    live.message_code = None
    live.version += 1
    # (A target score reached by this deal closes the session, which cancels the open deal
    # in progress: this one, which is recorded instead.)
    live.save(update_fields=["status", "deal", "message", "message_code", "version"])
    announce(session.pk, "live")
    rows.status = session.status
    if recorded.created:  # the rows as they now stand (``games.live.rows``: the mark)
        rows.deals += 1
        rows.last_deal = max(rows.last_deal or 0, deal.number)
        rows.mark += 1 + deal.version
    return None, None


def _recorder(session: Session, rows: TableRows) -> User:
    """Who the recorded deal is by: whoever opened the deal in progress while still a
    member, else the group's first owner (a seat link has no account)."""
    if rows.recorder is None:
        raise ServiceError(_("the group has no owner to record the deal"))
    user_id, role = rows.recorder
    user = User(pk=user_id)
    remember_role(session.group, user, role)  # read with the rows: no query of its own
    return user


def withdraw(session: Session, seat: int, actor: Actor) -> LiveDeal:
    """Take a submitted entry back to a draft (to fix a conflict); a draft stays one."""
    _check_actor(session, actor)
    with transaction.atomic():
        rows, live = _locked(session, actor)
        assert live is not None
        row, _name = _seat_entry(rows, live, seat, actor)
        row.submitted_at = None
        row.save(update_fields=["submitted_at", "updated_at"])
        _bump(live)
        live_rows.keep(rows)
    return live


def take_over(session: Session, seat: int, by: User) -> LiveDeal:
    """A member takes a seat that went quiet: its link may no longer write this deal."""
    require_member(by, session.group)
    with transaction.atomic():
        rows, live = _locked(session)
        assert live is not None
        row, _name = _seat_entry(rows, live, seat, Actor(user=by))
        row.taken_over, row.by = True, LiveEntry.By.HOST
        row.save(update_fields=["taken_over", "by", "updated_at"])
        _bump(live)
        live_rows.keep(rows)
    return live


def taken_entry(session: Session, seat: int) -> Any:
    """The entry of a seat the host has taken over, for the host to go on with."""
    player = session.seats.filter(seat=seat).values_list("player_id", flat=True).first()
    if player is None:
        return None
    found = LiveEntry.objects.filter(
        live_deal__session=session,
        live_deal__status=LiveDeal.Status.OPEN,
        player_id=player,
        taken_over=True,
    )
    return found.values_list("entry", flat=True).first()


def release(session: Session, seat: int, by: User) -> None:
    """A member frees a seat held by a phone, so that the next phone to open its link
    holds it (a player who changed phones, or one who opened the wrong seat)."""
    require_member(by, session.group)
    with transaction.atomic():
        rows, _live = _locked(session, need_open_deal=False)
        seat_links.release(session, _seat_of(rows, seat)[0])
        announce(session.pk, "live")


def nudge(session: Session, seat: int, by: User) -> None:
    """A member asks a seat's phone to finish its hand: the phone shows it at once."""
    require_member(by, session.group)
    with transaction.atomic():
        rows, _live = _locked(session)
        _seat_of(rows, seat)
        nudged(session.pk, seat)


def cancel(session: Session, by: User) -> LiveDeal:
    """A member cancels the deal in progress: nothing is recorded."""
    require_member(by, session.group)
    with transaction.atomic():
        rows, live = _locked(session)
        assert live is not None
        live.status = LiveDeal.Status.CANCELLED
        live.message = said.kept_words(said.CANCELLED)
        live.message_code = said.kept(said.CANCELLED)
        live.version += 1
        live.save(update_fields=["status", "message", "message_code", "version"])
        announce(session.pk, "live")
        live_rows.keep(rows)
    return live
