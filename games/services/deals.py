"""Deals: recording one (once, whatever the retries), correcting it, voiding it.

A deal is scored by the engine under the rules stored on its session; a ``ScoreError``
propagates unchanged with nothing stored. Its ledger rows (one per pair) are written in the
same transaction, and its review is queued for when that transaction commits. A void deal
has no ledger rows; it keeps its last result and a ``DealRevision``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import connection, transaction

from games import stakes as stored_stakes
from games.engine import ScoreError, score_request
from games.engine.games import GAMES
from games.engine.tally import tally
from games.errors import DealNotActive, SessionClosed
from games.models import Deal, DealRevision, LedgerEntry, PairStake, Session, SessionSeat
from games.permissions import require_member, require_owner
from games.services.reviews import review_after_commit
from games.services.sessions import close_at_target, fantasyland, lock_open_session


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


def fingerprint(players: object) -> str:
    """STUB"""
    import hashlib, json
    return hashlib.sha256(json.dumps(players, sort_keys=True, default=str).encode()).hexdigest()


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
            has_fantasyland = GAMES[session.game].has_fantasyland
            fantasy = fantasyland(session, seated) if has_fantasyland else {}
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
            close_at_target(session)
            review_after_commit(deal)
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
        session = lock_open_session(deal.session)
        locked = _lock_active_deal(deal)
        seated = session.seated()
        fantasy = {
            p["name"]: 1 for p in locked.request["players"] if p.get("in_fantasyland") is True
        }
        players = _checked_players(request_players, seated, fantasy)
        names = (p["name"] for p in players if isinstance(p, Mapping) and "name" in p)
        stakes = stored_stakes.restricted(locked.request.get("stakes"), names)
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
        close_at_target(session)
        review_after_commit(locked)
    return locked


def void_deal(deal: Deal, by: User, reason: str = "") -> Deal:
    """Owners only: the deal stays visible as void, and its ledger rows are deleted."""
    require_owner(by, deal.session.group)
    with transaction.atomic():
        lock_open_session(deal.session)
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
        (at_deal[a], at_deal[b], multiplier)
        for a, b, multiplier in pair_stakes
        if a in at_deal and b in at_deal
    ]
    return stored_stakes.stakes_mapping(unit_value, pairs)


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
