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

At the end, the concurrency proof's checks (scripts/prove_concurrency.py): every deal
answered is stored once, numbers are gapless, totals sum to zero and match the answers.
Prints what the clients saw during each fault and how long recovery took; exits 1 when a
check fails.

Still to add, once documents render in the background (issue 4: `Document` rows, Celery
tasks in games/tasks.py): a `worker-killed` fault that SIGKILLs the Celery worker while
it renders a sheet, restarts it, and checks that no Document row stays `pending` forever.
Add it to FAULTS below; the clients, the checks and the report need no change.

    .venv/bin/python scripts/prove_faults.py --clients 8 --seconds 20
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts import prodkit, prove_concurrency

RESTART_COMMAND = "pg_ctlcluster 15 main restart"


@dataclass
class FaultReport:
    name: str
    outage_seconds: float = 0.0
    recovery_seconds: float | None = None
    statuses: Counter[str] = field(default_factory=Counter)
    health: Counter[str] = field(default_factory=Counter)

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
        ]


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


def restart_database(command: str) -> Callable[[], None]:
    def fault() -> None:
        subprocess.run(shlex.split(command), check=True, timeout=120)

    return fault


def run_fault(watch: Watch, name: str, fault: Callable[[], None], settle: float) -> FaultReport:
    report = FaultReport(name)
    with watch.lock:
        watch.fault, watch.fault_ended = report, 0.0
    began = time.monotonic()
    fault()
    with watch.lock:
        watch.fault_ended = time.monotonic()
    report.outage_seconds = watch.fault_ended - began
    time.sleep(settle)
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
    args = parser.parse_args()
    report = prove_concurrency.Report(args.clients, args.deals, args.sessions, args.workers)
    faults = {"database-restart": restart_database(args.restart_command)}
    results: list[FaultReport] = []
    with prodkit.throwaway_database("scorekeeper_faults") as database_url:
        env = prodkit.production_env(database_url, WEB_CONCURRENCY=str(args.workers))
        prodkit.manage(env, "migrate", "--noinput", "-v", "0")
        token = prodkit.make_user(env, "prover", "prover-password-1")
        with (
            tempfile.TemporaryDirectory() as tmp,
            prodkit.serving(env, Path(tmp) / "serve.log") as server,
        ):
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
                for name, fault in faults.items():
                    time.sleep(args.before)
                    print(f"fault: {name}", flush=True)
                    results.append(run_fault(watch, name, fault, settle=2))
                clients.join()
            finally:
                stop.set()
                prober.join()
            tracebacks = server.output().count("Traceback")
    for result in results:
        print("\n".join(result.lines()))
    print("\n".join(report.lines()))
    print(f"server log: {tracebacks} tracebacks (the outage's failed requests are logged)")
    unrecovered = [r.name for r in results if r.recovery_seconds is None]
    return 1 if report.problems or unrecovered else 0


if __name__ == "__main__":
    sys.exit(main())
