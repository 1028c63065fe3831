"""The live table across two ASGI processes: two real Daphne processes share the Redis
channel layer and one database, the four seats' phones hold their sockets two on each,
and the seats open and submit over HTTP alternating between the processes. Every phone
hears every change, whichever process made it, and the recorded deal.

The servers run in production mode on a database of their own, made for this module and
migrated: a SQLite file (both processes open it) or, on PostgreSQL runs, a throw-away
database beside the test one. The channel layer is Redis database 9 of the local server
(TWO_PROCESSES_REDIS_URL), which only this file uses; skipped without Redis, failed under
REQUIRE_SERVICES=1."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from scripts import prodkit
from tests.conftest import skip_or_fail
from tests.live.helpers import hand

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("TWO_PROCESSES_REDIS_URL", "redis://127.0.0.1:6379/9")
WAIT = 30  # seconds a socket may take to hear a change on a loaded machine

SETUP = """
import json
from django.contrib.auth.models import User
from games import services
from games.live import seat_links
user = User.objects.create_user("two-processes")
group = services.create_group(user, "Two processes", "EUR", "0.5", "classic-1-6")
seats = [services.add_player(group, name, by=user) for name in ("Ann", "Bob", "Cy", "Di")]
session = services.start_session(group, seats, user)
tokens = [seat_links.token_for(link) for link in seat_links.make_links(session)]
print(json.dumps({"session": session.pk, "tokens": tokens}))
"""


@dataclass
class Served:
    ports: list[int]
    session: int
    tokens: list[str]
    env: dict[str, str]


@contextmanager
def server_database() -> Iterator[str]:
    """A DATABASE_URL both server processes reach, of the same kind as this test run's."""
    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        with prodkit.throwaway_database("scorekeeper_test_procs") as url:
            yield url
    else:
        with tempfile.TemporaryDirectory(prefix="scorekeeper-procs-") as folder:
            yield f"sqlite:///{folder}/live.sqlite3"


def daphne(port: int, env: dict[str, str], log: Any) -> subprocess.Popen[bytes]:
    """A Daphne process as scripts/serve_prod.sh starts one, once its /healthz answers."""
    command = [sys.executable, "-m", "daphne", "scorekeeper.asgi:application"]
    command += ["--bind", "127.0.0.1", "--port", str(port), "--application-close-timeout", "10"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3) as answer:
                health = json.load(answer)
            assert health["channel_layer"] == "ok", health
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    server.wait()
    raise RuntimeError(f"Daphne on port {port} did not start")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    import redis

    if not prodkit.redis_answers(REDIS):
        skip_or_fail(f"no Redis at {REDIS}")
    layer = redis.Redis.from_url(REDIS)
    layer.flushdb()
    with server_database() as database_url:
        env = {
            **prodkit.production_env(database_url),
            "CHANNEL_LAYER_URL": REDIS,
            "ALLOWED_HOSTS": "127.0.0.1",
        }
        # No broker: the reviews run in the server processes (tasks inline); no shared cache.
        for name in ("CELERY_BROKER_URL", "CACHE_URL", "CELERY_QUEUE"):
            env.pop(name)
        prodkit.manage(env, "migrate", "--noinput", "-v", "0")
        made = json.loads(prodkit.manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
        ports = [prodkit.free_port(), prodkit.free_port()]
        log_path = tmp_path_factory.mktemp("procs") / "daphne.log"
        servers: list[subprocess.Popen[bytes]] = []
        with log_path.open("wb") as log:
            try:
                servers += [daphne(port, env, log) for port in ports]
                yield Served(ports, made["session"], made["tokens"], env)
            finally:
                for server in servers:
                    server.terminate()
                for server in servers:
                    try:
                        server.wait(timeout=20)
                    except subprocess.TimeoutExpired:
                        server.kill()
                        server.wait()
    layer.flushdb()


@dataclass
class Phone:
    """One seat's phone: its socket on one process, and every change it heard."""

    seat: int
    port: int
    token: str
    device: str = field(default_factory=lambda: secrets.token_hex(16))
    heard: list[dict[str, Any]] = field(default_factory=list)
    socket: Any = None

    def http(self, port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """A request of this phone's (its seat token and device) to the process at ``port``."""
        headers = {"X-Seat-Token": self.token, "X-Seat-Device": self.device}
        return prodkit.request_json(
            method, f"http://127.0.0.1:{port}/api/v1{path}", body, headers, timeout=WAIT
        )

    async def listen(self) -> None:
        async for text in self.socket:
            message = json.loads(text)
            if message.get("type") == "changed" and message.get("state"):
                self.heard.append(message["state"])

    def has_heard(self, version: tuple[int, int]) -> dict[str, Any] | None:
        for state in self.heard:
            live = state.get("live")
            if live and (live["id"], live["version"]) == version:
                return state
        return None


def written(answer: tuple[int, Any], *expected: int) -> tuple[int, int]:
    """The deal in progress's (id, version) that a write answered."""
    status, state = answer
    assert status in expected, (status, state)
    return state["live"]["id"], state["live"]["version"]


async def play(served: Served) -> tuple[list[Phone], list[tuple[int, int]], dict[str, Any]]:
    """Seats 1 and 2 follow process A, seats 3 and 4 process B; seat 1 opens the deal
    through B, then seats 1 to 4 submit through A, B, A, B, each write heard by every
    phone before the next is sent. The phones, the versions written, the last answer."""
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    a, b = served.ports
    session = served.session
    phones = [
        Phone(seat, a if seat <= 2 else b, token)
        for seat, token in enumerate(served.tokens, start=1)
    ]
    for phone in phones:
        url = f"ws://127.0.0.1:{phone.port}/ws/sessions/{session}/"
        url += f"?seat={phone.token}&device={phone.device}"
        phone.socket = await connect(url, origin=Origin(f"http://127.0.0.1:{phone.port}"))
    listening = [asyncio.create_task(phone.listen()) for phone in phones]

    async def everyone_hears(version: tuple[int, int]) -> None:
        deadline = time.monotonic() + WAIT
        while not all(phone.has_heard(version) for phone in phones):
            if time.monotonic() > deadline:
                deaf = [p.seat for p in phones if not p.has_heard(version)]
                raise AssertionError(f"seats {deaf} never heard {version}")
            await asyncio.sleep(0.05)

    try:
        versions = []
        opened = await asyncio.to_thread(phones[0].http, b, "POST", f"/sessions/{session}/live/")
        versions.append(written(opened, 201))
        await everyone_hears(versions[-1])
        answer: tuple[int, Any] = opened
        for phone, port in zip(phones, [a, b, a, b], strict=True):
            path = f"/sessions/{session}/live/seats/{phone.seat}/submit/"
            answer = await asyncio.to_thread(
                phone.http, port, "POST", path, {"entry": hand(phone.seat)}
            )
            versions.append(written(answer, 200))
            await everyone_hears(versions[-1])
    finally:
        for phone in phones:
            await phone.socket.close()
        for task in listening:
            task.cancel()
    return phones, versions, answer[1]


def test_every_phone_hears_every_change_across_two_processes(served: Served) -> None:
    phones, versions, last = asyncio.run(play(served))

    # One deal in progress, changed five times (the open and four submits).
    assert len({live_id for live_id, _ in versions}) == 1
    assert len(set(versions)) == 5
    for phone in phones:
        heard = [phone.has_heard(version) for version in versions]
        assert all(heard), phone.seat
        opened, *submits = heard
        assert opened is not None and opened["live"]["status"] == "open"
        # After seat n's submit, seats 1 to n are in, and the others not yet.
        for n, state in enumerate(submits, start=1):
            assert state is not None
            states = {s["seat"]: s["state"] for s in state["live"]["seats"]}
            assert [states[seat] == "submitted" for seat in (1, 2, 3, 4)] == [
                seat <= n for seat in (1, 2, 3, 4)
            ], (phone.seat, n, states)
        # The recorded deal, as the last submit's answer has it: A -8, B +4, C +3, D +1.
        recorded = submits[-1]
        assert recorded is not None
        assert recorded["live"]["status"] == "recorded"
        assert recorded["live"]["deal"] == last["live"]["deal"]
        assert recorded["session"]["deals"] == 1
        assert recorded["live"]["deal"]["units"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}

    # Each process answers the recorded deal from the shared database, once.
    for port in served.ports:
        status, state = phones[0].http(port, "GET", f"/sessions/{served.session}/live/")
        assert status == 200
        assert state["session"]["deals"] == 1
        assert state["live"]["deal"] == last["live"]["deal"]
