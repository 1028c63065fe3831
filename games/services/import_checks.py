"""The parts of a group export, each checked as the services check what the API is sent.

Settings, members, rule sets, players, stakes, and each session with its seats and deals,
read with ``games.services.import_values`` (which refuses a bad value with its path). Every
deal, active or void, and every revision is scored again by the engine under the session's
rules and must give its stored result. What is stored is what the engine and the checks
give back: the resolved rules and the re-scored results, never the file's own spelling of
them. Deals are read one at a time (``deals``), so a lazily read file stays unread until
its deals are written.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from games.engine import Rules
from games.engine.games import GAMES
from games.engine.stored import as_played, missing
from games.models import (
    Deal,
    DealRevision,
    LedgerEntry,
    Player,
    Session,
    SessionSeat,
)
from games.services import checks
from games.services.import_values import (
    amount,
    at,
    choice,
    currency,
    date,
    free_text,
    items,
    limit,
    mapping,
    moment,
    name,
    refuse,
    request,
    required,
    rescored,
    rules,
    shown,
    stake,
    text,
    username,
    whole,
)
from games.services.names import same_as
from games.services.reasons import REASON_LENGTH


class RuleSetRow(NamedTuple):
    version: int
    spec: Any
    rules: Rules
    created_by: str | None


class PlayerRow(NamedTuple):
    name: str
    user: str | None
    retired_at: datetime.datetime | None = None


class StakeRow(NamedTuple):
    players: tuple[str, str]
    multiplier: Decimal


def document(data: Any, export_format: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        refuse("format", f"not a {export_format} export: the file must be a JSON object")
    if data.get("format") != export_format:
        refuse("format", f"not a {export_format} export")
    return data


def settings(data: Mapping[str, Any]) -> tuple[str, Decimal]:
    """The group's currency and unit value."""
    entry = mapping(required(data, "group", ""), "group")
    text(entry.get("name", ""), "group.name")
    code = currency(required(entry, "currency", "group"), "group.currency")
    value = stake(required(entry, "unit_value", "group"), "group.unit_value", checks.unit_value)
    return code, value


def members(data: Mapping[str, Any]) -> None:
    """The members the file was exported with: checked, never stored (the group's own are
    the ones its usernames are matched to)."""
    for path, entry in items(data.get("members", []), "members"):
        entry = mapping(entry, path)
        username(required(entry, "user", path), at(path, "user"))
        choice(required(entry, "role", path), at(path, "role"), ("owner", "member"))


def rule_sets(data: Mapping[str, Any]) -> dict[int, RuleSetRow]:
    """Every rule-set version, numbered 1, 2, 3...; its rules are what its spec gives."""
    out: dict[int, RuleSetRow] = {}
    for path, entry in items(required(data, "rule_sets", ""), "rule_sets"):
        entry = mapping(entry, path)
        version = whole(required(entry, "version", path), at(path, "version"), len(out) + 1)
        # A file from before a preset gained a rule keeps the rules it held (RULES 13).
        spec, held = as_played(required(entry, "spec", path), required(entry, "rules", path))
        agreed = rules(spec, at(path, "spec"))
        stored = rules(held, at(path, "rules"))
        if stored.mapping != agreed.mapping:
            refuse(at(path, "rules"), "not what its spec gives")
        created_by = username(entry.get("created_by"), at(path, "created_by"))
        moment(entry.get("created_at"), at(path, "created_at"))
        out[version] = RuleSetRow(version, spec, agreed, created_by)
    if not out:
        refuse("rule_sets", "at least one rule set is needed: the rules sessions start under")
    # The rules sessions start under from now on must be within the bounds of rules being
    # set; earlier versions only had to score the deals already played under them.
    latest = len(out)
    rules(out[latest].spec, at(at("rule_sets", latest - 1), "spec"), limits=True)
    return out


def players(data: Mapping[str, Any]) -> list[PlayerRow]:
    out: dict[str, PlayerRow] = {}
    for path, entry in items(required(data, "players", ""), "players"):
        entry = mapping(entry, path)
        called = name(required(entry, "name", path), at(path, "name"), limit(Player, "name"))
        clash = same_as(called, out)
        if clash is not None:
            refuse(at(path, "name"), f"there is already a player named {clash!r}")
        out[called] = PlayerRow(
            called,
            username(entry.get("user"), at(path, "user")),
            moment(entry.get("retired_at"), at(path, "retired_at")),
        )
    return list(out.values())


def stakes(data: Mapping[str, Any], names: Collection[str]) -> list[StakeRow]:
    out: dict[frozenset[str], StakeRow] = {}
    for path, entry in items(data.get("stakes", []), "stakes"):
        entry = mapping(entry, path)
        pair = required(entry, "players", path)
        if not isinstance(pair, list) or len(pair) != 2:
            refuse(at(path, "players"), f"expected two player names, got {shown(pair)}")
        for k, who in enumerate(pair):
            if not isinstance(who, str) or who not in names:
                refuse(at(at(path, "players"), k), f"there is no player named {shown(who)}")
        if pair[0] == pair[1]:
            refuse(at(path, "players"), "a pair stake needs two different players")
        if frozenset(pair) in out:
            refuse(at(path, "players"), f"{pair[0]} and {pair[1]} already have a pair stake")
        multiplier = stake(
            required(entry, "multiplier", path), at(path, "multiplier"), checks.multiplier
        )
        out[frozenset(pair)] = StakeRow((pair[0], pair[1]), multiplier)
    return list(out.values())


class SessionHead(NamedTuple):
    """A session's own values, checked; its deals are read after."""

    path: str
    game: str
    date: datetime.date
    place: str
    notes: str
    status: str
    rule_set: int
    rules_override: Any
    rules: Rules
    target_score: Decimal | None
    seats: dict[str, str]  # seat name -> the player's name in the file, in seat order
    created_by: str | None
    closed_by: str | None
    closed_at: datetime.datetime | None
    deals: Any


def session(
    entry: Any, path: str, versions: Mapping[int, RuleSetRow], names: Collection[str]
) -> SessionHead:
    entry = mapping(entry, path)
    game = choice(required(entry, "game", path), at(path, "game"), tuple(GAMES))
    status = choice(required(entry, "status", path), at(path, "status"), Session.Status.values)
    version = required(entry, "rule_set", path)
    if type(version) is not int or version not in versions:
        refuse(at(path, "rule_set"), f"there is no rule set version {shown(version)}")
    held = required(entry, "rules", path)
    override = entry.get("rules_override")
    if override is not None:
        override = as_played(override, held)[0]
    in_force = rules(as_played(held, held)[1], at(path, "rules"))
    if override is not None:
        # An open session's own rules are played by deals still to come: bounded as when set.
        open_night = status == Session.Status.OPEN
        agreed = rules(override, at(path, "rules_override"), limits=open_night)
        if agreed.mapping != in_force.mapping:
            refuse(at(path, "rules"), "not the rules of its rules_override")
    elif versions[version].rules.mapping != in_force.mapping:
        refuse(at(path, "rules"), f"not the rules of rule set version {version}")
    if in_force.game != game:
        refuse(at(path, "game"), f"its rules are for {in_force.game}, not {game}")
    target = entry.get("target_score")
    if in_force.target_score is None and target is not None:
        refuse(at(path, "target_score"), "its rules give none: null")
    if in_force.target_score is not None and (
        target is None
        or amount(target, at(path, "target_score"), Session, "target_score")
        != in_force.target_score
    ):
        refuse(at(path, "target_score"), f"its rules give {in_force.target_score}")
    closed_at = moment(entry.get("closed_at"), at(path, "closed_at"))
    closed_by = username(entry.get("closed_by"), at(path, "closed_by"))
    if status == Session.Status.OPEN and (closed_at or closed_by):
        refuse(at(path, "closed_at"), "an open session has not been closed: null")
    if status == Session.Status.CLOSED and closed_at is None:
        refuse(at(path, "closed_at"), "a closed session says when it was closed")
    moment(entry.get("created_at"), at(path, "created_at"))
    return SessionHead(
        path=path,
        game=game,
        date=date(required(entry, "date", path), at(path, "date")),
        place=name(
            entry.get("place", ""), at(path, "place"), limit(Session, "place"), required=False
        ),
        notes=free_text(entry.get("notes", ""), at(path, "notes"), multiline=True),
        status=status,
        rule_set=version,
        rules_override=override,
        rules=in_force,
        target_score=in_force.target_score,
        seats=_seats(entry, path, names),
        created_by=username(entry.get("created_by"), at(path, "created_by")),
        closed_by=closed_by,
        closed_at=closed_at,
        deals=required(entry, "deals", path),
    )


def _seats(entry: Mapping[str, Any], path: str, names: Collection[str]) -> dict[str, str]:
    seats = required(entry, "seats", path)
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
        refuse(at(path, "seats"), f"a session seats 2 to 4 players, got {shown(seats)}")
    called: list[str] = []
    for seat_path, seat in items(seats, at(path, "seats")):
        seat = name(seat, seat_path, limit(SessionSeat, "name"))
        if same_as(seat, called) is not None:
            refuse(seat_path, f"two seats named {seat!r}")
        called.append(seat)
    whose = entry.get("seated_players", seats)
    if not isinstance(whose, list) or len(whose) != len(seats):
        refuse(
            at(path, "seated_players"),
            f"one player for each of the {len(seats)} seats, got {shown(whose)}",
        )
    for player_path, player in items(whose, at(path, "seated_players")):
        if not isinstance(player, str) or player not in names:
            refuse(player_path, f"there is no player named {shown(player)}")
    for k, player in enumerate(whose):
        if player in whose[:k]:
            refuse(at(at(path, "seated_players"), k), f"{player!r} is seated twice")
    return dict(zip(called, whose, strict=True))


class RevisionRow(NamedTuple):
    version: int
    action: str
    reason: str
    request: Mapping[str, Any]
    result: dict[str, Any]
    changed_by: str | None


class DealRow(NamedTuple):
    deal: Deal  # not saved yet: the ledger rows are already its
    ledger: list[LedgerEntry]
    number: int
    status: str
    version: int
    idempotency_key: str | None
    request: Mapping[str, Any]
    result: dict[str, Any]
    created_by: str | None
    revisions: list[RevisionRow]


def deals(head: SessionHead, seated: Mapping[str, int]) -> Iterator[DealRow]:
    """The session's deals, numbered 1, 2, 3... in order, each re-scored, with an active
    one's ledger rows (``seated``: the seats' player ids)."""
    keys: dict[str, int] = {}
    rules_mapping = head.rules.mapping
    for k, (path, entry) in enumerate(items(head.deals, at(head.path, "deals"))):
        yield _deal(entry, path, k + 1, head, rules_mapping, keys, seated)


def _deal(
    entry: Any,
    path: str,
    number: int,
    head: SessionHead,
    rules_mapping: Mapping[str, Any],
    keys: dict[str, int],
    seated: Mapping[str, int],
) -> DealRow:
    entry = mapping(entry, path)
    why = " (deals are numbered 1, 2, 3... in order)"
    whole(required(entry, "number", path), at(path, "number"), number, why)
    status = choice(required(entry, "status", path), at(path, "status"), Deal.Status.values)
    stored = required(entry, "rules", path)
    stored = as_played(stored, stored)[1]
    if stored != rules_mapping and rules(stored, at(path, "rules")).mapping != rules_mapping:
        refuse(at(path, "rules"), "not its session's rules, which every deal is scored under")
    seats = tuple(head.seats)
    deal_request = request(required(entry, "request", path), at(path, "request"), seats)
    deal = Deal(dealer=_dealer(entry.get("dealer"), at(path, "dealer"), seats))
    result, ledger = rescored(
        deal_request,
        rules_mapping,
        at(path, "request"),
        result_as_played(required(entry, "result", path)),
        (deal, seated) if status == Deal.Status.ACTIVE else None,
    )
    revisions = _revisions(entry, path, status, deal_request, rules_mapping, seats)
    why = " (one more than its revisions)"
    whole(required(entry, "version", path), at(path, "version"), len(revisions) + 1, why)
    key = entry.get("idempotency_key")
    if key is not None:
        key_path = at(path, "idempotency_key")
        text(key, key_path, max_length=limit(Deal, "idempotency_key"))
        if not key:
            refuse(key_path, "an empty key is no key: null")
        if key in keys:
            refuse(key_path, f"already the key of deal {keys[key]}")
        keys[key] = number
    created_by = username(entry.get("created_by"), at(path, "created_by"))
    moment(entry.get("created_at"), at(path, "created_at"))
    return DealRow(
        deal,
        ledger if status == Deal.Status.ACTIVE else [],
        number,
        status,
        len(revisions) + 1,
        key,
        deal_request,
        result,
        created_by,
        revisions,
    )


def result_as_played(result: Any) -> Any:
    """A stored result whose rules were written before a preset gained a rule, with
    those rules as they were played (``games.engine.stored``)."""
    if isinstance(result, Mapping) and missing(result.get("rules")):
        return {**result, "rules": as_played(result["rules"], result["rules"])[1]}
    return result


def _dealer(name: Any, path: str, seats: Sequence[str]) -> int | None:
    """The seat number of a deal's dealer, given by seat name; null (or absent, in a file
    from before dealers) for none."""
    if name is None:
        return None
    if name not in seats:
        refuse(path, f"not one of the session's seats ({', '.join(seats)}), got {shown(name)}")
    return seats.index(name) + 1


def _revisions(
    entry: Mapping[str, Any],
    path: str,
    status: str,
    deal_request: Mapping[str, Any],
    rules_mapping: Mapping[str, Any],
    seats: Collection[str],
) -> list[RevisionRow]:
    """A deal's earlier versions 1, 2, ...: edits, voids each followed by its restore but
    the last, which leaves the deal void."""
    out: list[RevisionRow] = []
    listed = entry.get("revisions", [])
    count = len(listed) if isinstance(listed, list) else 0
    for j, (where, revision) in enumerate(items(listed, at(path, "revisions"))):
        revision = mapping(revision, where)
        version = whole(required(revision, "version", where), at(where, "version"), j + 1)
        action = required(revision, "action", where)
        choice(action, at(where, "action"), DealRevision.Action.values)
        after_void = bool(out) and out[-1].action == DealRevision.Action.VOID
        if after_void and action != DealRevision.Action.RESTORE:
            refuse(at(where, "action"), "after a void only a restore: a void deal is not edited")
        if action == DealRevision.Action.RESTORE and not after_void:
            refuse(at(where, "action"), "a restore undoes a void: the revision before it")
        before = request(required(revision, "request", where), at(where, "request"), seats)
        if action == DealRevision.Action.VOID and before != deal_request and j == count - 1:
            refuse(at(where, "request"), "a void keeps the deal as it was: its request")
        if after_void and before != out[-1].request:
            refuse(at(where, "request"), "a restore keeps the deal as it was voided")
        result, _ = rescored(
            before,
            rules_mapping,
            at(where, "request"),
            result_as_played(required(revision, "result", where)),
        )
        reason = free_text(
            revision.get("reason", ""), at(where, "reason"), max_length=REASON_LENGTH
        )
        changed_by = username(revision.get("changed_by"), at(where, "changed_by"))
        moment(revision.get("changed_at"), at(where, "changed_at"))
        out.append(RevisionRow(version, action, reason, before, result, changed_by))
    voided = bool(out) and out[-1].action == DealRevision.Action.VOID
    if status == Deal.Status.VOID and not voided:
        refuse(at(path, "status"), "void, but no revision voided it")
    if status == Deal.Status.ACTIVE and voided:
        refuse(at(path, "status"), "'active', but its last revision voided it")
    return out
