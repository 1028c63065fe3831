"""A group's season: every player across a range of nights, and whether they are improving.

Everything is added up from what recording a deal stored: the ledger (units and money,
through ``games.reports.ledger``), each deal's tally (fouls, scoops, naturals, royalties,
Big Two's wins and cards left, open-face fantasy land) and the review lines (units
missed). Nothing is scored again. A void deal has no ledger rows and is left out of the
tallies and the review lines, as every night's summary leaves it out; a corrected deal
counts as it stands now. A player merged into another has their seats, ledger rows and
review lines moved to the kept player, so the history follows the kept player.

A season is read in a fixed number of queries (``QUERIES``), whatever its number of
nights and deals: the seats, the ledger summed per night and pair, the tallies summed per
night and seat (on PostgreSQL by the database), the deals per night, the tallies of deals
stored before tallies existed, and the review lines summed per night and player.
"""

from __future__ import annotations

import calendar
import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Count, QuerySet, Sum

from games.engine.tally import tally
from games.lib.locales import name_key
from games.models import Deal, Group, LedgerEntry, ReviewLine, Session, SessionSeat
from games.reports import ledger

ZERO = Decimal(0)
PLACES = Decimal("0.0001")
CHUNK = 2000

# What a season adds up of each deal's tally, per player ("royalties" is an amount).
COUNTED = (
    "fouls",
    "surrenders",
    "scoops",
    "scooped",
    "naturals",
    "royalty_rows",
    "wins",
    "cards_left",
    "fantasy_entries",
    "fantasy_stays",
)

# The queries a season reads, whatever its length (a test holds it).
QUERIES = 6

RANGES = ("month", "year", "all", "custom")


@dataclass(frozen=True)
class Span:
    """The nights a season covers: ``date_from`` to ``date_to``, both included (None: open)."""

    choice: str
    date_from: datetime.date | None
    date_to: datetime.date | None


def span(
    choice: str,
    today: datetime.date,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Span:
    """The range a choice names: ``month`` and ``year`` (the current one, as of ``today``),
    ``all`` (every night), or ``custom`` (``date_from`` to ``date_to``, either open). Given
    dates without a choice mean ``custom``; nothing at all means ``all``."""
    if choice not in RANGES:
        choice = "custom" if date_from or date_to else "all"
    if choice == "month":
        last = calendar.monthrange(today.year, today.month)[1]
        return Span(choice, today.replace(day=1), today.replace(day=last))
    if choice == "year":
        return Span(choice, datetime.date(today.year, 1, 1), datetime.date(today.year, 12, 31))
    if choice == "all":
        return Span(choice, None, None)
    return Span(choice, date_from, date_to)


def _zero_counts() -> dict[str, Any]:
    return {"deals": 0, **dict.fromkeys(COUNTED, 0), "royalties": ZERO}


def _per_deal(amount: Decimal, deals: int) -> Decimal | None:
    return (amount / deals).quantize(PLACES) if deals else None


def trend(points: Iterable[tuple[int, Decimal]]) -> Decimal | None:
    """The least-squares slope of (night index, value) points: how much the value moves
    from one night to the next (4 places); None with fewer than two nights."""
    pairs = [(Decimal(x), y) for x, y in points]
    if len(pairs) < 2:
        return None
    n = Decimal(len(pairs))
    mean_x = sum((x for x, _ in pairs), ZERO) / n
    mean_y = sum((y for _, y in pairs), ZERO) / n
    spread = sum(((x - mean_x) ** 2 for x, _ in pairs), ZERO)
    if not spread:
        return None
    moved = sum(((x - mean_x) * (y - mean_y) for x, y in pairs), ZERO)
    return (moved / spread).quantize(PLACES)


class Scope:
    """The rows of one group's season: its nights between two dates, of one game or all."""

    def __init__(
        self,
        group: Group,
        date_from: datetime.date | None,
        date_to: datetime.date | None,
        game: str | None,
    ) -> None:
        self.group = group
        self.date_from = date_from
        self.date_to = date_to
        self.game = game

    def sessions(self, rows: QuerySet[Any], prefix: str) -> QuerySet[Any]:
        """``rows`` narrowed to the season's sessions, reached through ``prefix``."""
        rows = rows.filter(**{f"{prefix}group": self.group})
        if self.date_from is not None:
            rows = rows.filter(**{f"{prefix}date__gte": self.date_from})
        if self.date_to is not None:
            rows = rows.filter(**{f"{prefix}date__lte": self.date_to})
        if self.game is not None:
            rows = rows.filter(**{f"{prefix}game": self.game})
        return rows

    def ledger(self) -> QuerySet[LedgerEntry]:
        rows = ledger.play_ledger(self.group, self.date_from, self.date_to)
        if self.game is not None:
            rows = rows.filter(deal__session__game=self.game)
        return rows

    def active_deals(self) -> QuerySet[Deal]:
        return self.sessions(Deal.objects.filter(status=Deal.Status.ACTIVE), "session__")


def _seats(scope: Scope) -> list[tuple[Any, ...]]:
    """(session id, date, game, player id, seat name, player's name now), night by night."""
    seats = scope.sessions(SessionSeat.objects.all(), "session__")
    return list(
        seats.values_list(
            "session_id", "session__date", "session__game", "player_id", "name", "player__name"
        ).order_by("session__date", "session_id", "seat")
    )


def _summed_tallies_pg(scope: Scope) -> list[tuple[Any, ...]]:
    """PostgreSQL: the stored tallies of the season's active deals added up per night and
    seat name in one query: (session id, name, deals, each count, royalties)."""
    counted = ", ".join(f"SUM(COALESCE((t.value->>'{key}')::int, 0))" for key in COUNTED)
    deals = connection.ops.quote_name(Deal._meta.db_table)
    sessions = connection.ops.quote_name(Session._meta.db_table)
    where = ["s.group_id = %s", "d.status = %s", "d.tally IS NOT NULL"]
    params: list[Any] = [scope.group.pk, Deal.Status.ACTIVE]
    for clause, value in (
        ("s.date >= %s", scope.date_from),
        ("s.date <= %s", scope.date_to),
        ("s.game = %s", scope.game),
    ):
        if value is not None:
            where.append(clause)
            params.append(value)
    sql = (
        f"SELECT d.session_id, t.key, COUNT(*), {counted},"
        " SUM(COALESCE((t.value->>'royalties')::numeric, 0))"
        f" FROM {deals} d JOIN {sessions} s ON s.id = d.session_id"
        " CROSS JOIN LATERAL jsonb_each(d.tally) t"
        f" WHERE {' AND '.join(where)} GROUP BY d.session_id, t.key"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def _night_counts(scope: Scope) -> dict[tuple[int, str], dict[str, Any]]:
    """(session id, seat name) -> deals played and each count, from the stored tallies of
    the season's active deals (a deal stored before tallies is tallied from its result)."""
    counts: dict[tuple[int, str], dict[str, Any]] = {}

    def add(session_id: int, deal: Mapping[str, Any]) -> None:
        for name, mine in deal.items():
            total = counts.setdefault((session_id, name), _zero_counts())
            total["deals"] += 1
            for key in COUNTED:
                total[key] += mine.get(key, 0)
            total["royalties"] += Decimal(mine.get("royalties", "0"))

    active = scope.active_deals().order_by()
    if connection.vendor == "postgresql":
        for session_id, name, deals, *sums, royalties in _summed_tallies_pg(scope):
            total = counts.setdefault((session_id, name), _zero_counts())
            total["deals"] += deals
            for key, value in zip(COUNTED, sums, strict=True):
                total[key] += value
            total["royalties"] += royalties
    else:
        stored = active.filter(tally__isnull=False).values_list("session_id", "tally")
        for session_id, deal in stored.iterator(CHUNK):
            add(session_id, deal or {})
    older = active.filter(tally__isnull=True).values_list("session_id", "result", "request")
    for session_id, result, request in older.iterator(CHUNK):
        add(session_id, tally(result, request))
    return counts


def _missed(scope: Scope) -> dict[tuple[int, int], tuple[Decimal, int]]:
    """(session id, player id) -> units missed and deals reviewed, over active deals."""
    lines = scope.sessions(
        ReviewLine.objects.filter(deal__status=Deal.Status.ACTIVE), "deal__session__"
    )
    rows = (
        lines.values_list("deal__session_id", "player_id")
        .annotate(s=Sum("units_missed"), n=Count("pk"))
        .order_by()
    )
    return {(session_id, pk): (total, n) for session_id, pk, total, n in rows}


def _deals_per_night(scope: Scope) -> dict[int, int]:
    rows = scope.active_deals().values_list("session_id").annotate(n=Count("pk")).order_by()
    return dict(rows)


def season(
    group: Group,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    *,
    game: str | None = None,
) -> dict[str, Any]:
    """Every player's season over the group's nights between the two dates (both included,
    None: open), of one ``game`` or of all.

    ``players`` (most money first), each: ``id``, ``name`` (as now), ``nights`` seated,
    ``deals`` played, ``units`` and ``money`` won, ``units_per_deal``, the tallies' counts
    (``fouls``, ``surrenders``, ``scoops`` taken, ``scooped`` given, ``naturals``,
    ``royalties`` and ``royalty_rows``, Big Two's ``wins`` and ``cards_left``, open-face
    ``fantasy_entries`` and ``fantasy_stays``), ``reviewed_deals``, ``units_missed``,
    ``missed_per_deal`` (over the reviewed deals; null without any) and ``missed_trend``
    (the slope of missed per deal night by night: below 0, the player is missing less).
    ``nights``: date order, each with its ``session``, ``date``, ``game``, ``deals`` and per
    player (by id) ``units``, ``money``, ``deals``, ``missed`` and ``reviewed``.
    ``head_to_head``: one entry per pair who played together (``a`` id below ``b`` id):
    ``units`` and ``money`` that a won from b, and the ``deals`` they played together.
    ``games``: the games the nights were played at.
    """
    scope = Scope(group, date_from, date_to, game)
    seats = _seats(scope)
    pair_rows = ledger.night_pair_rows(scope.ledger())
    counts = _night_counts(scope)
    deals_in = _deals_per_night(scope)
    missed = _missed(scope)

    nights: dict[int, dict[str, Any]] = {}
    names: dict[int, str] = {}
    totals: dict[int, dict[str, Any]] = {}
    for session_id, date, game_key, pk, seat_name, name in seats:
        night = nights.setdefault(
            session_id,
            {
                "session": session_id,
                "date": date,
                "game": game_key,
                "deals": deals_in.get(session_id, 0),
                "players": {},
            },
        )
        names[pk] = name
        mine = counts.get((session_id, seat_name), _zero_counts())
        lost, reviewed = missed.get((session_id, pk), (ZERO, 0))
        night["players"][pk] = {
            "units": ZERO,
            "money": ZERO,
            "deals": mine["deals"],
            "missed": lost,
            "reviewed": reviewed,
        }
        total = totals.setdefault(
            pk, {"nights": 0, **_zero_counts(), "units_missed": ZERO, "reviewed_deals": 0}
        )
        total["nights"] += 1
        for key in ("deals", *COUNTED, "royalties"):
            total[key] += mine[key]
        total["units_missed"] += lost
        total["reviewed_deals"] += reviewed

    pairs: dict[tuple[int, int], dict[str, Any]] = {}
    for session_id, a, b, units, money, deals in pair_rows:
        night_players = nights[session_id]["players"]
        night_players[a]["units"] += units
        night_players[a]["money"] += money
        night_players[b]["units"] -= units
        night_players[b]["money"] -= money
        if a > b:
            a, b, units, money = b, a, -units, -money
        pair = pairs.setdefault((a, b), {"a": a, "b": b, "units": ZERO, "money": ZERO, "deals": 0})
        pair["units"] += units
        pair["money"] += money
        pair["deals"] += deals

    ordered = list(nights.values())
    players: list[dict[str, Any]] = []
    for pk, total in totals.items():
        units = sum((n["players"][pk]["units"] for n in ordered if pk in n["players"]), ZERO)
        money = sum((n["players"][pk]["money"] for n in ordered if pk in n["players"]), ZERO)
        series = [
            (k, n["players"][pk]["missed"] / n["players"][pk]["reviewed"])
            for k, n in enumerate(ordered)
            if pk in n["players"] and n["players"][pk]["reviewed"]
        ]
        players.append(
            {"id": pk, "name": names[pk]}
            | total
            | {
                "units": units,
                "money": money,
                "units_per_deal": _per_deal(units, total["deals"]),
                "missed_per_deal": _per_deal(total["units_missed"], total["reviewed_deals"]),
                "missed_trend": trend(series),
            }
        )
    players.sort(key=lambda row: (-row["money"], -row["units"], name_key(row["name"])))
    return {
        "group": group.pk,
        "currency": group.currency,
        "date_from": date_from,
        "date_to": date_to,
        "game": game,
        "games": sorted({night["game"] for night in ordered}),
        "deals": sum(deals_in.values()),
        "players": players,
        "nights": ordered,
        "head_to_head": sorted(pairs.values(), key=lambda pair: (pair["a"], pair["b"])),
    }


def group_rates(report: Mapping[str, Any]) -> dict[str, Decimal | None]:
    """The whole group's foul rate (fouls per deal played) and missed units per reviewed
    deal over the season, to hold one player's against."""
    deals = sum(p["deals"] for p in report["players"])
    fouls = sum(p["fouls"] for p in report["players"])
    reviewed = sum(p["reviewed_deals"] for p in report["players"])
    lost = sum((p["units_missed"] for p in report["players"]), ZERO)
    return {
        "foul_rate": _per_deal(Decimal(fouls), deals),
        "missed_per_deal": _per_deal(lost, reviewed),
    }
