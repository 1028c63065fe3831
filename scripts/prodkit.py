"""What the proof scripts and the deployment tests share: a throw-away PostgreSQL database,
the production recipe (scripts/serve_prod.sh) started on a free port, and a small JSON
client over urllib that retries what a phone would retry."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
# A Redis database of its own, so this worker never takes another checkout's tasks.
DEFAULT_BROKER = "redis://127.0.0.1:6379/13"
DEFAULT_CACHE = "redis://127.0.0.1:6379/14"
DEFAULT_CHANNEL_LAYER = "redis://127.0.0.1:6379/12"


def postgres_url() -> str:
    """DATABASE_URL when it names PostgreSQL, else the local server's `postgres` database."""
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else DEFAULT_POSTGRES


def postgres_answers(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.Error:
        return False


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


@contextmanager
def throwaway_database(prefix: str = "scorekeeper_proof") -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped afterwards."""
    import psycopg

    parts = urlsplit(postgres_url())
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def production_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a production-mode process on this machine (plain HTTP)."""
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": os.environ.get("PROOF_BROKER_URL", DEFAULT_BROKER),
        "CACHE_URL": os.environ.get("PROOF_CACHE_URL", DEFAULT_CACHE),
        "CHANNEL_LAYER_URL": os.environ.get("PROOF_CHANNEL_LAYER_URL", DEFAULT_CHANNEL_LAYER),
        # A queue of its own: the worker never takes (and drops) another checkout's tasks.
        "CELERY_QUEUE": f"scorekeeper-proof-{secrets.token_hex(4)}",
        "PYTHON": sys.executable,
    }
    env.pop("REDIS_URL", None)
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> str:
    """Runs manage.py with `env`; its standard output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        text=True,
        capture_output=True,
        timeout=300,
    )
    return done.stdout


def make_user(env: dict[str, str], username: str, password: str) -> str:
    """Creates a user; their API token."""
    code = (
        "from django.contrib.auth.models import User;"
        "from games.models import DeviceToken;"
        f"user = User.objects.create_user({username!r}, password={password!r});"
        "print(DeviceToken.issue(user, 'prodkit')[1])"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def as_from_a_terminal() -> None:
    """For ``preexec_fn``: SIGINT and SIGQUIT at their defaults, as in a script started in
    a terminal's foreground. A process started in the background of a non-interactive
    shell (``cmd &``, as a CI runner may start the tests) ignores both, every child
    inherits that, and bash cannot trap a signal that was ignored when it started:
    serve_prod.sh would never hear its Ctrl-C."""
    for number in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(number, signal.SIG_DFL)


class Server:
    """scripts/serve_prod.sh running in its own process group, its output in a file."""

    def __init__(self, env: dict[str, str], port: int, log: Path) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        # Daphne's port: PORT+1 (the script's default) may be taken on a busy machine.
        self.live_port = int(env.get("LIVE_PORT") or free_port())
        self.live_base = f"ws://127.0.0.1:{self.live_port}"
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [str(ROOT / "scripts" / "serve_prod.sh")],
                cwd=ROOT,
                env={**env, "PORT": str(port), "LIVE_PORT": str(self.live_port)},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=as_from_a_terminal,  # stop() is a Ctrl-C
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_until_healthy(self, timeout: float = 120) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve_prod.sh stopped:\n{self.output()[-3000:]}")
            try:
                status, body = request_json("GET", f"{self.base}/healthz", timeout=3)
                if status == 200:
                    return dict(body)
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"not healthy after {timeout} s:\n{self.output()[-3000:]}")

    def wait_for_output(self, text: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"no {text!r} in the output:\n{self.output()[-3000:]}")
            time.sleep(0.5)

    def stop(self, timeout: float = 60) -> int:
        """Ctrl-C, as a person would; the script's exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode


class Worker:
    """A Celery worker as scripts/serve_prod.sh starts one, run on its own (the web then
    started with RUN_WORKER=false, like Docker's separate worker container), in a process
    group of its own: killing that group stops its pool processes too and nothing else."""

    def __init__(self, env: dict[str, str], log: Path, concurrency: int = 2) -> None:
        self.log = log
        self.began_at = log.stat().st_size if log.exists() else 0
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    env.get("PYTHON", sys.executable),
                    *("-m", "celery", "-A", "scorekeeper", "worker"),
                    *("--concurrency", str(concurrency), "--loglevel", "info"),
                    *("--without-gossip", "--without-mingle"),
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def output(self) -> str:
        """What this worker wrote (the log may hold earlier workers' lines too)."""
        with self.log.open("rb") as log:
            log.seek(self.began_at)
            return log.read().decode(errors="replace")

    def wait_until_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while " ready." not in self.output():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the worker is not ready:\n{self.output()[-3000:]}")
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL to the worker's process group: no warm shutdown, no task handed back."""
        # Only ever the group this object started (it leads it), never anyone else's.
        if self.process.poll() is None and os.getpgid(self.process.pid) == self.process.pid:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout: float = 60) -> int:
        """SIGTERM (warm shutdown: running tasks finish); SIGKILL after ``timeout``."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.returncode


@contextmanager
def serving(env: dict[str, str], log: Path, port: int | None = None) -> Iterator[Server]:
    # A static folder of its own unless told: its collectstatic then never deletes files
    # from under a test process of this checkout reading ./staticfiles at the same time.
    with tempfile.TemporaryDirectory(prefix="scorekeeper-static-") as static_root:
        server = Server({"STATIC_ROOT": static_root, **env}, port or free_port(), log)
        try:
            server.wait_until_healthy()
            yield server
        finally:
            server.stop()


def request_json(
    method: str,
    url: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, Any]:
    """One HTTP request; the status and the JSON answer (text when it is not JSON).
    Connection failures raise OSError."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, raw.decode(errors="replace")[:300]


class Client:
    """A token-authenticated API client."""

    def __init__(self, base: str, token: str) -> None:
        self.api = f"{base}/api/v1"
        self.headers = {"Authorization": f"Token {token}"}

    def call(self, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
        return request_json(method, self.api + path, body, {**self.headers, **headers})

    def all_pages(self, path: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        url: str | None = self.api + path
        while url:
            status, page = request_json("GET", url, headers=self.headers)
            if status != 200:
                raise RuntimeError(f"GET {url}: {status} {page}")
            items += page["results"]
            url = page["next"]
        return items
