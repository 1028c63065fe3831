"""Live table benchmark: many tables of four entering deals at once against one
ASGI process or several (prints figures, asserts nothing).

Starts LIVE_PROCESSES Daphne processes (1; ``scorekeeper.asgi``, production settings:
DEBUG off) on ports in a row, on a throw-away database (SQLite in a temporary file;
PostgreSQL when DATABASE_URL names one, in a database of its own dropped afterwards),
with the Redis channel layer on the local Redis (database LIVE_BENCH_REDIS_DB, emptied
before and after) when it answers, else the in-memory layer, and says which (more than
one process needs Redis: they hear each other through it). Deals queue their reviews in
Redis too (database LIVE_BENCH_BROKER_DB), as in production where a worker takes them;
no worker runs here.

LIVE_TABLES tables (50), each a group with a session of four seats. Every seat is a phone
as ``games/static/games/live.js`` is: a WebSocket ``ws/sessions/<id>/?seat=<token>&device=``
and HTTP with ``X-Seat-Token`` and its ``X-Seat-Device``; a ``{"type": "changed"}`` that
carries the deal's public state is shown from it (a fetch, ``GET sessions/<id>/live/``,
only when the seat's own part is needed), one without it is fetched. The sockets open in
batches, with retries. The phones are spread over the processes in turn: phone k holds
its socket on process k mod LIVE_PROCESSES and sends its HTTP requests there too, so a
table's four phones sit on different processes, as behind a round-robin load balancer.

Each of LIVE_DEALS rounds (5): seat 1 of every table opens a deal in progress, all tables
at once; once every phone has seen it, the four seats of every table submit their hands
(a shuffled deck dealt in rows) all at once. For each phone: the time from the moment its
table's last submit was sent until the phone showed the recorded deal (from the state the
socket brought, or the fetch that followed). Target (the issue's browser test): within a second.
Afterwards the database is checked: every table has LIVE_DEALS deals, each recorded once,
each summing to zero units. By default gunicorn (LIVE_WEB_WORKERS, 3 workers, as
``make serve-prod``) answers the HTTP requests and Daphne holds the sockets, the
production layout the targets are set for; LIVE_WEB_WORKERS=0 has Daphne answer
everything (as it does without Redis, which gunicorn would need to reach Daphne).

The servers count the SQL statements they run (benchmarks/live_counting.py: a hook on
every database connection of every server process, gunicorn's included, each process
writing its count to a file the benchmark adds up); ``statements_per_deal`` is what they
ran during the rounds (the opens, submits, fetches and phones' presence, everything but
opening the sockets) divided by the deals recorded.

The last line printed is the run in one line, for scripts to read (values measured):
``live_table tables=50 processes=1 median_s=0.61 p95_s=0.94 untold=0 deals_per_s=38.2
statements_per_deal=24``: every phone's result after its table's last submit (median
and p95, seconds), the phone-deals never told within LIVE_TIMEOUT, the deals a second
over the rounds and the statements a deal.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from api import free_port, throwaway_database  # noqa: E402
from engine import machine_speed, percentile, random_request  # noqa: E402
from live_support import Http, local_redis, server_log, statements  # noqa: E402

TABLES = int(os.environ.get("LIVE_TABLES", 50))
DEALS = int(os.environ.get("LIVE_DEALS", 5))
BATCH = int(os.environ.get("LIVE_SOCKET_BATCH", 20))
TIMEOUT = float(os.environ.get("LIVE_TIMEOUT", 30))  # seconds a phone may wait for a result
LAYER_DB = int(os.environ.get("LIVE_BENCH_REDIS_DB", 12))
BROKER_DB = int(os.environ.get("LIVE_BENCH_BROKER_DB", 13))
# N: gunicorn with N workers answers the HTTP requests, Daphne holds the sockets
# (production's split, as make serve-prod runs it); 0: Daphne answers them too.
WEB = int(os.environ.get("LIVE_WEB_WORKERS", 3))
PROCESSES = int(os.environ.get("LIVE_PROCESSES", 1))

SETUP_SCRIPT = """
import json
from django.contrib.auth.models import User
from games import services
from games.live import seat_links
user = User.objects.create_user("live-bench")
tables = []
for t in range(TABLES):
    group = services.create_group(user, f"Table {t}", "EUR", "0.5", "classic-1-6")
    seats = [services.add_player(group, n, by=user) for n in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, seats, user)
    tokens = [seat_links.token_for(link) for link in seat_links.make_links(session)]
    tables.append({"session": session.pk, "tokens": tokens})
print(json.dumps(tables))
"""

# Per session: deals, distinct numbers, recorded deals in progress, distinct deals they
# point at, deals whose units do not sum to zero.
CHECK_SCRIPT = """
import json
from decimal import Decimal
from games.models import Deal, LiveDeal, Session
out = {}
for session in Session.objects.all():
    deals = list(Deal.objects.filter(session=session, status="active"))
    lives = list(LiveDeal.objects.filter(session=session, status="recorded"))
    unbalanced = sum(
        1 for d in deals if sum(Decimal(str(p.get("units", 0))) for p in d.result["players"])
    )
    out[session.pk] = [len(deals), len({d.number for d in deals}), len(lives),
                       len({lv.deal_id for lv in lives}), unbalanced]
print(json.dumps(out))
"""


@dataclass
class Phone:
    """One seat's phone: what it last fetched, and when it first showed each result."""

    table: int
    seat: int
    session: int
    http: Http
    port: int  # the Daphne process holding its socket
    live_id: int | None = None
    live_status: str | None = None
    shown: dict[int, float] = field(default_factory=dict)  # live id -> when its deal showed
    fetches: int = 0
    pushed: int = 0  # changes that came with the state
    failures: list[str] = field(default_factory=list)
    pokes: list[tuple[float, str]] = field(default_factory=list)  # when each "changed" came
    socket: Any = None

    async def refresh(self) -> None:
        try:
            status, state = await self.http.request("GET", f"/sessions/{self.session}/live/")
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            self.failures.append(f"fetch: {error!r}")
            return
        self.fetches += 1
        if status == 200:
            self.saw(state, needs_you=False)

    def saw(self, state: dict[str, Any], *, needs_you: bool) -> bool:
        """Show ``state`` (fetched, or pushed without the seat's own part); False when a
        pushed state is not enough and live.js would fetch (its seat's conflicting cards,
        its entry in a deal it has not seen)."""
        live = state.get("live")
        if not live:
            return True
        if needs_you:
            mine = next((s for s in live["seats"] if s["seat"] == self.seat), None)
            unseen = live["id"] != self.live_id and (mine is None or mine["state"] != "waiting")
            if mine is None or mine["conflict"] or unseen:
                return False
        self.live_id, self.live_status = live["id"], live["status"]
        if live.get("deal") and live["id"] not in self.shown:
            self.shown[live["id"]] = time.perf_counter()
        return True

    async def listen(self) -> None:
        """As live.js: a change that carries the state is shown from it (a fetch only when
        the seat's own part is needed); one without ("deals") is fetched 0.4 s later,
        unless a change with the state comes first."""
        tasks: set[asyncio.Task[None]] = set()
        later: asyncio.Task[None] | None = None

        def fetch(delay: float = 0.0) -> asyncio.Task[None]:
            async def run() -> None:
                await asyncio.sleep(delay)
                await self.refresh()

            task = asyncio.create_task(run())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            return task

        try:
            async for text in self.socket:
                message = json.loads(text)
                if message.get("type") != "changed":
                    continue
                self.pokes.append((time.perf_counter(), message.get("what", "")))
                if later is not None:
                    later.cancel()
                    later = None
                if message.get("state") is not None:
                    self.pushed += 1
                    if not self.saw(message["state"], needs_you=True):
                        fetch()
                else:
                    later = fetch(0.4)
        except Exception as error:  # the socket dropped (a phone would poll)
            self.failures.append(f"socket: {error!r}")


async def open_socket(phone: Phone, token: str) -> int:
    """Open the phone's socket, retrying with backoff; the attempts it took (0: failed)."""
    from websockets.asyncio.client import connect

    port = phone.port
    url = f"ws://127.0.0.1:{port}/ws/sessions/{phone.session}/?seat={token}"
    url += f"&device={phone.http.device}"
    delay = 0.2
    for attempt in range(1, 7):
        try:
            phone.socket = await asyncio.wait_for(
                connect(url, origin=f"http://127.0.0.1:{port}", ping_interval=None),
                20,  # type: ignore[arg-type]
            )
            return attempt
        except (OSError, TimeoutError, Exception):
            await asyncio.sleep(delay * (1 + random.random()))
            delay *= 2
    return 0


async def open_sockets(phones: list[Phone], tokens: list[str]) -> None:
    start = time.perf_counter()
    attempts: list[int] = []
    for first in range(0, len(phones), BATCH):
        batch = range(first, min(first + BATCH, len(phones)))
        attempts += await asyncio.gather(*(open_socket(phones[k], tokens[k]) for k in batch))
    seconds = time.perf_counter() - start
    opened = sum(1 for a in attempts if a)
    retried = sum(1 for a in attempts if a > 1)
    print(
        f"  sockets: {opened} of {len(phones)} opened in {seconds:.1f} s"
        f" ({BATCH} at a time; {retried} needed a retry)"
    )


def hands(rng: random.Random) -> list[dict[str, str]]:
    """A shuffled deck dealt as four hands in rows (some fouled: those are scored too)."""
    players = random_request(rng)["players"]
    return [{row: p[row] for row in ("front", "middle", "back")} for p in players]


async def wait_for(condition: Any, seconds: float) -> bool:
    end = time.perf_counter() + seconds
    while not condition():
        if time.perf_counter() > end:
            return False
        await asyncio.sleep(0.02)
    return True


@dataclass
class Round:
    results: list[float] = field(default_factory=list)  # seconds, every phone that saw it
    missed: int = 0
    submits: list[float] = field(default_factory=list)
    refused: list[Any] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # the phones never told, and why
    seconds: float = 0.0


async def play_round(tables: list[list[Phone]], rng: random.Random) -> Round:
    out = Round()
    start = time.perf_counter()
    opened = await asyncio.gather(
        *(table[0].http.request("POST", f"/sessions/{table[0].session}/live/") for table in tables)
    )
    live_ids = []
    for status, state in opened:
        if status not in (200, 201):
            out.refused.append((status, state))
        live_ids.append(state["live"]["id"] if status in (200, 201) else None)
    # Every phone has seen the deal it is about to enter (its fetch after "changed").
    await wait_for(
        lambda: all(
            p.live_id == live_ids[t] and p.live_status == "open"
            for t, table in enumerate(tables)
            for p in table
        ),
        TIMEOUT,
    )
    last_sent = [0.0] * len(tables)

    async def submit(t: int, phone: Phone, entry: dict[str, str]) -> None:
        path = f"/sessions/{phone.session}/live/seats/{phone.seat}/submit/"
        sent = time.perf_counter()
        last_sent[t] = max(last_sent[t], sent)
        # Sent again after a 503's Retry-After with the same key, as the phone's queue does.
        key = secrets.token_hex(12)
        status, state = await phone.http.request("POST", path, {"entry": entry}, key)
        out.submits.append(time.perf_counter() - sent)
        if status != 200:
            out.refused.append((status, state))

    deals = [hands(rng) for _ in tables]
    await asyncio.gather(
        *(
            submit(t, phone, deals[t][phone.seat - 1])
            for t, table in enumerate(tables)
            for phone in table
        )
    )
    phones = [(t, p) for t, table in enumerate(tables) for p in table]
    await wait_for(lambda: all(live_ids[t] in p.shown for t, p in phones), TIMEOUT)
    for t, phone in phones:
        if live_ids[t] in phone.shown:
            out.results.append(phone.shown[live_ids[t]] - last_sent[t])
        else:
            out.missed += 1
            pokes = [what for at, what in phone.pokes if at >= last_sent[t]]
            out.lost.append(
                f"table {t} seat {phone.seat}: {pokes} pokes since its last submit, last seen"
                f" deal in progress {phone.live_id} ({phone.live_status}), waiting for"
                f" {live_ids[t]}; {phone.failures[-2:]}"
            )
    out.seconds = time.perf_counter() - start
    return out


def ms(samples: list[float], share: float) -> str:
    return f"{percentile(samples, share) * 1e3:.0f} ms" if samples else "-"


async def drive(
    ports: list[int], web_port: int | None, tables_made: list[dict[str, Any]], counts: Path
) -> tuple[list[Round], int]:
    """The phones' rounds; and the SQL statements the servers ran during them."""

    def phone(k: int, t: int, seat: int, session: int, token: str) -> Phone:
        port = ports[k % len(ports)]  # round-robin, as a load balancer spreads them
        return Phone(t, seat, session, Http(web_port or port, token), port)

    tables = [
        [
            phone(4 * t + seat - 1, t, seat, made["session"], token)
            for seat, token in enumerate(made["tokens"], start=1)
        ]
        for t, made in enumerate(tables_made)
    ]
    phones = [p for table in tables for p in table]
    tokens = [token for made in tables_made for token in made["tokens"]]
    await open_sockets(phones, tokens)
    listening = [asyncio.create_task(p.listen()) for p in phones if p.socket is not None]
    await asyncio.gather(*(p.refresh() for p in phones))  # as live.js does when it opens
    await asyncio.sleep(0.3)  # the counts of every process written since
    before = statements(counts)
    rng = random.Random(19)
    rounds = []
    for number in range(1, DEALS + 1):
        done = await play_round(tables, rng)
        rounds.append(done)
        print(
            f"  deal {number}: results median {ms(done.results, 0.5)}, p95"
            f" {ms(done.results, 0.95)}, max {ms(done.results, 1.0)}; {done.missed} phones"
            f" not told within {TIMEOUT:.0f} s; submits median {ms(done.submits, 0.5)};"
            f" round {done.seconds:.1f} s; {len(done.refused)} refused"
        )
        for status, answer in done.refused[:3]:
            print(f"    refused: {status} {str(answer)[:200]}")
        for line in done.lost[:8]:
            print(f"    never told: {line}")
        await asyncio.sleep(0.5)  # the fetches of the last pokes settle
    await asyncio.sleep(0.3)
    ran = statements(counts) - before
    fetches = sum(p.fetches for p in phones)
    pushed = sum(p.pushed for p in phones)
    failures = [f for p in phones for f in p.failures]
    busy = sum(p.http.busy for p in phones)
    # Each deal: the open and the four submits, each announced with the state to each phone.
    expected = 5 * DEALS * len(phones)
    print(
        f"  changes heard with their state: {pushed} of {expected}; fetches: {fetches}, the"
        f" first included ({len(failures)} failed fetches or dropped sockets)"
    )
    for kind in sorted(set(failures))[:5]:
        print(f"    {failures.count(kind)} x {kind[:200]}")
    print(f"  503 busy answers: {busy}, each request sent again after its Retry-After")
    for p in phones:
        if p.socket is not None:
            await p.socket.close()
        p.http.close()
    for task in listening:
        task.cancel()
    return rounds, ran


def final_line(
    tables: int,
    processes: int,
    median_s: float,
    p95_s: float,
    untold: int,
    deals_per_s: float,
    statements_per_deal: float,
) -> str:
    """The run in the one line the benchmark ends with."""
    return (
        f"live_table tables={tables} processes={processes} median_s={median_s:.2f}"
        f" p95_s={p95_s:.2f} untold={untold} deals_per_s={deals_per_s:.1f}"
        f" statements_per_deal={statements_per_deal:.0f}"
    )


def report(rounds: list[Round], ran: int) -> str:
    """Prints the figures of the rounds; the final line."""
    results = [s for r in rounds for s in r.results]
    submits = [s for r in rounds for s in r.submits]
    missed = sum(r.missed for r in rounds)
    seconds = sum(r.seconds for r in rounds)
    print(
        f"  every phone's result after its table's last submit, {len(results)} phone-deals:"
        f" median {ms(results, 0.5)}, p95 {ms(results, 0.95)}, max {ms(results, 1.0)};"
        f" {missed} never told within {TIMEOUT:.0f} s (target: every phone within 1 s)"
    )
    print(
        f"  submit (POST .../submit/, answered): median {ms(submits, 0.5)},"
        f" p95 {ms(submits, 0.95)}, max {ms(submits, 1.0)}"
    )
    print(
        f"  {TABLES * DEALS} deals in {seconds:.1f} s of rounds (open, every phone sees it,"
        f" four submits, every phone sees the result): {TABLES * DEALS / seconds:.1f} deals/s"
    )
    print(
        f"  SQL statements the servers ran during the rounds: {ran}, {ran / (TABLES * DEALS):.1f}"
        " a deal (BEGIN on SQLite counted, COMMIT not)"
    )
    return final_line(
        TABLES,
        PROCESSES,
        percentile(results, 0.5) if results else float("nan"),
        percentile(results, 0.95) if results else float("nan"),
        missed,
        TABLES * DEALS / seconds,
        ran / (TABLES * DEALS),
    )


def check(env: dict[str, str]) -> None:
    answer = manage(env, CHECK_SCRIPT)
    rows = json.loads(answer)
    wrong = {
        pk: row
        for pk, row in rows.items()
        if row[:4] != [DEALS, DEALS, DEALS, DEALS] or row[4] != 0
    }
    print(
        f"  database: {len(rows)} sessions; {len(rows) - len(wrong)} with exactly {DEALS} deals,"
        " each recorded once, numbered apart, units summing to zero"
        + (f"; WRONG (deals, numbers, recorded, distinct, unbalanced): {wrong}" if wrong else "")
    )


def manage(env: dict[str, str], script: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        text=True,
        capture_output=True,
    )
    return done.stdout.strip().splitlines()[-1]


def start(command: list[str], env: dict[str, str], port: int, log: Any) -> subprocess.Popen[bytes]:
    """A server process, once its /healthz answers."""
    import urllib.request

    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"{command[2]} did not start")


def daphne(port: int) -> list[str]:
    # scorekeeper.asgi's application, its SQL statements counted.
    command = [sys.executable, "-m", "daphne", "benchmarks.live_counting:application"]
    command += ["--bind", "127.0.0.1", "--port", str(port), "--verbosity", "0"]
    return [*command, "--application-close-timeout", "10"]  # as scripts/serve_prod.sh


def gunicorn(port: int) -> list[str]:
    command = [sys.executable, "-m", "gunicorn", "benchmarks.live_counting:wsgi"]
    command += ["--workers", str(WEB)]
    return [*command, "--bind", f"127.0.0.1:{port}", "--log-level", "warning"]


def ports_in_a_row(count: int) -> list[int]:
    """``count`` free ports one after another."""
    import socket

    for _ in range(50):
        first = free_port()
        try:
            for port in range(first, first + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return list(range(first, first + count))
    raise SystemExit(f"no {count} free ports in a row")


def serve_and_drive(env: dict[str, str], made: list[dict[str, Any]]) -> tuple[list[Round], int]:
    """The Daphne processes (and gunicorn for the HTTP requests, with LIVE_WEB_WORKERS),
    the phones; the rounds and the SQL statements run during them."""
    live_ports = ports_in_a_row(PROCESSES)
    web_port = free_port() if WEB else None
    with (
        tempfile.TemporaryFile("w+") as log,
        tempfile.TemporaryDirectory(prefix="live-counts-") as counts,
    ):
        env = {**env, "LIVE_COUNT_DIR": counts}
        servers = []
        try:
            for port in live_ports:
                servers.append(start(daphne(port), env, port, log))
            if web_port:
                servers.append(start(gunicorn(web_port), env, web_port, log))
            rounds, ran = asyncio.run(drive(live_ports, web_port, made, Path(counts)))
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                try:
                    server.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    print(f"  {server.args[2]} did not stop within 15 s of SIGTERM: killed")
                    server.kill()
                    server.wait()
        log.seek(0)
        server_log(log.read().splitlines())
    return rounds, ran


def main() -> None:
    global WEB  # 0 without Redis, unless asked for
    layer, broker = local_redis(LAYER_DB), local_redis(BROKER_DB)
    with throwaway_database() as database_url:
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback, as behind a proxy
        }
        for name in ("REDIS_URL", "CACHE_URL", "CHANNEL_LAYER_URL", "CELERY_BROKER_URL"):
            env.pop(name, None)
        if layer:
            env["CHANNEL_LAYER_URL"] = layer
        elif WEB:
            if "LIVE_WEB_WORKERS" in os.environ:
                raise SystemExit("LIVE_WEB_WORKERS needs Redis: gunicorn reaches Daphne through it")
            print("  no Redis: Daphne answers the HTTP requests too (LIVE_WEB_WORKERS=0)")
            WEB = 0
        elif PROCESSES > 1:
            raise SystemExit("LIVE_PROCESSES above 1 needs Redis: the processes share it")
        if broker:
            env["CELERY_BROKER_URL"] = broker
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        made = json.loads(manage(env, SETUP_SCRIPT.replace("TABLES", str(TABLES))))
        database = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
        print(
            f"live table: {TABLES} tables of four, {DEALS} deals each,"
            f" {'one Daphne process' if PROCESSES == 1 else f'{PROCESSES} Daphne processes'}"
            f"{f' for the sockets, gunicorn ({WEB} workers) for HTTP' if WEB else ''}"
            f" ({database}; channel layer: {'Redis' if layer else 'in-memory, no Redis'};"
            f" reviews {'queued in Redis, no worker' if broker else 'inline: no Redis'});"
            f" load {os.getloadavg()[0]:.2f}, sum(range(100)) takes {machine_speed():.2f} us"
        )
        rounds, ran = serve_and_drive(env, made)
        line = report(rounds, ran)
        check(env)
        print(f"  load afterwards {os.getloadavg()[0]:.2f}")
    for url in (layer, broker):
        if url:
            import redis

            redis.Redis.from_url(url).flushdb()
    print(line)  # the last line, always


if __name__ == "__main__":
    main()
