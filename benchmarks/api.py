"""API benchmark: recording deals over HTTP (prints figures, asserts nothing).

Starts the service in a child process on a throw-away database (SQLite in a temporary
file; PostgreSQL when DATABASE_URL names one, in a database of its own that is dropped
afterwards), with gunicorn when it is installed (else Django's threaded runserver),
then through the REST API: one client records deals one after another (latency median
and p95), then several clients record at once, into one shared session and into a
session each (deals per second). Targets: median under 15 ms per deal.

Each deal queues its arrangement review (a Celery task) and announces itself to the pages
that follow the session (the channel layer). As in production, the server gets a broker,
a channel layer and a cache (the local Redis, database BENCH_REDIS_DB, emptied before and
after) and the reviews wait there while the web figures are taken; then one worker starts and the
time it takes to review every deal is reported. Without Redis the tasks run inline in
the web process, as in the embedded default, and the figures say so.

A/B mode (``BENCH_AB=name,name,...``, names from ``VARIANTS``, ``a+b`` for both): one
gunicorn per variant, each with the production settings and that variant's lines on top,
all on the same database and Redis; then ``AB_ROUNDS`` rounds of ``AB_DEALS`` deals one
after another, every variant in each round, in an order that turns round by round, so
that the machine's swings fall on all of them alike. Prints each variant's median and p95
over all its deals, and each round's medians.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from engine import machine_speed, percentile, random_request  # noqa: E402

NAMES = ("Ann", "Bob", "Cy", "Di")
SEQUENTIAL = int(os.environ.get("SEQUENTIAL", 300))
CLIENTS = 8
PER_CLIENT = int(os.environ.get("PER_CLIENT", 50))
REDIS_DB = int(os.environ.get("BENCH_REDIS_DB", 14))
AB_ROUNDS = int(os.environ.get("AB_ROUNDS", 10))
AB_DEALS = int(os.environ.get("AB_DEALS", 100))

# The A/B mode's variants: lines added to the production settings (``DATABASES`` as the
# DATABASE_URL gives it).
VARIANTS: dict[str, str] = {
    "production": "",
    # Django keeps a connection per process (60 s), checked with SELECT 1 per request,
    # instead of psycopg's pool.
    "kept": """
DATABASES["default"]["OPTIONS"].pop("pool")
DATABASES["default"]["CONN_MAX_AGE"] = 60
""",
    # Parameters bound in the client and nothing prepared (Django's defaults).
    "unprepared": """
DATABASES["default"]["OPTIONS"].pop("server_side_binding")
DATABASES["default"]["OPTIONS"].pop("prepare_threshold")
""",
}


@contextmanager
def throwaway_database() -> Iterator[str]:
    """A DATABASE_URL for an empty database that is removed afterwards."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{tmp}/bench.sqlite3"
        return
    import psycopg

    parts = urlsplit(url)
    name = f"scorekeeper_bench_api_{secrets.token_hex(4)}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Client:
    def __init__(self, base: str, token: str) -> None:
        self.base = base
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def post(self, path: str, body: Any, **headers: str) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={**self.headers, **headers},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            text = error.read().decode(errors="replace")
            try:
                return error.code, json.loads(text)
            except ValueError:  # an HTML error page
                return error.code, text[:200]

    def get(self, path: str) -> Any:
        request = urllib.request.Request(self.base + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())


def start_server(env: dict[str, str], port: int) -> tuple[subprocess.Popen[bytes], str]:
    if importlib.util.find_spec("gunicorn"):
        command = [sys.executable, "-m", "gunicorn", "scorekeeper.wsgi", "--workers", "2"]
        command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
        kind = "gunicorn, 2 workers"
    else:
        command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
        kind = "runserver (threaded)"
    server = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server, kind
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def compare(env: dict[str, str], token: str, names: list[str]) -> None:
    """The A/B mode (see the module's docstring)."""
    unknown = [part for name in names for part in name.split("+") if part not in VARIANTS]
    if unknown:
        known = ", ".join(VARIANTS)
        raise SystemExit(f"BENCH_AB: no variant {', '.join(unknown)} (known: {known})")
    servers: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            clients = {}
            for name in names:
                module = "bench_" + "".join(c if c.isalnum() else "_" for c in name)
                lines = "".join(VARIANTS[part] for part in name.split("+"))
                text = f"from scorekeeper.settings import *  # noqa: F403\n{lines}"
                Path(tmp, f"{module}.py").write_text(text)
                path = os.pathsep.join(filter(None, [tmp, env.get("PYTHONPATH")]))
                variant_env = {**env, "DJANGO_SETTINGS_MODULE": module, "PYTHONPATH": path}
                port = free_port()
                server, kind = start_server(variant_env, port)
                servers.append(server)
                clients[name] = Client(f"http://127.0.0.1:{port}/api/v1", token)
            ab_rounds(clients, kind)
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=10)


def ab_rounds(clients: dict[str, Client], kind: str) -> None:
    rng = random.Random(2026)
    first = next(iter(clients.values()))
    status, group = first.post(
        "/groups/", {"name": "A/B night", "unit_value": "0.5", "rules": "classic-1-6"}
    )
    assert status == 201, group
    for name in NAMES:
        first.post(f"/groups/{group['id']}/players/", {"name": name})
    sessions = {name: new_session(first, group["id"]) for name in clients}
    print(
        f"A/B: {', '.join(clients)} ({kind} each, one database);"
        f" {AB_ROUNDS} rounds of {AB_DEALS} deals each, one client;"
        f" sum(range(100)) takes {machine_speed():.2f} us"
    )
    for name, client in clients.items():  # warm up every worker
        for _ in range(20):
            client.post(f"/sessions/{sessions[name]}/deals/", {"players": deal_players(rng)})
    timings: dict[str, list[float]] = {name: [] for name in clients}
    order = list(clients)
    for round_ in range(AB_ROUNDS):
        medians = []
        for name in order:
            these = []
            for _ in range(AB_DEALS):
                body = {"players": deal_players(rng)}
                start = time.perf_counter()
                status, answer = clients[name].post(f"/sessions/{sessions[name]}/deals/", body)
                these.append(time.perf_counter() - start)
                assert status == 201, answer
            timings[name] += these
            medians.append(f"{name} {statistics.median(these) * 1e3:.2f}")
        print(f"  round {round_ + 1}: " + ", ".join(medians) + " ms")
        order = order[1:] + order[:1]
    reference = next(iter(clients))
    base = statistics.median(timings[reference])
    for name, these in timings.items():
        median = statistics.median(these)
        print(
            f"  {name}: {len(these)} deals, median {median * 1e3:.2f} ms,"
            f" p95 {percentile(these, 0.95) * 1e3:.2f} ms ({median / base:.2f} of {reference})"
        )


def deal_players(rng: random.Random) -> list[dict[str, Any]]:
    players: list[dict[str, Any]] = random_request(rng)["players"]
    return players


def main() -> None:
    with throwaway_database() as database_url:
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1",
            # Plain HTTP on loopback, as behind a TLS-terminating proxy.
            "SECURE_SSL_REDIRECT": "false",
        }
        broker = local_broker()
        if broker is None:
            env.pop("CELERY_BROKER_URL", None)
        else:
            # As the production recipe: the broker, the live updates' channel layer and
            # the cache in Redis (each deal announces itself to the pages that follow).
            env.update(CELERY_BROKER_URL=broker, CHANNEL_LAYER_URL=broker, CACHE_URL=broker)
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        made = subprocess.run(
            [*manage, "shell", "-c", TOKEN_SCRIPT],
            cwd=ROOT,
            env=env,
            check=True,
            text=True,
            capture_output=True,
        )
        token = made.stdout.strip().splitlines()[-1]
        counted = subprocess.run(
            [*manage, "shell", "-c", ROUND_TRIPS_SCRIPT],
            cwd=ROOT,
            env=env,
            check=True,
            text=True,
            capture_output=True,
        )
        round_trips = counted.stdout.strip().splitlines()[-1]
        if os.environ.get("BENCH_AB"):
            try:
                compare(env, token, os.environ["BENCH_AB"].split(","))
            finally:
                if broker is not None:
                    empty(broker)
            return
        port = free_port()
        server, kind = start_server(env, port)
        try:
            client = Client(f"http://127.0.0.1:{port}/api/v1", token)
            run(client, database_url, kind, broker, round_trips)
        finally:
            server.terminate()
            server.wait(timeout=10)
        if broker is not None:
            try:
                review_backlog(env, database_url)
            finally:
                empty(broker)


def local_broker() -> str | None:
    """The local Redis as a broker (its database emptied), or None when it does not answer."""
    import redis

    url = f"redis://127.0.0.1:6379/{REDIS_DB}"
    try:
        redis.Redis.from_url(url, socket_timeout=2).flushdb()
    except redis.RedisError:
        return None
    return url


def empty(broker: str) -> None:
    import redis

    redis.Redis.from_url(broker).flushdb()


def unreviewed(database_url: str) -> int:
    query = "SELECT count(*) FROM games_deal WHERE review IS NULL"
    if database_url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(urlsplit(database_url).path) as conn:
            return int(conn.execute(query).fetchone()[0])
    import psycopg

    with psycopg.connect(database_url) as conn:
        row = conn.execute(query).fetchone()
        return int(row[0]) if row else 0


def review_backlog(env: dict[str, str], database_url: str) -> None:
    """Start one worker on the reviews queued during the run; time it until all are done."""
    waiting = unreviewed(database_url)
    command = [sys.executable, "-m", "celery", "-A", "scorekeeper", "worker", "--pool=solo"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"]
    start = time.perf_counter()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    worker = subprocess.Popen(command, cwd=ROOT, env=env, **quiet)
    try:
        left = waiting
        while left and time.perf_counter() - start < 600:
            time.sleep(0.5)
            left = unreviewed(database_url)
        seconds = time.perf_counter() - start
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    print(
        f"  reviews: one Celery worker (solo pool) reviewed {waiting - left} queued deals"
        f" in {seconds:.1f} s, {(waiting - left) / seconds:.1f} deals/s including its start"
        + (f"; {left} still unreviewed after 600 s" if left else "")
    )


TOKEN_SCRIPT = """
from django.contrib.auth.models import User
from games.models import DeviceToken
user = User.objects.create_user("bench", password="bench")
print(DeviceToken.issue(user, "benchmark")[1])
"""


# Records deals through the test client in this process and prints how many statements the
# last one sent (BEGIN, COMMIT and SAVEPOINT count; Django logs them too), with their kinds.
ROUND_TRIPS_SCRIPT = """
import random, sys
sys.path.insert(0, "benchmarks")
from engine import random_request
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient
from games import services
from games.models import DeviceToken
user = User.objects.create_user("round-trips")
group = services.create_group(user, "Round trips", "EUR", "0.5", "classic-1-6")
seats = [services.add_player(group, name, by=user) for name in ("Ann", "Bob", "Cy", "Di")]
services.set_pair_stake(group, seats[0], seats[1], 2, by=user)
session = services.start_session(group, seats, user)
client = APIClient(SERVER_NAME="127.0.0.1")
client.credentials(HTTP_AUTHORIZATION="Token " + DeviceToken.issue(user, "count")[1])
rng = random.Random(7)
url = f"/api/v1/sessions/{session.pk}/deals/"
for k in range(3):
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(url, {"players": random_request(rng)["players"]}, format="json",
                             headers={"Idempotency-Key": f"count-{k}"})
    assert answer.status_code == 201, answer.content
words = [q["sql"].split(None, 1)[0].upper() for q in queries.captured_queries]
print(len(words), " ".join(words))
"""


def new_session(client: Client, group: int) -> int:
    status, session = client.post("/sessions/", {"group": group, "players": list(NAMES)})
    assert status == 201, session
    return int(session["id"])


def run(client: Client, database_url: str, kind: str, broker: str | None, round_trips: str) -> None:
    rng = random.Random(2026)
    status, group = client.post(
        "/groups/", {"name": "Bench night", "unit_value": "0.5", "rules": "classic-1-6"}
    )
    assert status == 201, group
    for name in NAMES:
        client.post(f"/groups/{group['id']}/players/", {"name": name})
    session = new_session(client, group["id"])
    database = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
    tasks = (
        "reviews queued and live updates sent through Redis"
        if broker
        else "reviews run inline: no Redis"
    )
    print(
        f"recording deals through the REST API ({kind}, {database}, {tasks});"
        f" sum(range(100)) takes {machine_speed():.2f} us"
    )

    for _ in range(10):  # warm up the workers
        client.post(f"/sessions/{session}/deals/", {"players": deal_players(rng)})
    timings = []
    for _ in range(SEQUENTIAL):
        body = {"players": deal_players(rng)}
        start = time.perf_counter()
        status, answer = client.post(f"/sessions/{session}/deals/", body)
        timings.append(time.perf_counter() - start)
        assert status == 201, answer
    count, _, kinds = round_trips.partition(" ")
    print(
        f"  one client, {SEQUENTIAL} deals: median {statistics.median(timings) * 1e3:.1f} ms,"
        f" p95 {percentile(timings, 0.95) * 1e3:.1f} ms (target: median under 15 ms, and"
        " under 6 ms on PostgreSQL; at first 7.5-12.6 ms)"
    )
    print(
        f"  database round trips a deal: {count} ({kinds}); on PostgreSQL psycopg's pool"
        " also checks the connection it hands out (an empty query, not counted); at"
        " first: nine, and a SELECT 1"
    )

    shared = new_session(client, group["id"])
    own = [new_session(client, group["id"]) for _ in range(CLIENTS)]
    for label, sessions in (("one shared session", [shared] * CLIENTS), ("a session each", own)):
        bodies = [[deal_players(rng) for _ in range(PER_CLIENT)] for _ in range(CLIENTS)]
        seconds, failures = record_at_once(client, sessions, bodies)
        total = CLIENTS * PER_CLIENT
        numbers = [deal["number"] for s in set(sessions) for deal in all_deals(client, s)]
        print(
            f"  {CLIENTS} clients x {PER_CLIENT} deals into {label}: {total / seconds:.0f} deals/s"
            f" ({seconds:.1f} s; {len(failures)} failures; {len(numbers)} deals stored)"
        )
        for status, answer in failures[:3]:
            print(f"    failure: {status} {answer}")


def record_at_once(
    client: Client, sessions: list[int], bodies: list[list[Any]]
) -> tuple[float, list[Any]]:
    """Client k records bodies[k] into sessions[k], all clients at once."""
    failures: list[Any] = []

    def record(k: int) -> None:
        for n, players in enumerate(bodies[k]):
            status, answer = client.post(
                f"/sessions/{sessions[k]}/deals/",
                {"players": players},
                **{"Idempotency-Key": f"client-{k}:{n}"},
            )
            if status != 201:
                failures.append((status, answer))

    threads = [threading.Thread(target=record, args=(k,)) for k in range(len(sessions))]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, failures


def all_deals(client: Client, session: int) -> Iterator[dict[str, Any]]:
    page: str | None = f"/sessions/{session}/deals/"
    while page:
        answer = client.get(page)
        yield from answer["results"]
        page = answer["next"].removeprefix(client.base) if answer["next"] else None


if __name__ == "__main__":
    main()
