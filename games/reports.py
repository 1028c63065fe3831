"""Read-side reports over a group's nights: summaries, settlement, ledgers, standings, export.

Every amount comes from ``LedgerEntry`` rows, summed in the database; counts of fouls,
scoops, royalties and naturals come from the engine's stored results. Void deals have no
ledger rows, so they are left out of every total; summaries still list them as void.
Amounts are ``Decimal``; ``jsonable`` turns a report into JSON-ready data (decimals as
plain strings).

``import_group`` is the one writer here: it rebuilds an exported group, re-scoring every
deal with the engine under its stored rules.
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Case, Count, DecimalField, F, Q, QuerySet, Sum, Value, When
from django.db.models.fields.json import KeyTextTransform

from games.engine import ScoreError, score_request
from games.engine.rules import decimal_text
from games.engine.settlement import fewest_transfers, pair_settlement
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
from games.permissions import require_owner
from games.services import ServiceError, ledger_entries

__all__ = [
    "EXPORT_FORMAT",
    "ImportRefused",
    "export_group",
    "group_standings",
    "import_group",
    "jsonable",
    "opponent_ledger",
    "opponent_ledger_csv",
    "session_summary",
    "settlement",
]

ZERO = Decimal(0)
ROWS = ("front", "middle", "back")
EXPORT_FORMAT = "scorekeeper-group/1"


def jsonable(value: Any) -> Any:
    """The report with every Decimal as its plain text ("7.5", "-3"), dates as ISO text."""
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    return value


# --- one session ---------------------------------------------------------------------------


def _seat_names(session: Session) -> dict[int, str]:
    """Player id -> the name the player sat down with (the name the session's deals use).

    In seat order. A player renamed since keeps that name in the session's reports.
    """
    seats = SessionSeat.objects.filter(session=session).order_by("seat")
    return dict(seats.values_list("player_id", "name"))


def _ledger(session: Session) -> QuerySet[LedgerEntry]:
    return LedgerEntry.objects.filter(deal__session=session)


def _pair_sums(ledger: QuerySet[LedgerEntry]) -> dict[tuple[int, int], tuple[Decimal, Decimal]]:
    """(a id, b id) -> (units, money) that a won from b, summed in the database."""
    rows = ledger.values_list("player_a_id", "player_b_id").annotate(u=Sum("units"), m=Sum("money"))
    out: dict[tuple[int, int], tuple[Decimal, Decimal]] = {}
    for a, b, units, money in rows.order_by():
        # One pair may be stored in either order by deals seated differently.
        if a > b:
            a, b, units, money = b, a, -units, -money
        old_units, old_money = out.get((a, b), (ZERO, ZERO))
        out[(a, b)] = (old_units + units, old_money + money)
    return out


def _nets(pairs: Mapping[tuple[int, int], tuple[Decimal, Decimal]]) -> dict[int, list[Decimal]]:
    net: dict[int, list[Decimal]] = {}
    for (a, b), (units, money) in pairs.items():
        for pk, sign in ((a, 1), (b, -1)):
            amounts = net.setdefault(pk, [ZERO, ZERO])
            amounts[0] += sign * units
            amounts[1] += sign * money
    return net


def _no_counts(names: Iterable[str]) -> dict[str, dict[str, Any]]:
    return {
        name: {
            "deals": 0,
            "fouls": 0,
            "surrenders": 0,
            "scoops": 0,
            "naturals": 0,
            "royalties": ZERO,
            "royalty_rows": 0,
        }
        for name in names
    }


def _counts(session: Session, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Deals, fouls, surrenders, scoops, naturals and royalties per player (active deals),
    added up from each deal's stored tally; a deal stored before tallies existed is
    tallied from its result."""
    counts = _no_counts(names)
    active = session.deals.filter(status=Deal.Status.ACTIVE).order_by()
    tallies: list[Any] = list(active.filter(tally__isnull=False).values_list("tally", flat=True))
    older = active.filter(tally__isnull=True).values_list("result", flat=True)
    tallies.extend(tally(result) for result in older)
    for deal in tallies:
        for name, mine in deal.items():
            total = counts.get(name)
            if total is None:  # a player no longer seated: cannot happen through the services
                continue
            total["deals"] += 1
            for key in ("fouls", "surrenders", "scoops", "naturals", "royalty_rows"):
                total[key] += mine[key]
            total["royalties"] += Decimal(mine["royalties"])
    return counts


def session_summary(session: Session) -> dict[str, Any]:
    """Totals, pair matrix, counts per player and the running total after each active deal.

    ``players`` (seat order): ``units`` and ``money`` (sums of ledger rows), ``deals``
    played, ``fouls``, ``surrenders``, ``scoops`` (pairs whose three rows the player won),
    ``naturals``, ``royalties`` (the sum of the player's row royalties) and
    ``royalty_rows`` (rows that carried one). ``pairs``: ``pairs[x][y]`` is what x won from
    y. ``running``: after each active deal, every seated player's cumulative units.
    ``void_deals``: numbers of the deals voided, left out of everything else.
    ``units_missed`` (per player) adds up what the arrangement review of each active deal
    says the player left on the table; ``reviewed_deals`` tells how many of the ``deals``
    have their review yet (it is computed in the background after each deal).
    A fixed handful of queries, whatever the number of deals.
    """
    name_of = _seat_names(session)
    names = list(name_of.values())
    ledger = _ledger(session)

    pair_sums = _pair_sums(ledger)
    net = _nets(pair_sums)
    matrix: dict[str, dict[str, dict[str, Decimal]]] = {
        x: {y: {"units": ZERO, "money": ZERO} for y in names if y != x} for x in names
    }
    for (a, b), (units, money) in pair_sums.items():
        matrix[name_of[a]][name_of[b]] = {"units": units, "money": money}
        matrix[name_of[b]][name_of[a]] = {"units": -units, "money": -money}

    deals = session.deals.aggregate(
        active=Count("pk", filter=Q(status=Deal.Status.ACTIVE)),
        void=Count("pk", filter=Q(status=Deal.Status.VOID)),
        reviewed=Count("pk", filter=Q(status=Deal.Status.ACTIVE, review__isnull=False)),
    )
    void = []
    if deals["void"]:
        void = list(session.deals.filter(status=Deal.Status.VOID).values_list("number", flat=True))
    counts = _counts(session, names)
    running = _running(ledger, name_of)

    missed = _units_missed(session)
    players = []
    for pk, name in name_of.items():
        units, money = net.get(pk, (ZERO, ZERO))
        players.append(
            {"id": pk, "name": name, "units": units, "money": money}
            | counts[name]
            | {"units_missed": missed.get(pk, ZERO)}
        )
    return {
        "session": session.pk,
        "game": session.game,
        "date": session.date,
        "status": session.status,
        "currency": session.group.currency,
        "deals": deals["active"],
        "reviewed_deals": deals["reviewed"],
        "void_deals": sorted(void),
        "players": players,
        "pairs": matrix,
        "running": running,
    }


def _units_missed(session: Session) -> dict[int, Decimal]:
    """Per player id, the units missed over the active deals reviewed so far."""
    lines = ReviewLine.objects.filter(deal__session=session, deal__status=Deal.Status.ACTIVE)
    totals = lines.values("player").annotate(total=Sum("units_missed")).order_by()
    return {row["player"]: row["total"] for row in totals}


def _running(ledger: QuerySet[LedgerEntry], name_of: Mapping[int, str]) -> list[dict[str, Any]]:
    """Every seated player's cumulative units after each active deal.

    The database sums each deal's rows into one row per deal, a column per player.
    """
    amount = DecimalField(max_digits=14, decimal_places=4)
    columns = {
        f"p{pk}": Sum(
            Case(
                When(player_a_id=pk, then=F("units")),
                When(player_b_id=pk, then=-F("units")),
                default=Value(ZERO),
                output_field=amount,
            )
        )
        for pk in name_of
    }
    rows = (
        ledger.values("deal__number")
        .annotate(**columns)
        .order_by("deal__number")
        .values_list("deal__number", *columns)
    )
    totals = [ZERO] * len(name_of)
    running = []
    for number, *deltas in rows:
        totals = [total + delta for total, delta in zip(totals, deltas, strict=True)]
        running.append({"deal": number, "units": dict(zip(name_of.values(), totals, strict=True))})
    return running


def settlement(session: Session) -> dict[str, Any]:
    """Who pays whom to settle the session's money: the fewest transfers, and pair by pair.

    Each transfer is ``{"from": payer, "to": payee, "amount": Decimal}``.
    """
    name_of = _seat_names(session)
    pair_sums = _pair_sums(_ledger(session))
    net = {name: ZERO for name in name_of.values()}
    for pk, (_, money) in _nets(pair_sums).items():
        net[name_of[pk]] = money
    by_pair = {(name_of[a], name_of[b]): money for (a, b), (_, money) in pair_sums.items()}

    def listed(transfers: Iterable[tuple[str, str, Decimal]]) -> list[dict[str, Any]]:
        return [
            {"from": payer, "to": payee, "amount": amount} for payer, payee, amount in transfers
        ]

    return {
        "session": session.pk,
        "currency": session.group.currency,
        "net": net,
        "fewest_transfers": listed(fewest_transfers(net)),
        "pair_by_pair": listed(pair_settlement(by_pair)),
    }


# --- one player against each opponent ------------------------------------------------------


def _dated(
    ledger: QuerySet[LedgerEntry],
    date_from: datetime.date | None,
    date_to: datetime.date | None,
) -> QuerySet[LedgerEntry]:
    if date_from is not None:
        ledger = ledger.filter(deal__session__date__gte=date_from)
    if date_to is not None:
        ledger = ledger.filter(deal__session__date__lte=date_to)
    return ledger


@functools.lru_cache(maxsize=64)
def _decoded(text: str | None) -> Any:
    """JSON text decoded (read-only: the same object is handed out again)."""
    return None if text is None else json.loads(text)


def _multiplier(stakes: Any, first: str, second: str) -> Decimal:
    """The pair's multiple of the unit as stored with the deal (1 unless agreed otherwise)."""
    for pair in (stakes or {}).get("pairs", ()):
        if set(pair["players"]) == {first, second}:
            return Decimal(pair["multiplier"])
    return Decimal(1)


def opponent_ledger(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[str, Any]:
    """One player's deals against each opponent, from the player's side, with running balances.

    ``opponents`` (by name): each with its ``deals`` in play order (session date, session,
    deal number), each deal's ``units`` and ``money`` won by the player, the pair's
    ``multiplier`` in force at that deal and the running ``balance_units`` and
    ``balance_money``; then the net ``units`` and ``money`` and the pair's current
    ``stake`` (multiple of the unit). Optionally one session, or a date range of sessions.
    """
    names = dict(group.players.values_list("pk", "name"))
    # A deal's stored stakes name the players as they sat at its session.
    seat_names = {
        (session_id, pk): name
        for session_id, pk, name in SessionSeat.objects.filter(
            session__group=group, session__seats__player=player
        ).values_list("session_id", "player_id", "name")
    }
    ledger = LedgerEntry.objects.filter(deal__session__group=group).filter(
        Q(player_a=player) | Q(player_b=player)
    )
    if session is not None:
        ledger = ledger.filter(deal__session=session)
    ledger = _dated(ledger, date_from, date_to)
    # The stakes as JSON text, decoded once per distinct text (nearly every deal of a
    # group is played at the same stakes), not once per row.
    ledger = ledger.annotate(stakes=KeyTextTransform("stakes", "deal__request"))
    rows = ledger.order_by("deal__session__date", "deal__session_id", "deal__number").values_list(
        "deal__session_id",
        "deal__session__date",
        "deal__number",
        "player_a_id",
        "player_b_id",
        "units",
        "money",
        "stakes",
    )
    stakes = {
        (a, b): multiplier
        for a, b, multiplier in group.pair_stakes.values_list(
            "player_a_id", "player_b_id", "multiplier"
        )
    }
    opponents: dict[int, dict[str, Any]] = {}
    for session_id, date, number, a, b, units, money, deal_stakes in rows:
        other, sign = (b, 1) if a == player.pk else (a, -1)
        entry = opponents.get(other)
        if entry is None:
            entry = opponents[other] = {
                "id": other,
                "name": names[other],
                "stake": stakes.get((min(a, b), max(a, b)), Decimal(1)),
                "units": ZERO,
                "money": ZERO,
                "deals": [],
            }
        entry["units"] += sign * units
        entry["money"] += sign * money
        entry["deals"].append(
            {
                "session": session_id,
                "date": date,
                "deal": number,
                "multiplier": _multiplier(
                    _decoded(deal_stakes), seat_names[session_id, a], seat_names[session_id, b]
                ),
                "units": sign * units,
                "money": sign * money,
                "balance_units": entry["units"],
                "balance_money": entry["money"],
            }
        )
    listed = sorted(opponents.values(), key=lambda entry: entry["name"])
    return {
        "player": {"id": player.pk, "name": player.name},
        "currency": group.currency,
        "session": None if session is None else session.pk,
        "date_from": date_from,
        "date_to": date_to,
        "units": sum((entry["units"] for entry in listed), ZERO),
        "money": sum((entry["money"] for entry in listed), ZERO),
        "opponents": listed,
    }


LEDGER_CSV_HEADER = (
    "player",
    "opponent",
    "session",
    "date",
    "deal",
    "multiplier",
    "units",
    "money",
    "balance_units",
    "balance_money",
)


def opponent_ledger_csv(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> str:
    """``opponent_ledger`` as CSV: a header row, then one row per deal per opponent."""
    report = jsonable(
        opponent_ledger(group, player, session=session, date_from=date_from, date_to=date_to)
    )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LEDGER_CSV_HEADER)
    for opponent in report["opponents"]:
        for deal in opponent["deals"]:
            writer.writerow(
                [player.name, opponent["name"]] + [deal[key] for key in LEDGER_CSV_HEADER[2:]]
            )
    return out.getvalue()


# --- the group across sessions -------------------------------------------------------------


def group_standings(
    group: Group,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[str, Any]:
    """Every player's totals across the group's sessions (optionally a date range of them).

    Per player: ``units`` and ``money`` (sums of ledger rows), ``sessions`` seated,
    ``deals`` played (active deals with a ledger row of theirs) and ``average`` units per
    deal (4 places; null without deals). Most money first.
    """
    players = list(group.players.order_by("name"))
    ledger = _dated(LedgerEntry.objects.filter(deal__session__group=group), date_from, date_to)
    net = _nets(_pair_sums(ledger))
    deals = (
        ledger.aggregate(
            **{
                f"p{p.pk}": Count("deal", distinct=True, filter=Q(player_a=p) | Q(player_b=p))
                for p in players
            }
        )
        if players
        else {}
    )
    seats = SessionSeat.objects.filter(session__group=group)
    if date_from is not None:
        seats = seats.filter(session__date__gte=date_from)
    if date_to is not None:
        seats = seats.filter(session__date__lte=date_to)
    sessions = dict(seats.values_list("player_id").annotate(n=Count("session")).order_by())
    rows = []
    for player in players:
        units, money = net.get(player.pk, (ZERO, ZERO))
        played = deals[f"p{player.pk}"]
        rows.append(
            {
                "id": player.pk,
                "name": player.name,
                "units": units,
                "money": money,
                "sessions": sessions.get(player.pk, 0),
                "deals": played,
                "average": (units / played).quantize(Decimal("0.0001")) if played else None,
            }
        )
    rows.sort(key=lambda row: (-row["money"], -row["units"], row["name"]))
    return {
        "group": group.pk,
        "currency": group.currency,
        "date_from": date_from,
        "date_to": date_to,
        "players": rows,
    }


# --- export and import ---------------------------------------------------------------------


class ImportRefused(ServiceError):
    """The file cannot be imported (malformed, inconsistent, or the group is not empty)."""


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
