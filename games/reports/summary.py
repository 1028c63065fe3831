"""A session's summary and settlement: totals, pair matrix, counts per player, running totals.

Amounts come from ``games.reports.ledger``; counts of fouls, scoops, royalties and naturals
from each deal's stored tally. Void deals are left out of every total and listed as void.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Count, Q, Sum

from games.dealing import dealer_name, next_dealer
from games.engine.bigtwo import target_reached, threshold_factor
from games.engine.games import GAMES
from games.engine.rules import Rules
from games.engine.tally import tally
from games.lib.locales import by_name
from games.models import Deal, ReviewLine, Session
from games.reports import ledger

ZERO = Decimal(0)
CHUNK = 2000

# What a deal's tally counts per player, added up for the summary (each key of engine.tally
# but "royalties", which is an amount).
_COUNTED = (
    "fouls",
    "surrenders",
    "scoops",
    "naturals",
    "royalty_rows",
    "wins",
    "cards_left",
    "multiplied",
    "twos",
)
# The average of cards left is given to a hundredth.
HUNDREDTH = Decimal("0.01")


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
            "wins": 0,
            "cards_left": 0,
            "multiplied": 0,
            "twos": 0,
        }
        for name in names
    }


def _counts(session: Session, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Deals, fouls, surrenders, scoops, naturals and royalties per player (active deals),
    added up from each deal's stored tally; a deal stored before tallies existed is
    tallied from its result."""
    counts = _no_counts(names)
    active = session.deals.filter(status=Deal.Status.ACTIVE).order_by()
    # Read through a cursor, a chunk at a time: memory stays flat however long the session.
    stored = active.filter(tally__isnull=False).values_list("tally", flat=True)
    older = active.filter(tally__isnull=True).values_list("result", flat=True)
    if connection.vendor == "postgresql":  # the database adds up the stored tallies
        _add_summed(counts, _summed_tallies(session))
        stored = stored.none()
    tallies: Iterator[Any] = itertools.chain(
        stored.iterator(CHUNK), (tally(result) for result in older.iterator(CHUNK))
    )
    for deal in tallies:
        for name, mine in deal.items():
            total = counts.get(name)
            if total is None:  # a player no longer seated: cannot happen through the services
                continue
            total["deals"] += 1
            for key in _COUNTED:
                total[key] += mine[key]
            total["royalties"] += Decimal(mine["royalties"])
    return counts


def _summed_tallies(session: Session) -> list[tuple[Any, ...]]:
    """PostgreSQL: the stored tallies of the session's active deals added up per player
    name in one query (name, deals, each count, royalties), instead of read one by one."""
    counted = ", ".join(f"SUM((t.value->>'{key}')::int)" for key in _COUNTED)
    deals = connection.ops.quote_name(Deal._meta.db_table)
    sql = (
        f"SELECT t.key, COUNT(*), {counted}, SUM((t.value->>'royalties')::numeric)"
        f" FROM {deals} d CROSS JOIN LATERAL jsonb_each(d.tally) t"
        " WHERE d.session_id = %s AND d.status = %s AND d.tally IS NOT NULL GROUP BY t.key"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [session.pk, Deal.Status.ACTIVE])
        return list(cursor.fetchall())


def _add_summed(counts: dict[str, dict[str, Any]], rows: Iterable[tuple[Any, ...]]) -> None:
    for name, deals, *sums, royalties in rows:
        total = counts.get(name)
        if total is None:  # a player no longer seated: cannot happen through the services
            continue
        total["deals"] += deals
        for key, value in zip(_COUNTED, sums, strict=True):
            total[key] += value
        total["royalties"] += royalties


def session_summary(
    session: Session,
    *,
    running: bool = True,
    window: tuple[int | None, int] | None = None,
    pairs: ledger.PairSums | None = None,
) -> dict[str, Any]:
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
    A fixed handful of queries, whatever the number of deals. ``running=False`` leaves
    out ``running`` (one row per deal), for a page that does not show it. ``window``
    (offset, limit) lists only ``limit`` of the running totals from the ``offset``-th
    active deal (0 the first; None: the last ``limit``), the list's length in
    ``running_count`` and the window's first index in ``running_offset``. ``pairs``: the
    session's ``pair_sums`` when the caller has them (``pair_rows``).
    """
    name_of = session.seat_names()
    names = list(name_of.values())
    if pairs is None:
        pairs = ledger.pair_sums(ledger.session_ledger(session))
    net = ledger.nets(pairs)
    matrix = {
        x: ledger.by_name(amounts) for x, amounts in ledger.pair_matrix(session, pairs).items()
    }

    deals = session.deals.aggregate(
        active=Count("pk", filter=Q(status=Deal.Status.ACTIVE)),
        void=Count("pk", filter=Q(status=Deal.Status.VOID)),
        reviewed=Count("pk", filter=Q(status=Deal.Status.ACTIVE, review__isnull=False)),
    )
    void = []
    if deals["void"]:
        void = list(session.deals.filter(status=Deal.Status.VOID).values_list("number", flat=True))
    counts = _counts(session, names)
    paged: dict[str, Any] = {}
    sums: list[tuple[int, list[Decimal]]] = []
    if running and window is not None:
        offset, limit = window
        start = max(0, deals["active"] - limit) if offset is None else offset
        final = [net.get(pk, ledger.NOTHING).units for pk in name_of]
        sums = ledger.running_window(session, "units", start, limit, final)
        paged = {"running_count": deals["active"], "running_offset": start}
    elif running:
        sums = list(ledger.running_sums(session, "units"))
    if running:
        running_units = [
            {"deal": number, "units": dict(zip(names, totals, strict=True))}
            for number, totals in sums
        ]

    missed = _units_missed(session)
    big_two = GAMES[session.game].shape == "leftovers"
    players = []
    for pk, name in name_of.items():
        units, money = net.get(pk, ledger.NOTHING)
        players.append(
            {"id": pk, "name": name, "units": units, "money": money}
            | counts[name]
            | {"units_missed": missed.get(pk, ZERO)}
            | ({"cards_left_average": _average(counts[name])} if big_two else {})
        )
    full = sums if running and window is None else None
    return (
        {
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
            "next_dealer": _next_dealer(session) if session.is_open else None,
        }
        | ({"running": running_units, **paged} if running else {})
        | ({"big_two": big_two_deals(session, full)} if big_two else {})
    )


def _average(counts: dict[str, Any]) -> Decimal:
    """The cards a player was left with per deal played, to a hundredth (0 before any)."""
    if not counts["deals"]:
        return ZERO
    return (Decimal(counts["cards_left"]) / counts["deals"]).quantize(HUNDREDTH)


def big_two_deals(
    session: Session, sums: list[tuple[int, list[Decimal]]] | None = None
) -> dict[str, Any]:
    """Big Two: the active deals where a ``multipliers`` threshold or the 2s held changed a
    loser's payment (``multiplied``: per deal its number and, per such loser in seat order,
    the cards left, the threshold factor or None, and the 2s that counted), and the deal
    after which a loss first reached the session's target score (``target``: its number,
    who reached it and the target; None without a target or before it is reached).

    Read from the deals' stored tallies (a deal stored before them is tallied from its
    result) and the summed ledger (``sums``: the session's running totals when the caller
    has them whole); nothing is scored again.
    """
    rules = Rules.from_mapping(session.rules)
    seat = {name: k for k, name in enumerate(session.seat_names().values())}
    active = session.deals.filter(status=Deal.Status.ACTIVE).order_by("number")
    stored = active.filter(tally__isnull=False).values_list("number", "tally")
    older = active.filter(tally__isnull=True).values_list("number", "result")
    tallies: Iterator[tuple[int, Any]] = itertools.chain(
        stored.iterator(CHUNK),
        ((number, tally(result)) for number, result in older.iterator(CHUNK)),
    )
    multiplied: list[dict[str, Any]] = []
    for number, counted in tallies:
        losers: list[dict[str, Any]] = []
        for name, mine in counted.items():
            if mine["multiplied"]:
                factor = threshold_factor(rules, mine["cards_left"])
                losers.append(
                    {
                        "name": name,
                        "cards_left": mine["cards_left"],
                        "multiplier": None if factor == 1 else factor,
                        "twos": mine["twos"],
                    }
                )
        if losers:
            # In seat order: a tally read back from PostgreSQL's jsonb has its keys sorted.
            losers.sort(key=lambda loser: seat.get(loser["name"], len(seat)))
            multiplied.append({"deal": number, "players": losers})
    multiplied.sort(key=lambda entry: entry["deal"])
    return {"multiplied": multiplied, "target": _target_deal(session, rules, sums)}


def _target_deal(
    session: Session, rules: Rules, sums: list[tuple[int, list[Decimal]]] | None
) -> dict[str, Any] | None:
    """The first active deal after which a running loss reached the target score."""
    if rules.target_score is None:
        return None
    names = list(session.seat_names().values())
    for number, totals in ledger.running_sums(session, "units") if sums is None else sums:
        reached = target_reached(dict(zip(names, totals, strict=True)), rules)
        if reached:
            return {"deal": number, "players": reached, "target_score": rules.target_score}
    return None


def _next_dealer(session: Session) -> str | None:
    """Who deals the session's next deal by default (``games.dealing``)."""
    seats = dict(session.seats.order_by("seat").values_list("name", "seat"))
    last = session.deals.order_by("-number").values_list("number", "dealer").first()
    if not seats:
        return None
    stays = session.button_stays_after(last)
    return dealer_name(next_dealer(list(seats.values()), last, stays=stays), seats)


def _units_missed(session: Session) -> dict[int, Decimal]:
    """Per player id, the units missed over the active deals reviewed so far."""
    lines = ReviewLine.objects.filter(deal__session=session, deal__status=Deal.Status.ACTIVE)
    totals = lines.values("player").annotate(total=Sum("units_missed")).order_by()
    return {row["player"]: row["total"] for row in totals}


def settlement(session: Session, pairs: ledger.PairSums | None = None) -> dict[str, Any]:
    """Who pays whom to settle the session's money: the fewest transfers, and pair by pair.

    Each transfer is ``{"from": payer, "to": payee, "amount": Decimal}``. ``pairs``: the
    session's ``pair_sums`` when the caller has them.
    """
    if pairs is None:
        pairs = ledger.pair_sums(ledger.session_ledger(session))
    net = {name: amounts.money for name, amounts in ledger.balances(session, pairs).items()}

    def listed(transfers: Iterable[tuple[str, str, Decimal]]) -> list[dict[str, Any]]:
        return [
            {"from": payer, "to": payee, "amount": amount} for payer, payee, amount in transfers
        ]

    return {
        "session": session.pk,
        "currency": session.group.currency,
        "net": net,
        "fewest_transfers": listed(ledger.transfers(session, pairs=pairs)),
        "pair_by_pair": listed(ledger.transfers(session, pair_by_pair=True, pairs=pairs)),
    }


def pair_rows(session: Session) -> list[tuple[Any, ...]]:
    """The session's ledger summed pair by pair in one query: (a id, b id, units, money,
    deals), a pair perhaps in both orders. A page that shows the summary, the settlement
    and ``session_opponents`` reads them once (``ledger.sums_of`` turns them into the
    ``pairs`` the first two take)."""
    return list(
        ledger.session_ledger(session)
        .values_list("player_a_id", "player_b_id")
        .annotate(u=Sum("units"), m=Sum("money"), n=Count("pk"))
        .order_by()
    )


def session_opponents(
    session: Session, rows: list[tuple[Any, ...]] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Each seated player's net ``units`` and ``money`` against each opponent over the
    session's active deals, with the number of ``deals`` they played together; by name,
    seat order, opponents by name. One query (none given ``pair_rows``), whatever the
    number of deals."""
    name_of = session.seat_names()
    if rows is None:
        rows = pair_rows(session)
    against: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in name_of.values()}
    for a, b, units, money, deals in rows:
        for me, other, sign in ((a, b, 1), (b, a, -1)):
            entry = against[name_of[me]].setdefault(
                name_of[other], {"name": name_of[other], "units": ZERO, "money": ZERO, "deals": 0}
            )
            entry["units"] += sign * units
            entry["money"] += sign * money
            entry["deals"] += deals
    return {
        name: by_name(opponents.values(), lambda entry: entry["name"])
        for name, opponents in against.items()
    }
