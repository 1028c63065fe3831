"""Proof: many phones entering deals into the same sessions at once lose nothing.

Starts the production recipe (scripts/serve_prod.sh: gunicorn with several workers and a
Celery worker) on a throw-away PostgreSQL database, then CLIENTS threads each record DEALS
deals into SESSIONS shared sessions at once. Every deal carries an Idempotency-Key; a
request that fails (connection error, timeout, 5xx) is retried with the same key, and a
share of the deals (RESEND) is sent a second time after its answer, as a phone that never
heard back would. Afterwards, from the API and from the database:

- every deal answered is stored once (none lost, none duplicated), a resent one answers
  200 with the same deal;
- each session's numbers are 1..N without a gap;
- each session's summary sums to zero, and each player's total equals the sum of the
  results the clients were answered.

Prints the figures (deals per second, latency) and exits 1 when a check fails.

    .venv/bin/python scripts/prove_concurrency.py --clients 16 --deals 200
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts import prodkit

NAMES = ("Ann", "Bob", "Cy", "Di")
RANKS = "23456789TJQKA"
DECK = [rank + suit for rank in RANKS for suit in "cdhs"]
# With the back-off below, a deal is tried for about 20 s before it counts as failed.
ATTEMPTS = 14


def random_deal(rng: random.Random) -> list[dict[str, str]]:
    """Four players' rows from one shuffled deck (fouls included: they are scored too)."""
    cards = rng.sample(DECK, 52)
    return [
        {
            "name": name,
            "front": " ".join(cards[13 * k : 13 * k + 3]),
            "middle": " ".join(cards[13 * k + 3 : 13 * k + 8]),
            "back": " ".join(cards[13 * k + 8 : 13 * k + 13]),
        }
        for k, name in enumerate(NAMES)
    ]


@dataclass
class Report:
    clients: int
    deals_each: int
    sessions: int
    web_workers: int
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    retries: int = 0
    resends: int = 0
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, what: str) -> None:
        with self.lock:
            setattr(self, what, getattr(self, what) + 1)

    @property
    def deals(self) -> int:
        return self.clients * self.deals_each

    def lines(self) -> list[str]:
        ms = sorted(x * 1000 for x in self.latencies) or [0.0]
        return [
            f"{self.clients} clients x {self.deals_each} deals into {self.sessions} shared"
            f" sessions (gunicorn, {self.web_workers} workers, PostgreSQL)",
            f"  {self.deals} deals in {self.seconds:.1f} s:"
            f" {self.deals / max(self.seconds, 1e-9):.0f} deals/s",
            f"  latency median {statistics.median(ms):.0f} ms,"
            f" p95 {ms[int(len(ms) * 0.95) - 1]:.0f} ms, max {ms[-1]:.0f} ms",
            f"  {self.retries} requests retried after an error, {self.resends} deals resent"
            " with their key after a success",
            "  checks: " + ("all passed" if not self.problems else f"{len(self.problems)} FAILED"),
            *(f"    {problem}" for problem in self.problems[:20]),
        ]


@dataclass
class Answered:
    """What a client was told about one deal."""

    session: int
    deal_id: int
    number: int
    units: dict[str, Decimal]


def post_with_retries(
    client: prodkit.Client, report: Report, path: str, body: Any, key: str
) -> tuple[int, Any]:
    """POST until an answer that is not a server or connection error (same key each time)."""
    answer: tuple[int, Any] = (0, "never sent")
    for attempt in range(ATTEMPTS):
        try:
            answer = client.call("POST", path, body, **{"Idempotency-Key": key})
        except OSError as exc:
            answer = (0, repr(exc))
        if answer[0] and answer[0] < 500:
            return answer
        report.count("retries")
        time.sleep(min(2.0, 0.05 * 2**attempt))
    return answer


def enter_deals(
    client: prodkit.Client,
    report: Report,
    k: int,
    session: int,
    resend: float,
    answered: dict[str, Answered],
    start: threading.Barrier,
) -> None:
    rng = random.Random(k)
    start.wait()
    for n in range(report.deals_each):
        key = f"client-{k}:{n}"
        path = f"/sessions/{session}/deals/"
        body = {"players": random_deal(rng)}
        began = time.perf_counter()
        status, deal = post_with_retries(client, report, path, body, key)
        report.latencies.append(time.perf_counter() - began)
        if status not in (200, 201):
            report.problems.append(f"{key}: {status} {str(deal)[:200]}")
            continue
        answered[key] = Answered(
            session,
            deal["id"],
            deal["number"],
            {p["name"]: Decimal(p["units"]) for p in deal["result"]["players"]},
        )
        if rng.random() < resend:
            report.count("resends")
            again, replay = post_with_retries(client, report, path, body, key)
            if again != 200 or replay.get("id") != deal["id"]:
                report.problems.append(f"{key} resent: {again}, not the same deal")


def check(
    client: prodkit.Client,
    database_url: str,
    report: Report,
    sessions: list[int],
    answered: dict[str, Answered],
) -> None:
    import psycopg

    problems = report.problems
    if len(answered) != report.deals:
        problems.append(f"{report.deals - len(answered)} deals never got a success answer")
    for session in sessions:
        mine = [a for a in answered.values() if a.session == session]
        stored = client.all_pages(f"/sessions/{session}/deals/")
        numbers = [deal["number"] for deal in stored]
        if numbers != list(range(1, len(stored) + 1)):
            problems.append(f"session {session}: numbers are not 1..{len(stored)}")
        if Counter(deal["id"] for deal in stored) != Counter(a.deal_id for a in mine):
            problems.append(
                f"session {session}: {len(stored)} deals stored, {len(mine)} answered:"
                " lost or duplicated deals"
            )
        _, summary = client.call("GET", f"/sessions/{session}/summary/")
        totals = {p["name"]: Decimal(p["units"]) for p in summary["players"]}
        if sum(totals.values()) != 0:
            problems.append(f"session {session}: the totals sum to {sum(totals.values())}")
        expected = {
            name: sum((a.units.get(name, Decimal(0)) for a in mine), Decimal(0)) for name in NAMES
        }
        if totals != expected:
            problems.append(f"session {session}: totals {totals} != answered {expected}")
    with psycopg.connect(database_url) as conn:
        duplicated_keys = conn.execute(
            "SELECT count(*) FROM (SELECT session_id, idempotency_key FROM games_deal"
            " GROUP BY 1, 2 HAVING count(*) > 1) d"
        ).fetchone()
        orphan_rows = conn.execute(
            "SELECT count(*) FROM games_deal d WHERE d.status = 'active' AND NOT EXISTS"
            " (SELECT 1 FROM games_ledgerentry e WHERE e.deal_id = d.id)"
        ).fetchone()
    if duplicated_keys and duplicated_keys[0]:
        problems.append(f"{duplicated_keys[0]} idempotency keys stored twice")
    if orphan_rows and orphan_rows[0]:
        problems.append(f"{orphan_rows[0]} active deals without ledger rows")


def setup(client: prodkit.Client, count: int) -> list[int]:
    status, group = client.call(
        "POST", "/groups/", {"name": "Proof night", "unit_value": "0.5", "rules": "classic-1-6"}
    )
    assert status == 201, group
    for name in NAMES:
        client.call("POST", f"/groups/{group['id']}/players/", {"name": name})
    sessions = []
    for _ in range(count):
        status, session = client.call(
            "POST", "/sessions/", {"group": group["id"], "players": list(NAMES)}
        )
        assert status == 201, session
        sessions.append(int(session["id"]))
    return sessions


def run_against(
    server: prodkit.Server,
    token: str,
    database_url: str,
    report: Report,
    resend: float = 0.1,
    client: prodkit.Client | None = None,
) -> Report:
    """The proof against a running server (the test suite shares one with other checks);
    `client` replaces the plain token client (the fault proof watches every answer)."""
    client = client or prodkit.Client(server.base, token)
    sessions = setup(client, report.sessions)
    answered: dict[str, Answered] = {}
    start = threading.Barrier(report.clients)
    threads = [
        threading.Thread(
            target=enter_deals,
            args=(client, report, k, sessions[k % len(sessions)], resend, answered, start),
        )
        for k in range(report.clients)
    ]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    report.seconds = time.perf_counter() - began
    check(client, database_url, report, sessions, answered)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--deals", type=int, default=200, help="deals per client")
    parser.add_argument("--sessions", type=int, default=4, help="sessions the clients share")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--resend", type=float, default=0.1, help="share of deals sent twice")
    args = parser.parse_args()
    report = Report(args.clients, args.deals, args.sessions, args.workers)
    with prodkit.throwaway_database("scorekeeper_proof") as database_url:
        env = prodkit.production_env(database_url, WEB_CONCURRENCY=str(args.workers))
        prodkit.manage(env, "migrate", "--noinput", "-v", "0")
        token = prodkit.make_user(env, "prover", "prover-password-1")
        with (
            tempfile.TemporaryDirectory() as tmp,
            prodkit.serving(env, Path(tmp) / "serve.log") as server,
        ):
            print(f"serving at {server.base}; {args.clients} clients start", flush=True)
            run_against(server, token, database_url, report, args.resend)
    print("\n".join(report.lines()))
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
