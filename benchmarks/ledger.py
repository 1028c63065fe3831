"""Ledger benchmark: reports over a 10,000-deal session (prints figures, asserts nothing).

Builds a throw-away database (SQLite in a temporary file; PostgreSQL when DATABASE_URL
names one, in a database of its own that is dropped afterwards), a group of four with a
pair stake, and one session of 10,000 random classic-1-6 deals scored by the engine and
bulk inserted with their ledger rows and made-up review lines (one deal in a hundred
voided). Then times the
reports in ``games.reports``; the target for ``session_summary`` is under one second.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases  # noqa: E402
from engine import machine_speed, random_request  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from games import reports, services  # noqa: E402
from games.engine import score_request  # noqa: E402
from games.engine.rules import decimal_text  # noqa: E402
from games.engine.tally import tally  # noqa: E402
from games.models import Deal, LedgerEntry, ReviewLine, Session  # noqa: E402

DEALS = 10_000
NAMES = ("Ann", "Bob", "Cy", "Di")
ROUNDS = 5


def random_players(rng: random.Random) -> list[dict[str, Any]]:
    players: list[dict[str, Any]] = random_request(rng)["players"]
    return players


def bench_deal(
    session: Session, owner: User, number: int, request: dict[str, Any], result: dict[str, Any]
) -> Deal:
    """A deal row as recording would store it, not yet saved; one in a hundred is void."""
    return Deal(
        session=session,
        number=number,
        request=request,
        rules=session.rules,
        result=result,
        tally=tally(result, request),
        status=Deal.Status.VOID if number % 100 == 50 else Deal.Status.ACTIVE,
        created_by=owner,
        # A stand-in review: the summary only counts reviewed deals and adds up the review
        # lines (a real review takes ~20 ms a deal to compute).
        review={"reviewed": True, "reason": None, "players": [], "version": 1},
    )


def build_session(rng: random.Random) -> Session:
    owner = User.objects.create_user("bench")
    group = services.create_group(owner, "Bench club", "EUR", "0.5", "classic-1-6")
    seats = [services.add_player(group, name, by=owner) for name in NAMES]
    services.set_pair_stake(group, seats[0], seats[1], 2, by=owner)
    session = services.start_session(group, seats, owner)
    by_name = {player.name: player for player in seats}
    stakes = {"unit_value": "0.5", "pairs": [{"players": ["Ann", "Bob"], "multiplier": "2"}]}

    start = time.perf_counter()
    deals = []
    for number in range(1, DEALS + 1):
        request = {"players": random_players(rng), "stakes": stakes}
        result = score_request({"rules": session.rules, **request})
        deals.append(bench_deal(session, owner, number, request, result))
    scored = time.perf_counter() - start

    start = time.perf_counter()
    Deal.objects.bulk_create(deals, batch_size=500)
    ledger = [
        LedgerEntry(
            deal=deal,
            player_a=by_name[pair["players"][0]],
            player_b=by_name[pair["players"][1]],
            units=pair["units"],
            money=pair["money"],
        )
        for deal in deals
        if deal.status == Deal.Status.ACTIVE
        for pair in deal.result["pairs"]
    ]
    LedgerEntry.objects.bulk_create(ledger, batch_size=2000)
    missed = [
        ReviewLine(deal=deal, player=player, units_missed=rng.randrange(0, 13))
        for deal in deals
        for player in seats
    ]
    ReviewLine.objects.bulk_create(missed, batch_size=2000)
    Session.objects.filter(pk=session.pk).update(last_deal_number=DEALS)
    inserted = time.perf_counter() - start
    print(
        f"built {DEALS:,} deals: engine scoring {scored:.1f} s, bulk insert of the deals and"
        f" {len(ledger):,} ledger rows and {len(missed):,} review lines {inserted:.1f} s"
    )
    return session


def timed(label: str, run: Callable[[], Any]) -> None:
    """The first (cold) run, the best of ROUNDS, and the queries one run makes."""
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        run()
        first = time.perf_counter() - start
    best = first
    for _ in range(ROUNDS - 1):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    # A request through the test client starts by clearing the connection's query log.
    counted = f"   {len(queries.captured_queries)} queries" if queries.captured_queries else ""
    print(
        f"  {label:<34} first {first * 1000:7.0f} ms   best of {ROUNDS} {best * 1000:7.0f} ms"
        + counted
    )


def api_get(session: Session, report: str) -> Callable[[], Any]:
    """A GET of the session's report through the whole API (authentication, JSON
    rendering), in this process: what a client waits for, less the network."""
    client = APIClient(SERVER_NAME="127.0.0.1")
    client.force_authenticate(user=session.created_by)
    url = f"/api/v1/sessions/{session.pk}/{report}/"

    def get() -> None:
        answer = client.get(url)
        assert answer.status_code == 200, answer.content[:200]

    return get


def main() -> None:
    settings = connection.settings_dict
    vendor = connection.vendor
    scratch = tempfile.TemporaryDirectory()
    if vendor == "sqlite":
        settings["TEST"]["NAME"] = os.path.join(scratch.name, "bench.sqlite3")
    else:
        settings["TEST"]["NAME"] = "scorekeeper_bench_ledger"
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {vendor} database;"
        f" sum(range(100)) takes {machine_speed():.2f} us"
    )
    old = setup_databases(verbosity=0, interactive=False)
    try:
        session = build_session(random.Random(2026))
        group = session.group
        ann = group.players.get(name="Ann")
        summary = reports.session_summary(session)
        print(
            f"{summary['deals']:,} active deals, {len(summary['void_deals'])} void;"
            f" Ann {decimal_text(summary['players'][0]['units'])} units"
        )
        print("reports over the session:")
        timed("session_summary", lambda: reports.session_summary(session))
        timed("GET .../summary/ (in-process API)", api_get(session, "summary"))
        timed("settlement", lambda: reports.settlement(session))
        timed("opponent_ledger (Ann, 3 opponents)", lambda: reports.opponent_ledger(group, ann))
        timed("opponent_ledger_csv (Ann)", lambda: reports.opponent_ledger_csv(group, ann))
        timed("group_standings", lambda: reports.group_standings(group))
        timed("export_group", lambda: services.export_group(group))
    finally:
        teardown_databases(old, verbosity=0)
        scratch.cleanup()


if __name__ == "__main__":
    main()
