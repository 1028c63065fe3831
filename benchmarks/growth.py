"""Growth benchmark: what a page or a report costs as a session grows to 1,000, 10,000 and
50,000 deals (prints figures, asserts nothing).

Builds a throw-away database (as benchmarks/ledger.py does: SQLite in a temporary file, or
a database of its own on the PostgreSQL server DATABASE_URL names, dropped afterwards) with
one group of four and one session, grown to each size in turn with random classic-1-6 deals
scored by the engine and bulk inserted with their ledger rows and made-up review lines (one
deal in a hundred void). At each size it asks, in this process, through Django's test
clients: the scoreboard page, the session-end page, the API's summary, the group export
and Ann's per-opponent ledger as JSON and CSV. Each is timed ROUNDS times (the median and
the spread), then once more under tracemalloc for the peak of Python memory it took. A
streamed answer also gives the time to its first piece. The earlier figures
(measured before this work) are printed beside.

GROWTH_SIZES=1000,10000 picks other sizes, GROWTH_ROUNDS the rounds (5; above 10,000 deals
GROWTH_BIG_ROUNDS, 1, so that `make bench` stays within minutes: one round of the export
at 50,000 deals takes about a minute), GROWTH_DATABASE the name of the throw-away
PostgreSQL database, GROWTH_ONLY=ledger the figures whose name holds that text (several,
comma-separated: GROWTH_ONLY=scoreboard,summary). The
queries are counted during the first timed round. Each figure's target is
printed beside it, and how each cost grows from the smallest size to the largest.

Then the season (GROWTH_ONLY=season for it alone): a group of six players with 100
weekly nights of 50 deals (5,000 deals, four of the six seated each night, rotating),
stored as above with a review line per seated player and deal; timed are the season
report itself (``games.reports.season``, in this process), the API's
``groups/{id}/season/``, the season page and a player's season page.
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402
from engine import machine_speed, random_request  # noqa: E402
from ledger import bench_deal  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from games import services  # noqa: E402
from games.engine import score_request  # noqa: E402
from games.models import Deal, Group, LedgerEntry, ReviewLine, Session  # noqa: E402
from games.reports.season import season  # noqa: E402
from games.services.deals import ledger_entries  # noqa: E402

SIZES = [int(n) for n in os.environ.get("GROWTH_SIZES", "1000,10000,50000").split(",")]
ROUNDS = int(os.environ.get("GROWTH_ROUNDS", "5"))
BIG_ROUNDS = int(os.environ.get("GROWTH_BIG_ROUNDS", "1"))
NAMES = ("Ann", "Bob", "Cy", "Di")
STAKES = {"unit_value": "0.5", "pairs": [{"players": ["Ann", "Bob"], "multiplier": "2"}]}

# The figures measured before this work (PostgreSQL): what -> {deals: text}.
BEFORE = {
    "scoreboard": {1000: "0.7 s, 1.3 MB", 10000: "7.4 s, 12.8 MB, 360 MiB"},
    "session end": {1000: "0.25 s (31 queries)", 10000: "1.4 s (API 0.57 s)"},
    "API summary": {10000: "0.4-0.6 s"},
    "export": {1000: "0.36 s", 10000: "5.3 s, 46 MB, 369 MiB peak"},
    "ledger JSON": {1000: "50 ms", 10000: "0.46 s, 4 MB"},
}
# The targets.
TARGETS = {
    "scoreboard": "10,000 deals: under 300 ms and 300 KB",
    "session end": "within 20% of the API summary, fixed queries",
    "API summary": "windowed (the last 200 running totals)",
    "export": "50,000 deals: first byte within 200 ms, peak under 50 MiB",
    "ledger JSON": "50,000 deals: first byte within 200 ms, peak under 50 MiB",
    "ledger CSV": "50,000 deals: first byte within 200 ms, peak under 50 MiB",
}
SEASON_NIGHTS = int(os.environ.get("GROWTH_SEASON_NIGHTS", "100"))
SEASON_DEALS = int(os.environ.get("GROWTH_SEASON_DEALS", "50"))
SEASON_NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")
SEASON_TARGET = "under 300 ms, a fixed number of queries"


def build_season(owner: User, rng: random.Random) -> Group:
    """A group of six with ``SEASON_NIGHTS`` weekly nights of ``SEASON_DEALS`` deals each."""
    began = time.perf_counter()
    group = services.create_group(owner, "Season club", "EUR", "0.5", "classic-1-6")
    six = [services.add_player(group, name, by=owner) for name in SEASON_NAMES]
    services.set_pair_stake(group, six[0], six[1], 2, by=owner)
    first = datetime.date(2025, 1, 3)
    for night in range(SEASON_NIGHTS):
        seats = [six[(night + k) % len(six)] for k in range(4)]
        session = services.start_session(
            group, seats, owner, date=first + datetime.timedelta(weeks=night)
        )
        seated = session.seated()
        names = list(seated)
        deals = []
        for number in range(1, SEASON_DEALS + 1):
            players = random_request(rng)["players"]
            for player, name in zip(players, names, strict=True):
                player["name"] = name
            stakes = {"unit_value": "0.5", "pairs": []}
            request = {"players": players, "stakes": stakes}
            result = score_request({"rules": session.rules, **request})
            deals.append(bench_deal(session, owner, number, request, result))
        Deal.objects.bulk_create(deals, batch_size=500)
        active = [deal for deal in deals if deal.status == Deal.Status.ACTIVE]
        LedgerEntry.objects.bulk_create(
            (entry for deal in active for entry in ledger_entries(deal, deal.result, seated)),
            batch_size=2000,
        )
        ReviewLine.objects.bulk_create(
            (
                ReviewLine(deal=deal, player=player, units_missed=rng.randrange(0, 13))
                for deal in deals
                for player in seats
            ),
            batch_size=2000,
        )
        Session.objects.filter(pk=session.pk).update(last_deal_number=SEASON_DEALS)
    print(
        f"  (built {SEASON_NIGHTS} nights of {SEASON_DEALS} deals for six players"
        f" in {time.perf_counter() - began:.1f} s)"
    )
    return group


def time_report(group: Group) -> dict[str, Any]:
    """The season report called in this process: median of ROUNDS, and its queries."""
    season(group)  # warm
    queries: list[str] = []

    def count(execute: Any, sql: str, *args: Any) -> Any:
        queries.append(sql)
        return execute(sql, *args)

    walls = []
    for k in range(ROUNDS):
        start = time.perf_counter()
        if k == 0:
            with connection.execute_wrapper(count):
                season(group)
        else:
            season(group)
        walls.append(time.perf_counter() - start)
    walls.sort()
    return {
        "median": statistics.median(walls),
        "min": walls[0],
        "max": walls[-1],
        "queries": len(queries),
    }


def measure_season(owner: User, web: Client, api: APIClient, rng: random.Random) -> None:
    group = build_season(owner, rng)
    ann = group.players.get(name="Ann").pk
    deals = SEASON_NIGHTS * SEASON_DEALS
    got = time_report(group)
    rows = [("season report", got)]
    for figure in (
        Figure("season API", api, f"/api/v1/groups/{group.pk}/season/"),
        Figure("season page", web, f"/groups/{group.pk}/season/?range=all"),
        Figure("player season", web, f"/groups/{group.pk}/season/players/{ann}/?range=all"),
    ):
        rows.append((figure.label, figure.measure(deals)))
    print()
    print(f"the season: {SEASON_NIGHTS} nights x {SEASON_DEALS} deals ({deals:,}), six players")
    print("| what | median (min-max) | queries | answer | target |")
    print("|---|---|---|---|---|")
    for label, row in rows:
        size = size_text(row["bytes"]) if "bytes" in row else "-"
        print(
            f"| {label} | {row['median'] * 1000:.0f} ms ({row['min'] * 1000:.0f}-"
            f"{row['max'] * 1000:.0f}) | {row['queries']} | {size} | {SEASON_TARGET} |"
        )


def grow(session: Session, owner: User, upto: int, rng: random.Random) -> None:
    """Adds deals to the session until it has ``upto``, with ledger rows and review lines."""
    start = session.last_deal_number + 1
    seated = session.seated()
    players = list(session.group.players.order_by("pk"))
    began = time.perf_counter()
    for first in range(start, upto + 1, 2000):
        deals = []
        for number in range(first, min(first + 2000, upto + 1)):
            request = {"players": random_request(rng)["players"], "stakes": STAKES}
            result = score_request({"rules": session.rules, **request})
            deals.append(bench_deal(session, owner, number, request, result))
        Deal.objects.bulk_create(deals, batch_size=500)
        LedgerEntry.objects.bulk_create(
            (
                entry
                for deal in deals
                if deal.status == Deal.Status.ACTIVE
                for entry in ledger_entries(deal, deal.result, seated)
            ),
            batch_size=2000,
        )
        ReviewLine.objects.bulk_create(
            (
                ReviewLine(deal=deal, player=player, units_missed=rng.randrange(0, 13))
                for deal in deals
                for player in players
            ),
            batch_size=2000,
        )
    Session.objects.filter(pk=session.pk).update(last_deal_number=upto)
    session.refresh_from_db()
    print(f"  (grew the session to {upto:,} deals in {time.perf_counter() - began:.1f} s)")


def fetch(client: Client, url: str) -> tuple[float, float, int]:
    """GET url: seconds to the first piece, seconds to the whole answer, its bytes."""
    start = time.perf_counter()
    answer: Any = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    if answer.streaming:
        pieces = iter(answer.streaming_content)
        size = len(next(pieces))
        first = time.perf_counter() - start
        size += sum(len(piece) for piece in pieces)
    else:
        size = len(answer.content)
        first = time.perf_counter() - start
    return first, time.perf_counter() - start, size


class Figure:
    def __init__(self, label: str, client: Client, url: str) -> None:
        self.label, self.client, self.url = label, client, url

    def measure(self, size: int) -> dict[str, Any]:
        if not getattr(self, "warm", False):  # the first request of a kind loads templates
            fetch(self.client, self.url)
            self.warm = True
        queries = []

        def count(execute: Any, sql: str, *args: Any) -> Any:
            queries.append(sql)
            return execute(sql, *args)

        # The test client clears the connection's query log as a request starts.
        with connection.execute_wrapper(count):
            runs = [fetch(self.client, self.url)]
        runs += [fetch(self.client, self.url) for _ in range(rounds(size) - 1)]
        settings.DEBUG = False
        tracemalloc.start()
        tracemalloc.reset_peak()
        fetch(self.client, self.url)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        walls = sorted(run[1] for run in runs)
        return {
            "first": statistics.median(run[0] for run in runs),
            "median": statistics.median(walls),
            "min": walls[0],
            "max": walls[-1],
            "bytes": runs[0][2],
            "peak": peak,
            "queries": len(queries),
        }


def rounds(size: int) -> int:
    return ROUNDS if size <= 10_000 else BIG_ROUNDS


def growth(small: float, large: float, ratio: float) -> str:
    """How a cost grew from the smallest size to the largest, ``ratio`` times more deals."""
    grew = large / small if small else float("inf")
    if grew < 1.5:
        return "flat"
    if grew > ratio / 3:
        return f"linear (x{grew:.0f})"
    return f"sublinear (x{grew:.1f})"


def size_text(size: float) -> str:
    for unit, scale in (("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size:.0f} B"


def main() -> None:
    settings.DEBUG = False
    db = connection.settings_dict
    vendor = connection.vendor
    scratch = tempfile.TemporaryDirectory()
    if vendor == "sqlite":
        db["TEST"]["NAME"] = os.path.join(scratch.name, "growth.sqlite3")
    else:
        db["TEST"]["NAME"] = os.environ.get("GROWTH_DATABASE", "scorekeeper_bench_growth")
    load = os.getloadavg()[0]
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {vendor} database;"
        f" sum(range(100)) takes {machine_speed():.2f} us; load {load:.2f}"
    )
    print(
        f"each figure: the median of {ROUNDS} rounds (min-max; {BIG_ROUNDS} above 10,000"
        " deals), in-process through Django"
    )
    old = setup_databases(verbosity=0, interactive=False)
    try:
        owner = User.objects.create_user("bench")
        group = services.create_group(owner, "Bench club", "EUR", "0.5", "classic-1-6")
        seats = [services.add_player(group, name, by=owner) for name in NAMES]
        services.set_pair_stake(group, seats[0], seats[1], 2, by=owner)
        session = services.start_session(group, seats, owner)
        web = Client(SERVER_NAME="127.0.0.1")
        web.force_login(owner)
        api = APIClient(SERVER_NAME="127.0.0.1")
        api.force_authenticate(user=owner)
        ann = seats[0].pk
        figures = [
            Figure("scoreboard", web, f"/sessions/{session.pk}/"),
            Figure("session end", web, f"/sessions/{session.pk}/summary/"),
            Figure("API summary", api, f"/api/v1/sessions/{session.pk}/summary/"),
            Figure("export", api, f"/api/v1/groups/{group.pk}/export/"),
            Figure("ledger JSON", api, f"/api/v1/groups/{group.pk}/ledger/?player={ann}"),
            Figure("ledger CSV", api, f"/api/v1/groups/{group.pk}/ledger/?player={ann}&format=csv"),
        ]
        only = os.environ.get("GROWTH_ONLY", "").split(",")
        figures = [figure for figure in figures if any(o in figure.label for o in only)]
        rng = random.Random(2026)
        table: dict[str, dict[int, dict[str, Any]]] = {f.label: {} for f in figures}
        for size in SIZES if figures else ():
            grow(session, owner, size, rng)
            for figure in figures:
                table[figure.label][size] = got = figure.measure(size)
                print(
                    f"  {size:>6,} deals  {figure.label:<12} median {got['median'] * 1000:7.0f} ms"
                    f" ({got['min'] * 1000:.0f}-{got['max'] * 1000:.0f}), first piece"
                    f" {got['first'] * 1000:6.0f} ms, {size_text(got['bytes']):>9},"
                    f" peak {got['peak'] / 2**20:6.1f} MiB, {got['queries']} queries"
                )
        if table:
            print()
            print(
                "| what | "
                + " | ".join(f"{size:,} deals" for size in SIZES)
                + " | target | how it grows (time; bytes; memory) | before |"
            )
            print("|---|" + "---|" * (len(SIZES) + 3))
            for label, by_size in table.items():
                cells = [
                    f"{g['median'] * 1000:.0f} ms, {size_text(g['bytes'])},"
                    f" {g['peak'] / 2**20:.1f} MiB"
                    + (
                        f", first {g['first'] * 1000:.0f} ms"
                        if g["first"] < g["median"] * 0.9
                        else ""
                    )
                    + f", {g['queries']} queries"
                    for g in by_size.values()
                ]
                before = "; ".join(f"{n:,}: {text}" for n, text in BEFORE.get(label, {}).items())
                small, large = by_size[SIZES[0]], by_size[SIZES[-1]]
                ratio = SIZES[-1] / SIZES[0]
                grows = "; ".join(
                    growth(small[key], large[key], ratio) for key in ("median", "bytes", "peak")
                )
                print(
                    f"| {label} | " + " | ".join(cells) + f" | {TARGETS.get(label, '')} | {grows}"
                    f" | {before} |"
                )
        for size in SIZES if "session end" in table and "API summary" in table else ():
            end, api_summary = table["session end"][size], table["API summary"][size]
            print(
                f"session end / API summary at {size:,} deals:"
                f" {end['median'] / api_summary['median']:.2f}"
            )
        if any(o in "season" for o in only):
            measure_season(owner, web, api, rng)
    finally:
        teardown_databases(old, verbosity=0)
        scratch.cleanup()


if __name__ == "__main__":
    main()
