"""Deals: recording one (once, whatever the retries), correcting it, voiding it.

A deal is scored by the engine under the rules stored on its session; a ``ScoreError``
propagates unchanged with nothing stored. Its ledger rows (one per pair) are written in the
same transaction, and its review is queued for when that transaction commits. A void deal
has no ledger rows; it keeps its last result and a ``DealRevision``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import connection, transaction

from games import stakes as stored_stakes
from games.engine import ScoreError
from games.engine.games import GAMES
from games.engine.tally import tally
from games.errors import (
    DealNotActive,
    DealNotVoid,
    IdempotencyConflict,
    ServiceError,
    SessionClosed,
)
from games.live.push import announce
from games.models import Deal, DealRevision, LedgerEntry, Session
from games.permissions import require_member, require_owner
from games.services.deal_players import check_shape, checked_players
from games.services.deal_reads import DealTable, deal_table, ledger_amount
from games.services.dealers import deal_dealer, dealer_name, dealer_seat, seat_numbers
from games.services.reasons import checked_reason
from games.services.reviews import review_after_commit
from games.services.sessions import close_at_target, fantasyland, lock_open_session
from games.sitting_out import playing, score_playing

KEY_FIELD = "Idempotency-Key"
KEY_LENGTH = Deal._meta.get_field("idempotency_key").max_length or 100


def record_deal(
    session: Session,
    request_players: Sequence[Mapping[str, Any]],
    by: User,
    idempotency_key: str | None = None,
    dealer: str | None = None,
) -> Deal:
    """Score one deal under the session's rules and store it with its ledger rows.

    ``request_players`` is the request's ``players`` list: every seated player once, either
    with their hand or as ``{"name": ..., "sat_out": true}`` (kept in the stored request,
    never scored); at least two must play. Open-face deals get ``in_fantasyland`` from the
    players' previous deals unless it is given. A key already used in this session with
    the same players (``fingerprint``) returns that deal unchanged (a retried request); with
    other players it raises ``IdempotencyConflict``. The session row is locked while the
    next number is taken, so concurrent entries queue; the unique (session, number)
    constraint is the backstop. ``dealer`` names the seated player who dealt; by default
    the button moves on from the previous deal (``games.services.dealers``).
    """
    return record_or_replay(session, request_players, by, idempotency_key, dealer).deal


def fingerprint(players: object) -> str:
    """The SHA-256 (hex) of the players list as the client sent it, written as canonical
    JSON (keys sorted, no spaces), so the same deal gives the same fingerprint however its
    keys are ordered, and any other deal (or any other text at all) another."""
    text = json.dumps(players, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Recorded(NamedTuple):
    deal: Deal
    created: bool  # False: the idempotency key had already recorded this deal


def record_or_replay(
    session: Session,
    request_players: Sequence[Mapping[str, Any]],
    by: User,
    idempotency_key: str | None = None,
    dealer: str | None = None,
    *,
    savepoint: bool = True,
    new_key: bool = False,
) -> Recorded:
    """``record_deal``, also telling whether this call recorded the deal or replayed it.

    ``savepoint=False``: the caller's transaction holds the session row locked, and a deal
    scored before any write is then stored without a savepoint of its own (two statements
    fewer); its key is looked up before the number is taken, which the lock makes the
    same. A deal refused, or scored only once the session is locked (fantasy land), keeps
    its savepoint, so that the caller's transaction goes on after a refusal. ``new_key``
    (with ``savepoint=False``): the caller knows that its key has recorded nothing (a
    key made for this one deal, checked under the same lock), so it is not looked up;
    the unique key stays the backstop."""
    require_member(by, session.group)
    check_shape(request_players)
    sent = None if idempotency_key is None else _checked_key(idempotency_key, request_players)
    # A session's game, rules and seats never change once it starts, and a stake applies
    # from whenever it is set: all are read before the session is locked, to hold the lock
    # as briefly as possible. So is the previous deal's dealer: two deals entered at the
    # same moment may be given the same default dealer (which an edit corrects).
    table = deal_table(session)
    dealt_by = deal_dealer(table, request_players, dealer, session)
    # A deal that needs nothing of the earlier deals (no fantasy land) is also scored before
    # the lock; a refusal waits until the key and the session have been checked, so that a
    # retry is still replayed and a closed session still said to be closed first.
    early: Prepared | ScoreError | None = None
    if not GAMES[session.game].has_fantasyland:
        try:
            early = _prepare(session, table, request_players, {})
        except ScoreError as refused:
            early = refused
    apart = savepoint or not isinstance(early, Prepared)
    try:
        with transaction.atomic(savepoint=apart):
            if not apart and idempotency_key is not None and not new_key:
                existing = session.deals.filter(idempotency_key=idempotency_key).first()
                if existing is not None:
                    return Recorded(_replayed(existing, sent), created=False)
            number = _next_deal_number(session)
            if apart and idempotency_key is not None:
                existing = session.deals.filter(idempotency_key=idempotency_key).first()
                if existing is not None:
                    raise _Replayed(_replayed(existing, sent))
            if number is None:
                raise SessionClosed(f"session {session.pk} is closed: no more deals")
            if isinstance(early, ScoreError):
                raise early
            prepared = early or _prepare(session, table, request_players, _fantasy(session, table))
            deal = Deal.objects.create(
                session=session,
                number=number,
                request=prepared.request,
                rules=session.rules,
                result=prepared.result,
                tally=prepared.tally,
                idempotency_key=idempotency_key,
                idempotency_fingerprint=sent,
                dealer=dealt_by,
                created_by=by,
            )
            for entry in prepared.ledger:
                entry.deal = deal
            LedgerEntry.objects.bulk_create(prepared.ledger)
            close_at_target(session)
            review_after_commit(deal)
            announce(session.pk)
    except _Replayed as replayed:
        return Recorded(replayed.deal, created=False)
    session.last_deal_number = number
    deal.__dict__["dealer_name"] = dealer_name(dealt_by, table.seats)
    return Recorded(deal, created=True)


class Prepared(NamedTuple):
    """A deal ready to be stored: everything it needs worked out once, before the write."""

    request: dict[str, Any]  # the players as stored and the stakes among them
    result: dict[str, Any]  # the engine's
    tally: Any  # its tally
    ledger: list[LedgerEntry]  # one row per pair, unsaved, their deal still to be set


def _prepare(
    session: Session,
    table: DealTable,
    request_players: Sequence[Mapping[str, Any]],
    fantasy: Mapping[str, int],
) -> Prepared:
    """The deal scored under the session's rules with its ledger rows; ScoreError when
    the engine refuses it or the ledger could not keep an amount exactly."""
    players = checked_players(request_players, table.seated, fantasy)
    stakes = _stakes(
        session.group.unit_value, table.pair_stakes, playing(players).players, table.seated
    )
    request = {"players": players, "stakes": stakes}
    result = score_playing({"rules": session.rules, **request})
    return Prepared(
        request, result, tally(result, request), ledger_entries(Deal(), result, table.seated)
    )


def _fantasy(session: Session, table: DealTable) -> dict[str, int]:
    """Who plays this deal from fantasy land (open-face), from the earlier deals: read
    while the session is locked, so that the deal committed just before counts."""
    fantasy = fantasyland(session, table.seated)
    if not session.rules.get("progressive"):  # the number dealt is always the same
        fantasy = dict.fromkeys(fantasy, True)
    return fantasy


def _checked_key(key: str, request_players: object) -> str:
    """The fingerprint of a request sent with ``key``, once the key is one that can be
    stored (ServiceError on ``Idempotency-Key`` otherwise)."""
    if len(key) > KEY_LENGTH:
        raise ServiceError(f"{KEY_FIELD}: at most {KEY_LENGTH} characters", KEY_FIELD)
    if "\x00" in key:
        raise ServiceError(f"{KEY_FIELD}: no NUL characters", KEY_FIELD)
    return fingerprint(request_players)


def _replayed(existing: Deal, sent: str | None) -> Deal:
    """The deal a retried request gets back, or IdempotencyConflict when the key recorded
    other players. A deal stored before fingerprints (null) matches any retry."""
    stored = existing.idempotency_fingerprint
    if stored is None or stored == sent:
        return existing
    raise IdempotencyConflict(
        f"{KEY_FIELD} {existing.idempotency_key!r} already recorded deal {existing.number}"
        " of this session with other players or cards; a new deal needs a new key",
        KEY_FIELD,
        existing.number,
    )


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
    deal: Deal,
    request_players: Sequence[Mapping[str, Any]],
    by: User,
    reason: str = "",
    dealer: str | None = None,
) -> Deal:
    """Rescore a deal with corrected input; the previous version is kept as a revision.

    The deal keeps its rules and stakes; an open-face player's ``in_fantasyland`` is kept
    from the previous version unless given. Every seated player is in the corrected deal
    or sits it out, as when it was recorded; its idempotency key and fingerprint stay.
    ``dealer`` (a seated name) changes who dealt it; None keeps the dealer.
    """
    require_member(by, deal.session.group)
    reason = checked_reason(reason)
    with transaction.atomic():
        session = lock_open_session(deal.session)
        locked = _lock_active_deal(deal)
        seated = session.seated()
        fantasy = {
            p["name"]: p["in_fantasyland"]
            for p in locked.request["players"]
            if p.get("in_fantasyland") not in (None, False)
        }
        players = checked_players(request_players, seated, fantasy)
        played = playing(players).players
        names = (p["name"] for p in played if isinstance(p, Mapping) and "name" in p)
        stakes = stored_stakes.restricted(locked.request.get("stakes"), names)
        request = {"players": players, "stakes": stakes}
        result = score_playing({"rules": locked.rules, **request})
        _keep_revision(locked, DealRevision.Action.EDIT, reason, by)
        if dealer is not None:
            locked.dealer = dealer_seat(dealer, seat_numbers(session))
        locked.request = request
        locked.result = result
        locked.tally = tally(result, request)
        locked.version += 1
        locked.review = None
        locked.save(
            update_fields=[
                *("request", "result", "tally", "version", "review", "dealer", "updated_at")
            ]
        )
        locked.ledger.all().delete()
        locked.review_lines.all().delete()
        _write_ledger(locked, result, seated)
        close_at_target(session)
        review_after_commit(locked)
        announce(session.pk)
    return locked


def void_deal(deal: Deal, by: User, reason: str = "") -> Deal:
    """Owners only: the deal stays visible as void, and its ledger rows are deleted."""
    require_owner(by, deal.session.group)
    reason = checked_reason(reason)
    with transaction.atomic():
        lock_open_session(deal.session)
        locked = _lock_active_deal(deal)
        _keep_revision(locked, DealRevision.Action.VOID, reason, by)
        locked.status = Deal.Status.VOID
        locked.version += 1
        locked.save(update_fields=["status", "version", "updated_at"])
        locked.ledger.all().delete()
        announce(locked.session_id)
    return locked


def restore_deal(deal: Deal, by: User, reason: str = "") -> Deal:
    """Owners only: a void deal counts again, its ledger rows written from its stored
    result; the void stays in its history, followed by the restore."""
    require_owner(by, deal.session.group)
    reason = checked_reason(reason)
    with transaction.atomic():
        session = lock_open_session(deal.session)
        locked = Deal.objects.select_for_update().get(pk=deal.pk)
        if locked.is_active:
            raise DealNotVoid(f"deal {locked.number} is not void: there is nothing to restore")
        _keep_revision(locked, DealRevision.Action.RESTORE, reason, by)
        locked.status = Deal.Status.ACTIVE
        locked.version += 1
        locked.save(update_fields=["status", "version", "updated_at"])
        _write_ledger(locked, locked.result, session.seated())
        announce(session.pk)
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
        (at_deal[a], at_deal[b], multiplier)
        for a, b, multiplier in pair_stakes
        if a in at_deal and b in at_deal
    ]
    return stored_stakes.stakes_mapping(unit_value, pairs)


def _write_ledger(deal: Deal, result: Mapping[str, Any], seated: Mapping[str, int]) -> None:
    """The ledger rows of a deal edited or restored."""
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
            units=ledger_amount(pair, "units"),
            money=ledger_amount(pair, "money"),
        )
        for pair in result["pairs"]
    ]
