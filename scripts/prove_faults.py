"""Proof: faults mid-run give errors, never damaged data, and the service recovers.

WARNING: the `database-restart` fault restarts the whole PostgreSQL cluster
(`pg_ctlcluster 15 main restart`, or --restart-command): every other user of that server
loses its connections for a few seconds. Never run it from the test suite; on a shared
machine, tell the others first and run it once, briefly.

Starts the production recipe (scripts/serve_prod.sh: gunicorn and a Celery worker) on a
throw-away PostgreSQL database; CLIENTS threads record deals into shared sessions without
pause, each with an Idempotency-Key and retried (same key) on a connection error or a 5xx,
as a phone would. Then each fault in turn:

- database-restart: PostgreSQL restarts mid-run. During the outage the service must answer
  errors (503 with Retry-After, /healthz 503 naming the database), not hang and not
  store half a deal; afterwards it must answer again without being restarted itself.
- worker-killed: sheets and ledgers are asked for, and once one is being rendered the
  Celery worker (its own process group, started here apart from the web as Docker runs
  it; no other worker is touched) gets SIGKILL. It stays down for --worker-down seconds,
  while deals must still be stored (2xx only) and another sheet is asked for; then a new
  worker starts. Every document asked for must end `ready` or `failed`, none `pending`,
  within DOCUMENT_PENDING_TIMEOUT (--pending-timeout, short here) and half a minute.

At the end, the concurrency proof's checks (scripts/prove_concurrency.py): every deal
answered is stored once, numbers are gapless, totals sum to zero and match the answers.
Prints what the clients saw during each fault and how long recovery took; exits 1 when a
check fails. --faults picks the faults (both by default, in the order given).

    .venv/bin/python scripts/prove_faults.py --faults worker-killed --deals 150
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts import prodkit, prove_concurrency

RESTART_COMMAND = "pg_ctlcluster 15 main restart"
FAULTS = ("database-restart", "worker-killed")


@dataclass
class FaultReport:
    name: str
    outage_seconds: float = 0.0
    recovery_seconds: float | None = None
    statuses: Counter[str] = field(default_factory=Counter)
    health: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        recovered = (
            f"first deal stored {self.recovery_seconds:.1f} s after the fault ended"
            if self.recovery_seconds is not None
            else "NO deal stored after the fault"
        )
        return [
            f"fault {self.name}: {self.outage_seconds:.1f} s; {recovered}",
            f"  answers to deals during the fault: {dict(self.statuses)}",
            f"  /healthz during the fault: {dict(self.health)}",
            *(f"  {note}" for note in self.notes),
            *(f"  FAILED: {problem}" for problem in self.problems),
        ]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def nothing() -> None:
    pass


@dataclass
class Fault:
    cause: Callable[[], None]
    # Run once the fault is over: adds its own notes and problems to the report.
    check: Callable[[FaultReport], None] = lambda report: None
    # Run before the fault's time starts.
    prepare: Callable[[], None] = nothing


class Watch:
    """Samples what clients and /healthz see while a fault lasts."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.fault: FaultReport | None = None
        self.fault_ended = 0.0
        self.lock = threading.Lock()
        # Set by the first deal stored: faults start once the clients are recording.
        self.recording = threading.Event()

    def saw(self, status: int, body: object) -> None:
        if status == 201 and isinstance(body, dict) and "number" in body:
            self.recording.set()
        with self.lock:
            fault = self.fault
            if fault is None:
                return
            if self.fault_ended and status in (200, 201) and fault.recovery_seconds is None:
                fault.recovery_seconds = time.monotonic() - self.fault_ended
            if not self.fault_ended:
                fault.statuses[str(status) if status else "no answer"] += 1

    def probe_health(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                status, body = prodkit.request_json("GET", f"{self.base}/healthz", timeout=5)
                label = f"{status} {body}"
            except OSError as exc:
                label = f"no answer ({type(exc).__name__})"
            with self.lock:
                if self.fault is not None and not self.fault_ended:
                    self.fault.health[label] += 1
            stop.wait(0.5)


def restart_database(command: str) -> Fault:
    def fault() -> None:
        subprocess.run(shlex.split(command), check=True, timeout=120)

    return Fault(fault)


class WorkerKilled:
    """The worker-killed fault: see the module's docstring."""

    def __init__(
        self,
        workers: list[prodkit.Worker],
        start_worker: Callable[[], prodkit.Worker],
        client: prodkit.Client,
        database_url: str,
        down_seconds: float,
        pending_timeout: int,
    ) -> None:
        self.workers = workers
        self.start_worker = start_worker
        self.client = client
        self.database_url = database_url
        self.down_seconds = down_seconds
        self.pending_timeout = pending_timeout
        self.documents: list[int] = []
        self.mid_render: list[int] = []
        self.asked_while_down: list[int] = []
        self.ready_at = 0.0  # when the new worker was

    def ask(self, sheets: bool = True, ledgers: slice = slice(0, 2)) -> list[int]:
        """Every session's sheet on both papers and some players' ledgers; their ids."""
        import psycopg

        with psycopg.connect(self.database_url) as conn:
            seats = conn.execute(
                "SELECT session_id, player_id FROM games_sessionseat ORDER BY session_id, seat"
            ).fetchall()
        players: dict[int, list[int]] = {}
        for session, player in seats:
            players.setdefault(session, []).append(player)
        asked = []
        for session, seated in players.items():
            papers = ("A4", "Letter") if sheets else ()
            paths = [f"/sessions/{session}/sheets/?paper={p}" for p in papers]
            paths += [f"/sessions/{session}/ledgers/?player={p}" for p in seated[ledgers]]
            for path in paths:
                status, body = self.client.call("POST", path)
                if status not in (200, 202):
                    raise RuntimeError(f"POST {path}: {status} {body}")
                asked.append(body["id"])
                if body["id"] not in self.documents:
                    self.documents.append(body["id"])
        return asked

    def rendering(self) -> list[int]:
        """The documents asked for that a worker has begun and not finished."""
        import psycopg

        with psycopg.connect(self.database_url) as conn:
            rows = conn.execute(
                "SELECT id FROM games_document WHERE id = ANY(%s) AND status = 'pending'"
                " AND attempts > 0",
                (self.documents,),
            ).fetchall()
        return [row[0] for row in rows]

    def prepare(self) -> None:
        """Ask for documents until the worker is seen rendering one."""
        deadline = time.monotonic() + 60
        while not self.mid_render:
            if time.monotonic() > deadline:
                raise RuntimeError("no document was ever seen rendering")
            self.ask()
            # Sheets go stale as deals come in, so asking again makes new ones.
            until = time.monotonic() + 5
            while not self.mid_render and time.monotonic() < until:
                self.mid_render = self.rendering()
                time.sleep(0.02)

    def __call__(self) -> None:
        self.workers[-1].kill()
        print(f"  worker killed while rendering documents {self.mid_render}", flush=True)
        time.sleep(self.down_seconds / 2)
        self.asked_while_down = self.ask(sheets=False, ledgers=slice(2, 4))
        time.sleep(self.down_seconds / 2)
        self.start_worker().wait_until_ready()
        self.ready_at = time.monotonic()

    def renders(self, document: int) -> int:
        import psycopg

        with psycopg.connect(self.database_url) as conn:
            row = conn.execute(
                "SELECT attempts FROM games_document WHERE id = %s", (document,)
            ).fetchone()
        return int(row[0]) if row else 0

    def check(self, report: FaultReport) -> None:
        began = time.monotonic()
        bound = self.pending_timeout + 30
        outcomes: dict[int, dict[str, object]] = {}
        while time.monotonic() - began < bound:
            for document in self.documents:
                # Reading a status is what marks an overdue document failed.
                status, body = self.client.call("GET", f"/documents/{document}/")
                if status == 200 and body["status"] != "pending":
                    outcomes[document] = body
            if len(outcomes) == len(self.documents):
                break
            time.sleep(1)
        waited = time.monotonic() - self.ready_at
        ends = Counter(str(body["status"]) for body in outcomes.values())
        took = [
            datetime.fromisoformat(str(body["finished_at"]))
            - datetime.fromisoformat(str(body["requested_at"]))
            for body in outcomes.values()
        ]
        longest = max(took).total_seconds() if took else 0.0
        report.notes.append(
            f"{len(self.documents)} documents asked for ({len(self.asked_while_down)} while"
            f" no worker ran, {len(self.mid_render)} rendering when it was killed):"
            f" {dict(ends)}; all settled {waited:.1f} s after the new worker was ready,"
            f" the longest {longest:.1f} s after it was asked for"
            f" (DOCUMENT_PENDING_TIMEOUT {self.pending_timeout} s)"
        )
        for document, body in outcomes.items():
            if document in self.mid_render or body["status"] != "ready":
                killed = " (killed mid-render)" if document in self.mid_render else ""
                report.notes.append(
                    f"document {document}{killed}: {body['status']}"
                    f" after {plural(self.renders(document), 'render')} begun"
                    + (f" ({body['error']})" if body["error"] else "")
                )
        pending = [d for d in self.documents if d not in outcomes]
        if pending:
            report.problems.append(f"documents still pending after {bound} s: {pending}")
        if not report.statuses:
            report.problems.append("no deal was sent while the worker was down (more --deals)")
        refused = {k: n for k, n in report.statuses.items() if not k.startswith("2")}
        if refused:
            report.problems.append(f"deals answered other than 2xx with no worker: {refused}")


def run_fault(watch: Watch, name: str, fault: Fault, settle: float) -> FaultReport:
    report = FaultReport(name)
    fault.prepare()
    with watch.lock:
        watch.fault, watch.fault_ended = report, 0.0
    began = time.monotonic()
    fault.cause()
    with watch.lock:
        watch.fault_ended = time.monotonic()
    report.outage_seconds = watch.fault_ended - began
    time.sleep(settle)
    fault.check(report)
    return report


class WatchedClient(prodkit.Client):
    """A client that tells the watch every answer it gets."""

    def __init__(self, base: str, token: str, watch: Watch) -> None:
        super().__init__(base, token)
        self.watch = watch

    def call(
        self, method: str, path: str, body: object = None, **headers: str
    ) -> tuple[int, object]:
        try:
            status, answer = super().call(method, path, body, **headers)
        except OSError:
            self.watch.saw(0, None)
            raise
        self.watch.saw(status, answer)
        return status, answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--deals", type=int, default=60, help="deals per client")
    parser.add_argument("--sessions", type=int, default=2)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument(
        "--before", type=float, default=3, help="seconds of recording before each fault"
    )
    parser.add_argument("--restart-command", default=RESTART_COMMAND)
    parser.add_argument(
        "--faults", nargs="+", choices=FAULTS, default=list(FAULTS), help="the faults, in order"
    )
    parser.add_argument(
        "--worker-down", type=float, default=4, help="seconds between killing and restarting"
    )
    parser.add_argument(
        "--pending-timeout",
        type=int,
        default=60,
        help="DOCUMENT_PENDING_TIMEOUT of the web and the worker (seconds)",
    )
    args = parser.parse_args()
    report = prove_concurrency.Report(args.clients, args.deals, args.sessions, args.workers)
    results: list[FaultReport] = []
    workers: list[prodkit.Worker] = []
    with prodkit.throwaway_database("scorekeeper_faults") as database_url:
        env = prodkit.production_env(
            database_url,
            WEB_CONCURRENCY=str(args.workers),
            RUN_WORKER="false",
            DOCUMENT_PENDING_TIMEOUT=str(args.pending_timeout),
        )
        prodkit.manage(env, "migrate", "--noinput", "-v", "0")
        token = prodkit.make_user(env, "prover", "prover-password-1")
        with (
            tempfile.TemporaryDirectory() as tmp,
            prodkit.serving(env, Path(tmp) / "serve.log") as server,
        ):

            def start_worker() -> prodkit.Worker:
                workers.append(prodkit.Worker(env, Path(tmp) / "worker.log"))
                return workers[-1]

            try:
                start_worker().wait_until_ready()
                killer = WorkerKilled(
                    workers,
                    start_worker,
                    prodkit.Client(server.base, token),
                    database_url,
                    args.worker_down,
                    args.pending_timeout,
                )
                faults = {
                    "database-restart": restart_database(args.restart_command),
                    "worker-killed": Fault(killer, killer.check, killer.prepare),
                }
                watch = Watch(server.base)
                stop = threading.Event()
                prober = threading.Thread(target=watch.probe_health, args=(stop,))
                prober.start()
                clients = threading.Thread(
                    target=prove_concurrency.run_against,
                    args=(server, token, database_url, report),
                    kwargs={"resend": 0.05, "client": WatchedClient(server.base, token, watch)},
                )
                clients.start()
                try:
                    if not watch.recording.wait(timeout=300):
                        raise RuntimeError("the clients stored no deal")
                    for name in args.faults:
                        time.sleep(args.before)
                        print(f"fault: {name}", flush=True)
                        results.append(run_fault(watch, name, faults[name], settle=2))
                    clients.join()
                finally:
                    stop.set()
                    prober.join()
            finally:
                for worker in workers:
                    worker.stop()
            tracebacks = server.output().count("Traceback")
            worker_log = (Path(tmp) / "worker.log").read_text(errors="replace")
    worker_tracebacks = worker_log.count("Traceback")
    for result in results:
        print("\n".join(result.lines()))
    print("\n".join(report.lines()))
    print(f"server log: {tracebacks} tracebacks (the outage's failed requests are logged)")
    print(f"worker log: {worker_tracebacks} tracebacks, {len(workers)} workers started")
    failed = [r.name for r in results if r.recovery_seconds is None or r.problems]
    return 1 if report.problems or failed else 0


if __name__ == "__main__":
    sys.exit(main())
