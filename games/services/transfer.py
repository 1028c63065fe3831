"""Export and import: a group's whole history as one JSON document, and back.

The export is written piece by piece (``export_stream``): sessions are read a few at a
time and each session's deals in chunks, so a group of any size is exported in little
memory. ``export_group`` gives the same document as one mapping.

``import_group`` rebuilds an exported group. Every value of the file is checked as the
services check what the API is sent (``games.services.import_checks``), and every deal,
active or void, is scored again by the engine under its session's rules and must give its
stored result; its ledger rows are written from that result as a recorded deal's are
(``games.services.deals.ledger_entries``). The first bad value refuses the whole file with
its path, and nothing is stored. Deals are written in batches as they are read, so a file
read lazily (``games.lib.jsonfile``, as an uploaded file is) is never in memory whole.
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Value

from games.engine.rules import decimal_text
from games.engine.tally import tally
from games.errors import ImportRefused
from games.lib.streaming import in_pieces
from games.models import (
    Deal,
    DealRevision,
    Group,
    LedgerEntry,
    Membership,
    PairStake,
    Player,
    RuleSet,
    Session,
    SessionSeat,
)
from games.permissions import require_owner
from games.services import import_checks as read
from games.services.import_values import items, required
from games.services.transfer_payments import export_payments, restore_payments

EXPORT_FORMAT = "scorekeeper-group/1"

# Sessions read per query, and deals per chunk, when exporting; deals written per batch
# when importing.
SESSIONS_PER_QUERY = 20
DEALS_PER_CHUNK = 500
# Text gathered before it is handed to the response: fewer, larger writes.
STREAM_PIECE = 64 * 1024


def dumps(value: Any) -> str:
    """JSON text as the export writes it: compact, UTF-8 left as it is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _username(user: User | None) -> str | None:
    return None if user is None else user.get_username()


def _when(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


# --- export ------------------------------------------------------------------------------------


def export_group(group: Group) -> dict[str, Any]:
    """The group's whole history as JSON-ready data: what ``import_group`` rebuilds it from.

    Settings, members (by username), players, every rule-set version, pair stakes, and each
    session with its seats and deals (request, rules, result, status, version, revisions).
    Ledger rows are left out: they follow from each active deal's result and each
    confirmed payment. Payments (with their history) come last.
    """
    return {
        **_export_head(group),
        "sessions": [
            {**_export_session(session), "deals": list(_export_deals(session))}
            for session in _sessions(group)
        ],
        "payments": export_payments(group),
    }


def export_stream(group: Group) -> Iterator[str]:
    """``dumps(export_group(group))``, in pieces, reading the database as it goes. The
    first piece is the group's settings alone, sent before any deal is read."""
    return in_pieces(_export_pieces(group), STREAM_PIECE)


def _export_pieces(group: Group) -> Iterator[str]:
    # Each object is written without its closing brace, then its last key's list follows.
    yield dumps(_export_head(group))[:-1] + ',"sessions":['
    for k, session in enumerate(_sessions(group)):
        yield ("," if k else "") + dumps(_export_session(session))[:-1] + ',"deals":['
        for j, deal in enumerate(_export_deals(session)):
            yield ("," if j else "") + dumps(deal)
        yield "]}"
    yield '],"payments":' + dumps(export_payments(group)) + "}"


def _export_head(group: Group) -> dict[str, Any]:
    return {
        "format": EXPORT_FORMAT,
        "group": {
            "name": group.name,
            "currency": group.currency,
            "unit_value": decimal_text(group.unit_value),
        },
        "members": [
            {"user": m.user.get_username(), "role": m.role}
            for m in group.memberships.select_related("user").order_by("pk")
        ],
        "players": [
            {"name": p.name, "user": _username(p.user), "retired_at": _when(p.retired_at)}
            for p in group.players.select_related("user").order_by("pk")
        ],
        "rule_sets": [
            {
                "version": r.version,
                "spec": r.spec,
                "rules": r.rules,
                "created_by": _username(r.created_by),
                "created_at": _when(r.created_at),
            }
            for r in group.rule_sets.select_related("created_by").order_by("version")
        ],
        "stakes": [
            {
                "players": [s.player_a.name, s.player_b.name],
                "multiplier": decimal_text(s.multiplier),
            }
            for s in group.pair_stakes.select_related("player_a", "player_b").order_by("pk")
        ],
    }


def _sessions(group: Group) -> Iterator[Session]:
    """The group's sessions by date, a few per query."""
    ids = list(group.sessions.order_by("date", "pk").values_list("pk", flat=True))
    for start in range(0, len(ids), SESSIONS_PER_QUERY):
        chunk = ids[start : start + SESSIONS_PER_QUERY]
        sessions = (
            Session.objects.filter(pk__in=chunk)
            .select_related("rule_set", "created_by", "closed_by")
            .prefetch_related("seats__player")
            .in_bulk()
        )
        yield from (sessions[pk] for pk in chunk if pk in sessions)


def _export_session(session: Session) -> dict[str, Any]:
    """A session's own values, without its deals (which follow, as the last key)."""
    return {
        "game": session.game,
        "date": session.date.isoformat(),
        "place": session.place,
        "notes": session.notes,
        "status": session.status,
        "rule_set": session.rule_set.version,
        "rules_override": session.rules_override,
        "rules": session.rules,
        "target_score": None
        if session.target_score is None
        else decimal_text(session.target_score),
        # The names the deals use, and (the same unless renamed since) whose seats they are.
        "seats": [seat.name for seat in session.seats.all()],
        "seated_players": [seat.player.name for seat in session.seats.all()],
        "created_by": _username(session.created_by),
        "created_at": _when(session.created_at),
        "closed_by": _username(session.closed_by),
        "closed_at": _when(session.closed_at),
    }


def _export_deals(session: Session) -> Iterator[dict[str, Any]]:
    """The session's deals in order, read a chunk at a time as plain rows (model instances
    with their related objects form reference cycles, which only the cyclic garbage
    collector would free: memory would grow with the group)."""
    rows = (
        session.deals.order_by("number")
        .values_list(*_DEAL_FIELDS)
        .iterator(chunk_size=DEALS_PER_CHUNK)
    )
    seat_names = dict(session.seats.values_list("seat", "name"))
    while chunk := list(islice(rows, DEALS_PER_CHUNK)):
        revisions: dict[int, list[dict[str, Any]]] = defaultdict(list)
        earlier = (
            DealRevision.objects.filter(deal_id__in=[row[0] for row in chunk])
            .order_by("deal_id", "version")
            .values_list("deal_id", *_REVISION_FIELDS)
        )
        for deal_id, *revision in earlier:
            revisions[deal_id].append(dict(zip(_REVISION_KEYS, revision, strict=True)))
        for pk, *values in chunk:
            deal = dict(zip(_DEAL_KEYS, values, strict=True))
            deal["created_at"] = _when(deal["created_at"])
            deal["dealer"] = seat_names.get(deal["dealer"])  # (a seat number in the table)
            deal["revisions"] = [
                {**revision, "changed_at": _when(revision["changed_at"])}
                for revision in revisions[pk]
                # Read after the deal: an edit made in between is not half exported.
                if revision["version"] < deal["version"]
            ]
            yield deal


_DEAL_KEYS = (
    "number",
    "status",
    "version",
    "dealer",
    "idempotency_key",
    "request",
    "rules",
    "result",
    "created_by",
    "created_at",
)
_DEAL_FIELDS = ("pk", *_DEAL_KEYS[:-2], "created_by__username", "created_at")
_REVISION_KEYS = ("version", "action", "reason", "request", "result", "changed_by", "changed_at")
_REVISION_FIELDS = (*_REVISION_KEYS[:-2], "changed_by__username", "changed_at")


# --- import ------------------------------------------------------------------------------------


class Restored(NamedTuple):
    """What an import stored."""

    players: int
    sessions: int
    deals: int


def import_group(data: Mapping[str, Any], into_group: Group, by: User) -> Group:
    """Rebuild an exported group into ``into_group``, which must be empty (owners only).

    Empty means no players and no sessions; the group's settings and rule-set versions are
    replaced by the file's (its name is kept). A value the services would refuse, or a deal
    whose request does not give its stored result under its rules, refuses the whole file
    (``ImportRefused`` naming the path of the culprit) and nothing is stored. Usernames are
    matched to the group's members (a player's user, who created or changed what); others
    become unknown. Timestamps of creation are not restored.
    """
    with transaction.atomic():
        group = lock_empty(into_group, by)
        restore(data, group)
    return group


def lock_empty(group: Group, by: User) -> Group:
    """The group locked for an import by ``by``, who must own it; it must be empty."""
    require_owner(by, group)
    locked = Group.objects.select_for_update().get(pk=group.pk)
    if locked.players.exists() or locked.sessions.exists():
        raise ImportRefused(f"{locked.name} is not empty: import only into a new group")
    return locked


def restore(data: Any, group: Group) -> Restored:
    """Check and write the file's history into a locked, empty group (in a transaction)."""
    document = read.document(data, EXPORT_FORMAT)
    currency, unit_value = read.settings(document)
    read.members(document)
    versions = read.rule_sets(document)
    players = read.players(document)
    stakes = read.stakes(document, [p.name for p in players])
    sessions = required(document, "sessions", "")

    users = {
        m.user.get_username(): m.user
        for m in Membership.objects.filter(group=group).select_related("user")
    }

    def user(name: str | None) -> User | None:
        return None if name is None else users.get(name)

    group.currency, group.unit_value = currency, unit_value
    group.save(update_fields=["currency", "unit_value"])
    group.pair_stakes.all().delete()
    # The file's versions replace the group's, written over them (a group never stands
    # without rules, even inside this transaction).
    rule_sets = {
        row.version: RuleSet.objects.update_or_create(
            group=group,
            version=row.version,
            defaults={
                "spec": row.spec,
                "rules": row.rules.to_mapping(),
                "created_by": user(row.created_by),
            },
        )[0]
        for row in versions.values()
    }
    group.rule_sets.exclude(version__in=rule_sets).delete()
    linked: set[str] = set()  # a user plays as one player of a group, the file's first

    def link(name: str | None) -> User | None:
        if name is None or name in linked:
            return None
        linked.add(name)
        return user(name)

    by_name = {
        row.name: Player.objects.create(
            group=group, name=row.name, user=link(row.user), retired_at=row.retired_at
        )
        for row in players
    }
    for stake in stakes:
        a, b = sorted((by_name[name] for name in stake.players), key=lambda p: p.pk)
        PairStake.objects.create(group=group, player_a=a, player_b=b, multiplier=stake.multiplier)
    count = deals = 0
    for path, entry in items(sessions, "sessions"):
        head = read.session(entry, path, versions, by_name)
        deals += _restore_session(head, group, rule_sets, by_name, user)
        count += 1
    # Sessions were created in the file's order: a payment names its night by that place.
    restore_payments(document, group, by_name, list(group.sessions.order_by("pk")), user)
    return Restored(len(by_name), count, deals)


def _restore_session(
    head: read.SessionHead,
    group: Group,
    rule_sets: Mapping[int, RuleSet],
    players: Mapping[str, Player],
    user: Callable[[str | None], User | None],
) -> int:
    """Write one session, its seats and its deals; the number of deals."""
    rules = head.rules.to_mapping()
    session = Session.objects.create(
        group=group,
        game=head.game,
        date=head.date,
        place=head.place,
        notes=head.notes,
        status=head.status,
        rule_set=rule_sets[head.rule_set],
        rules_override=head.rules_override,
        rules=rules,
        target_score=head.target_score,
        created_by=user(head.created_by),
        closed_by=user(head.closed_by),
        closed_at=head.closed_at,
    )
    SessionSeat.objects.bulk_create(
        SessionSeat(session=session, player=players[player], seat=k, name=seat)
        for k, (seat, player) in enumerate(head.seats.items(), start=1)
    )
    seat_ids = {seat: players[player].pk for seat, player in head.seats.items()}
    batch: list[read.DealRow] = []
    count = 0
    for row in read.deals(head, seat_ids):
        batch.append(row)
        count += 1
        if len(batch) == DEALS_PER_CHUNK:
            _write_deals(session, batch, rules, user)
            batch = []
    _write_deals(session, batch, rules, user)
    Session.objects.filter(pk=session.pk).update(last_deal_number=count)
    return count


def _write_deals(
    session: Session,
    rows: Sequence[read.DealRow],
    rules: Mapping[str, Any],
    user: Callable[[str | None], User | None],
) -> None:
    for row in rows:
        deal = row.deal
        deal.session = session
        deal.number, deal.status, deal.version = row.number, row.status, row.version
        deal.request, deal.rules, deal.result = row.request, rules, row.result
        deal.tally = tally(row.result, row.request)
        deal.idempotency_key = row.idempotency_key
        deal.created_by = user(row.created_by)
    if rows:
        # PostgreSQL: Django inserts many rows at once through UNNEST of one array per
        # column, and psycopg writes an array of JSON values slowly (each quote escaped by
        # a regular expression: some 3 ms a deal). A value given as an expression makes it
        # insert a plain VALUES list instead.
        rows[0].deal.version = Value(rows[0].version)
    deals = Deal.objects.bulk_create(row.deal for row in rows)
    if rows:
        rows[0].deal.version = rows[0].version
    if any(deal.pk is None for deal in deals):  # a backend without RETURNING
        ids = dict(
            session.deals.filter(number__in=[d.number for d in deals]).values_list("number", "pk")
        )
        for deal in deals:
            deal.pk = ids[deal.number]
    # The ledger rows were made with their deals before these were saved: each takes its
    # deal's id now.
    LedgerEntry.objects.bulk_create(entry for row in rows for entry in row.ledger)
    DealRevision.objects.bulk_create(
        DealRevision(
            deal=row.deal,
            version=r.version,
            request=r.request,
            result=r.result,
            action=r.action,
            reason=r.reason,
            changed_by=user(r.changed_by),
        )
        for row in rows
        for r in row.revisions
    )
