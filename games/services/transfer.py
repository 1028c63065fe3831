"""Export and import: a group's whole history as one JSON document, and back.

``import_group`` rebuilds an exported group, re-scoring every active deal with the engine
under its stored rules; its ledger rows are written from that result as a recorded deal's
are (``games.services.deals.ledger_entries``).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from games.engine import ScoreError, score_request
from games.engine.rules import decimal_text
from games.engine.tally import tally
from games.errors import ImportRefused
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
from games.services.deals import ledger_entries

EXPORT_FORMAT = "scorekeeper-group/1"


def _username(user: User | None) -> str | None:
    return None if user is None else user.get_username()


def _when(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def export_group(group: Group) -> dict[str, Any]:
    """The group's whole history as JSON-ready data: what ``import_group`` rebuilds it from.

    Settings, members (by username), players, every rule-set version, pair stakes, and each
    session with its seats and deals (request, rules, result, status, version, revisions).
    Ledger rows are left out: they follow from each active deal's result.
    """
    sessions = (
        group.sessions.select_related("rule_set", "created_by", "closed_by")
        .prefetch_related("seats__player", "deals__created_by", "deals__revisions__changed_by")
        .order_by("date", "pk")
    )
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
            {"name": p.name, "user": _username(p.user)}
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
        "sessions": [_export_session(session) for session in sessions],
    }


def _export_session(session: Session) -> dict[str, Any]:
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
        "deals": [
            {
                "number": deal.number,
                "status": deal.status,
                "version": deal.version,
                "idempotency_key": deal.idempotency_key,
                "request": deal.request,
                "rules": deal.rules,
                "result": deal.result,
                "created_by": _username(deal.created_by),
                "created_at": _when(deal.created_at),
                "revisions": [
                    {
                        "version": r.version,
                        "action": r.action,
                        "reason": r.reason,
                        "request": r.request,
                        "result": r.result,
                        "changed_by": _username(r.changed_by),
                        "changed_at": _when(r.changed_at),
                    }
                    for r in deal.revisions.all()
                ],
            }
            for deal in session.deals.all()
        ],
    }


def import_group(data: Mapping[str, Any], into_group: Group, by: User) -> Group:
    """Rebuild an exported group into ``into_group``, which must be empty (owners only).

    Empty means no players and no sessions; the group's settings and rule-set versions are
    replaced by the file's (its name is kept). Every active deal is re-scored by the engine
    under its stored rules and must give the stored result, or nothing is imported; its
    ledger rows are written from that result. Usernames are matched to the group's
    members (a player's user, who created or changed what); others become unknown.
    Timestamps of creation are not restored.
    """
    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        raise ImportRefused(f"format: not a {EXPORT_FORMAT} export", "format")
    with transaction.atomic():
        require_owner(by, into_group)
        group = Group.objects.select_for_update().get(pk=into_group.pk)
        if group.players.exists() or group.sessions.exists():
            raise ImportRefused(f"{group.name} is not empty: import only into a new group")
        try:
            _import(data, group)
        except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            raise ImportRefused(f"malformed export: {type(exc).__name__}: {exc}") from None
    return group


def _import(data: Mapping[str, Any], group: Group) -> None:
    users = {
        m.user.get_username(): m.user
        for m in Membership.objects.filter(group=group).select_related("user")
    }

    def user(name: str | None) -> User | None:
        return None if name is None else users.get(name)

    settings = data["group"]
    group.currency = settings["currency"]
    group.unit_value = Decimal(settings["unit_value"])
    group.save(update_fields=["currency", "unit_value"])

    group.pair_stakes.all().delete()
    group.rule_sets.all().delete()
    rule_sets = {
        entry["version"]: RuleSet.objects.create(
            group=group,
            version=entry["version"],
            spec=entry["spec"],
            rules=entry["rules"],
            created_by=user(entry.get("created_by")),
        )
        for entry in data["rule_sets"]
    }
    linked: set[str] = set()  # a user plays as one player of a group, the file's first

    def link(name: str | None) -> User | None:
        if name is None or name in linked:
            return None
        linked.add(name)
        return user(name)

    players = {
        entry["name"]: Player.objects.create(
            group=group, name=entry["name"], user=link(entry.get("user"))
        )
        for entry in data["players"]
    }
    for entry in data["stakes"]:
        a, b = sorted((players[name] for name in entry["players"]), key=lambda p: p.pk)
        PairStake.objects.create(
            group=group, player_a=a, player_b=b, multiplier=Decimal(entry["multiplier"])
        )
    for entry in data["sessions"]:
        _import_session(entry, group, rule_sets, players, user)


def _import_session(
    entry: Mapping[str, Any],
    group: Group,
    rule_sets: Mapping[int, RuleSet],
    players: Mapping[str, Player],
    user: Any,
) -> None:
    target = entry.get("target_score")
    closed_at = entry.get("closed_at")
    session = Session.objects.create(
        group=group,
        game=entry["game"],
        date=datetime.date.fromisoformat(entry["date"]),
        place=entry.get("place", ""),
        notes=entry.get("notes", ""),
        status=entry["status"],
        rule_set=rule_sets[entry["rule_set"]],
        rules_override=entry.get("rules_override"),
        rules=entry["rules"],
        target_score=None if target is None else Decimal(target),
        created_by=user(entry.get("created_by")),
        closed_by=user(entry.get("closed_by")),
        closed_at=None if closed_at is None else datetime.datetime.fromisoformat(closed_at),
        last_deal_number=max((d["number"] for d in entry["deals"]), default=0),
    )
    seat_players = entry.get("seated_players", entry["seats"])
    seated = {
        name: players[player_name]
        for name, player_name in zip(entry["seats"], seat_players, strict=True)
    }
    SessionSeat.objects.bulk_create(
        SessionSeat(session=session, player=player, seat=k, name=name)
        for k, (name, player) in enumerate(seated.items(), start=1)
    )
    seat_ids = {name: player.pk for name, player in seated.items()}
    deals = []
    for d in entry["deals"]:
        if d["status"] == Deal.Status.ACTIVE:
            try:
                rescored = score_request({"rules": d["rules"], **d["request"]})
            except ScoreError as exc:
                raise ImportRefused(
                    f"session of {entry['date']}, deal {d['number']}: {exc.message}"
                ) from None
            if rescored != d["result"]:
                raise ImportRefused(
                    f"session of {entry['date']}, deal {d['number']}: re-scored under its "
                    "rules, it does not give its stored result"
                )
        deals.append(
            Deal(
                session=session,
                number=d["number"],
                request=d["request"],
                rules=d["rules"],
                result=d["result"],
                tally=tally(d["result"]),
                status=d["status"],
                version=d["version"],
                idempotency_key=d.get("idempotency_key"),
                created_by=user(d.get("created_by")),
            )
        )
    created = {deal.number: deal for deal in Deal.objects.bulk_create(deals)}
    if any(deal.pk is None for deal in created.values()):  # a backend without RETURNING
        created = {deal.number: deal for deal in session.deals.all()}
    ledger: list[LedgerEntry] = []
    revisions: list[DealRevision] = []
    for d in entry["deals"]:
        deal = created[d["number"]]
        if deal.status == Deal.Status.ACTIVE:
            ledger.extend(ledger_entries(deal, deal.result, seat_ids))
        revisions.extend(
            DealRevision(
                deal=deal,
                version=r["version"],
                request=r["request"],
                result=r["result"],
                action=r["action"],
                reason=r.get("reason", ""),
                changed_by=user(r.get("changed_by")),
            )
            for r in d.get("revisions", ())
        )
    LedgerEntry.objects.bulk_create(ledger)
    DealRevision.objects.bulk_create(revisions)
