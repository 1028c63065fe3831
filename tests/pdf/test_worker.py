"""A real Celery worker renders a sheet through Redis (PostgreSQL only; CI runs it).

The worker is a separate process, so it must see the test's database: the PostgreSQL test
database does, SQLite's in-memory one does not. The task goes to a queue of this test's
own on a Redis database number others leave alone, so no other worker can take it.
"""

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from kombu import pools as kombu_pools

from games import documents, reports
from games.models import Document, Session
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


@pytest.fixture
def worker(worker_broker: tuple[str, str], media_root: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``celery worker`` on the test's queue, database and media folder; always stopped."""
    url, queue = worker_broker
    env = {
        **os.environ,
        "CELERY_BROKER_URL": url,
        "DATABASE_URL": database_url(),
        "MEDIA_ROOT": str(media_root),
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
    }
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "scorekeeper",
        "worker",
        "--pool=solo",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=INFO",
        "-Q",
        queue,
    ]
    log = media_root.parent / "worker.log"
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


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
    log = (media_root.parent / "worker.log").read_text(errors="replace")

    assert document.status == Document.Status.READY, f"{document.status}: {document.error}\n{log}"
    assert "render_document" in log and "succeeded" in log
    with document.file.open("rb") as stored:
        text = pdf_text(stored.read())
    fewest: Any = reports.settlement(night)["fewest_transfers"]
    assert [tuple(t[:2]) for t in TRANSFER.findall(text)][: len(fewest)] == [
        (t["from"], t["to"]) for t in fewest
    ]
