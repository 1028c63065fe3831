"""PostgreSQL connections under ASGI stay bounded and are reused: a real Daphne process in
production mode holds 200 phones' sockets (50 tables of four) while every phone asks for
its table's state and every table opens a deal, all at once, twice over. Its connections
(told apart by PGAPPNAME, which libpq reads) never pass psycopg's pool maximum, however
many sockets and requests there are, and the same few connections serve both bursts:
requests and socket consumers hand theirs back to the pool, and none is left inside a
transaction.

PostgreSQL only: SQLite has no connections to count. The server uses the in-memory
channel layer (one process), so no Redis is needed."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings

from scorekeeper.env import POOL
from scripts import prodkit

pytestmark = pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="counts PostgreSQL's connections (CI runs it on PostgreSQL)",
)

ROOT = Path(__file__).resolve().parents[2]
TABLES = 50
MAX_REQUESTS = 10  # ASGI_MAX_REQUESTS, the default

SETUP = """
import json
from django.contrib.auth.models import User
from games import services
from games.live import seat_links
user = User.objects.create_user("bound")
made = []
for t in range(TABLES):
    group = services.create_group(user, f"Table {t}", "EUR", "0.5", "classic-1-6")
    seats = [services.add_player(group, name, by=user) for name in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, seats, user)
    tokens = [seat_links.token_for(link) for link in seat_links.make_links(session)]
    made.append({"session": session.pk, "tokens": tokens})
print(json.dumps(made))
"""


@dataclass
class Served:
    port: int
    url: str  # the database's, for counting its connections
    app: str  # the server's application_name
    tables: list[dict[str, Any]]


@dataclass
class Watch:
    """Samples the server's connections every few milliseconds, from a thread."""

    url: str
    app: str
    peak: int = 0
    pids: set[int] = field(default_factory=set)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as own:
            while not self.stop.is_set():
                rows = own.execute(
                    "SELECT pid FROM pg_stat_activity WHERE application_name = %s", [self.app]
                ).fetchall()
                self.peak = max(self.peak, len(rows))
                self.pids.update(pid for (pid,) in rows)
                time.sleep(0.005)

    def states(self) -> list[str]:
        with psycopg.connect(self.url, autocommit=True) as own:
            rows = own.execute(
                "SELECT state FROM pg_stat_activity WHERE application_name = %s", [self.app]
            ).fetchall()
        return [state for (state,) in rows]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    app = f"scorekeeper-bound-{secrets.token_hex(4)}"
    with prodkit.throwaway_database("scorekeeper_test_bound") as database_url:
        env = {**prodkit.production_env(database_url), "ALLOWED_HOSTS": "127.0.0.1"}
        for name in ("CELERY_BROKER_URL", "CACHE_URL", "CELERY_QUEUE", "CHANNEL_LAYER_URL"):
            env.pop(name)
        prodkit.manage(env, "migrate", "--noinput", "-v", "0")
        script = SETUP.replace("TABLES", str(TABLES))
        tables = json.loads(prodkit.manage(env, "shell", "-c", script).strip().splitlines()[-1])
        port = prodkit.free_port()
        command = [sys.executable, "-m", "daphne", "scorekeeper.asgi:application"]
        command += ["--bind", "127.0.0.1", "--port", str(port)]
        log_path = tmp_path_factory.mktemp("bound") / "daphne.log"
        with log_path.open("wb") as log:
            server = subprocess.Popen(
                command, cwd=ROOT, env={**env, "PGAPPNAME": app}, stdout=log, stderr=log
            )
            try:
                deadline = time.monotonic() + 120
                while True:
                    try:
                        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3)
                        break
                    except OSError:
                        if time.monotonic() > deadline or server.poll() is not None:
                            raise RuntimeError(log_path.read_text()[-3000:]) from None
                        time.sleep(0.2)
                yield Served(port, database_url, app, tables)
            finally:
                server.terminate()
                try:
                    server.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()


def request(served: Served, token: str, method: str, path: str) -> int:
    headers = {"X-Seat-Token": token, "X-Seat-Device": token[-16:]}
    status, _answer = prodkit.request_json(
        method, f"http://127.0.0.1:{served.port}/api/v1{path}", None, headers, timeout=60
    )
    return status


def burst(served: Served) -> list[int]:
    """Every phone asks for its table's state and every table's first seat opens a deal,
    all at once (from 100 threads)."""
    calls = []
    for table in served.tables:
        path = f"/sessions/{table['session']}/live/"
        calls += [(token, "GET", path) for token in table["tokens"]]
        calls.append((table["tokens"][0], "POST", path))
    with ThreadPoolExecutor(max_workers=100) as pool:
        return list(pool.map(lambda call: request(served, *call), calls))


async def hold_sockets(served: Served, ready: threading.Event, done: threading.Event) -> int:
    """Opens every phone's socket, holds them until ``done``; how many were accepted."""
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    origin = Origin(f"http://127.0.0.1:{served.port}")
    sockets = []
    for table in served.tables:
        for token in table["tokens"]:
            url = f"ws://127.0.0.1:{served.port}/ws/sessions/{table['session']}/"
            sockets.append(await connect(f"{url}?seat={token}&device={token[-16:]}", origin=origin))
    ready.set()
    while not done.is_set():
        await asyncio.sleep(0.05)
    opened = sum(1 for socket in sockets if socket.state.name == "OPEN")
    for socket in sockets:
        await socket.close()
    return opened


def test_two_hundred_sockets_and_their_requests_stay_within_the_pool(served: Served) -> None:
    ready, done = threading.Event(), threading.Event()
    held: list[int] = []
    sockets = threading.Thread(
        target=lambda: held.append(asyncio.run(hold_sockets(served, ready, done)))
    )
    sockets.start()
    assert ready.wait(120), "the sockets did not open"
    watch = Watch(served.url, served.app)
    sampler = threading.Thread(target=watch.run)
    sampler.start()
    try:
        first = burst(served)
        time.sleep(0.5)
        between = watch.states()
        second = burst(served)
        time.sleep(0.5)
    finally:
        watch.stop.set()
        sampler.join()
        done.set()
        sockets.join()

    calls = TABLES * 5
    assert sorted(set(first)) == [200, 201] and len(first) == calls
    assert first.count(201) == TABLES  # every table's deal opened
    assert set(second) == {200} and len(second) == calls  # the same deals, already open
    assert held == [TABLES * 4]  # every socket stayed open throughout
    # Never more connections than the pool allows, though 200 sockets were open and 500
    # requests came 100 at a time; in fact about one per request running at once.
    assert 1 <= watch.peak <= POOL["max_size"], watch.peak
    assert watch.peak <= MAX_REQUESTS + 4, watch.peak
    # The same connections served both bursts: given back to the pool, not opened anew.
    assert len(watch.pids) <= POOL["max_size"], sorted(watch.pids)
    # Between the bursts, every connection is idle in the pool, none inside a transaction.
    assert between and set(between) == {"idle"}, between
    assert watch.states().count("idle in transaction") == 0
