"""A real Celery worker renders a sheet through Redis (PostgreSQL only; CI runs it).

The worker is a separate process, so it must see the test's database: the PostgreSQL test
database does, SQLite's in-memory one does not. The task goes to a queue of this test's
own on a Redis database number others leave alone, so no other worker can take it.
"""

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from kombu import pools as kombu_pools

from games import reports
from games.models import Document, Session
from games.sheets import documents
from scorekeeper.celery import app
from tests.pdf.conftest import TRANSFER, pdf_text

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL: a worker process cannot see SQLite's in-memory test database "
        "(CI runs this with DATABASE_URL pointing at PostgreSQL)",
    ),
    pytest.mark.django_db(transaction=True),
    pytest.mark.services,
]

ROOT = Path(__file__).resolve().parents[2]
REDIS_DATABASE = 11
WAIT_SECONDS = 90


def database_url() -> str:
    """The URL of the database this test runs on (pytest-django's test database)."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{db['USER']}{password}@{host}:{port}/{db['NAME']}"


def drop_connections() -> None:
    """Close the app's broker connections, so that the next ones go to the broker set now.

    The producer pool is built on the connection pool, so it goes too (as Celery does for
    a forked process).
    """
    pool = app.__dict__.get("_pool")
    if pool is not None:
        pool.force_close_all()
    app.__dict__["_pool"] = None
    vars(app.amqp)["_producer_pool"] = None
    # kombu's process-wide registries hand out pools by connection: without a reset, the
    # eager tasks of later tests get a producer pool whose connections were closed here.
    kombu_pools.reset()


@pytest.fixture
def worker_broker(broker_url: str) -> Iterator[tuple[str, str]]:
    """This process sends tasks to Redis (not eagerly) on a queue of its own for the test."""
    url = broker_url.rsplit("/", 1)[0] + f"/{REDIS_DATABASE}"
    queue = f"scorekeeper-test-{uuid.uuid4().hex[:8]}"
    saved = {
        key: app.conf[key] for key in ("broker_url", "task_always_eager", "task_default_queue")
    }
    app.conf.update(broker_url=url, task_always_eager=False, task_default_queue=queue)
    drop_connections()
    try:
        yield url, queue
    finally:
        app.conf.update(saved)
        drop_connections()


Worker = subprocess.Popen[bytes]


@pytest.fixture
def start_worker(
    worker_broker: tuple[str, str], media_root: Path
) -> Iterator[Callable[..., Worker]]:
    """Starts ``celery worker`` on the test's queue, database and media folder, in a process
    group of its own, with the ``pool`` options (one process, no pool, by default) and any
    more environment given; every one is stopped afterwards."""
    url, queue = worker_broker
    started: list[Worker] = []

    def start(pool: str = "--pool=solo", **extra: str) -> Worker:
        env = {
            **os.environ,
            "CELERY_BROKER_URL": url,
            "DATABASE_URL": database_url(),
            "MEDIA_ROOT": str(media_root),
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
            **extra,
        }
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "scorekeeper",
            "worker",
            *pool.split(),
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
            "-Q",
            queue,
        ]
        with worker_log(media_root, len(started)).open("wb") as output:
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=output, stderr=output, start_new_session=True
            )
        started.append(process)
        return process

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def worker_log(media_root: Path, number: int = 0) -> Path:
    return media_root.parent / f"worker-{number}.log"


@pytest.fixture
def worker(start_worker: Callable[..., Worker]) -> Worker:
    return start_worker()


def test_a_worker_renders_a_sheet(
    night: Session, bob_user: User, worker: subprocess.Popen[bytes], media_root: Path
) -> None:
    assert media_root == settings.MEDIA_ROOT
    document, created = documents.request_document(night, Document.Kind.SHEET, bob_user)
    assert created

    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline and worker.poll() is None:
        document.refresh_from_db()
        if document.status != Document.Status.PENDING:
            break
        time.sleep(0.25)
    log = worker_log(media_root).read_text(errors="replace")

    assert document.status == Document.Status.READY, f"{document.status}: {document.error}\n{log}"
    assert "render_document" in log and "succeeded" in log
    with document.file.open("rb") as stored:
        text = pdf_text(stored.read())
    fewest: Any = reports.settlement(night)["fewest_transfers"]
    assert [tuple(t[:2]) for t in TRANSFER.findall(text)][: len(fewest)] == [
        (t["from"], t["to"]) for t in fewest
    ]


# A document whose worker was killed is handed out again half this many seconds after it was
# taken (settings.CELERY_BROKER_TRANSPORT_OPTIONS).
SHORT_PENDING_TIMEOUT = "10"


def until(condition: Callable[[], bool], what: str, seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not {what} after {seconds} s")
        time.sleep(0.05)


def kill_mid_render(night: Session, user: User, log: Path, kill: Callable[[], None]) -> Document:
    """Ask for the night's sheet and ``kill`` whoever renders it while it is mid-render.

    The render reads the ledger only once it has begun (attempts counted, fingerprint
    taken): a lock held on that table makes it wait there for as long as needed.
    """
    with psycopg.connect(database_url()) as blocker:
        blocker.execute("LOCK TABLE games_ledgerentry IN ACCESS EXCLUSIVE MODE")
        document, created = documents.request_document(night, Document.Kind.SHEET, user)
        assert created

        def waiting_mid_render() -> bool:
            row = blocker.execute(
                "SELECT attempts, status FROM games_document WHERE id = %s", (document.pk,)
            ).fetchone()
            # Activity is read once a transaction unless the snapshot is cleared.
            blocker.execute("SELECT pg_stat_clear_snapshot()")
            waiting = blocker.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND query ILIKE %s",
                ("%games_ledgerentry%",),
            ).fetchone()
            return row == (1, "pending") and waiting == (1,)

        until(waiting_mid_render, f"rendering:\n{log.read_text(errors='replace')}")
        kill()
        blocker.rollback()
    return document


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # "pid (name) state ppid ...": the name may hold spaces, never ") ".
            fields = stat.read_text().rsplit(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_a_worker_killed_mid_render_is_replaced_and_the_sheet_still_made(
    night: Session, bob_user: User, start_worker: Callable[..., Worker], media_root: Path
) -> None:
    first = start_worker(DOCUMENT_PENDING_TIMEOUT=SHORT_PENDING_TIMEOUT)

    def kill_the_worker() -> None:
        os.killpg(first.pid, signal.SIGKILL)
        assert first.wait(timeout=10) == -signal.SIGKILL

    document = kill_mid_render(night, bob_user, worker_log(media_root), kill_the_worker)

    document.refresh_from_db()
    assert document.status == Document.Status.PENDING  # nobody will finish the first render
    second = start_worker(DOCUMENT_PENDING_TIMEOUT=SHORT_PENDING_TIMEOUT)

    def finished() -> bool:
        assert second.poll() is None, worker_log(media_root, 1).read_text(errors="replace")
        document.refresh_from_db()
        return document.status != Document.Status.PENDING

    until(finished, "finished")
    log = worker_log(media_root, 1).read_text(errors="replace")
    assert document.status == Document.Status.READY, f"{document.error}\n{log}"
    assert document.attempts == 2  # the lost render, then the one that finished
    assert "render_document" in log and "succeeded" in log
    with document.file.open("rb") as stored:
        assert "Friday club: settlement sheet" in pdf_text(stored.read())


def test_a_pool_process_killed_mid_render_hands_the_task_back_at_once(
    night: Session, bob_user: User, start_worker: Callable[..., Worker], media_root: Path
) -> None:
    # The default pending timeout: the broker would hand the task out again only after
    # five minutes, so a sheet made in time was handed back by the worker itself.
    worker = start_worker("--pool=prefork --concurrency=1")

    def kill_the_pool_process() -> None:
        [process] = children(worker.pid)
        os.kill(process, signal.SIGKILL)

    document = kill_mid_render(night, bob_user, worker_log(media_root), kill_the_pool_process)

    def finished() -> bool:
        assert worker.poll() is None, worker_log(media_root).read_text(errors="replace")
        document.refresh_from_db()
        return document.status != Document.Status.PENDING

    until(finished, "finished")
    log = worker_log(media_root).read_text(errors="replace")
    assert document.status == Document.Status.READY, f"{document.error}\n{log}"
    assert document.attempts == 2
    assert "WorkerLostError" in log and "succeeded" in log
