"""For benchmarks/live_table.py: the servers' applications with every SQL statement they
run counted, across processes.

Daphne serves ``benchmarks.live_counting:application`` (``scorekeeper.asgi``) and gunicorn
``benchmarks.live_counting:wsgi`` (``scorekeeper.wsgi``). Each process hooks a counter
into every database connection Django opens (``execute_wrappers``, Django's own hook
for ``connection.execute_wrapper``), whichever thread opens it: HTTP views, the
socket consumers, the work left for after a response. A thread writes the process's
count to ``LIVE_COUNT_DIR/<pid>`` every 0.1 s, and the benchmark adds the files up
before and after its rounds (``live_support.statements``). No production code path
loads this module.

What counts is each statement Django sends through a cursor (``executemany`` once):
``BEGIN IMMEDIATE`` on SQLite, not the ``COMMIT`` of a transaction (a call of the
driver's, not a statement) nor the pool's health check of a PostgreSQL connection.
PostgreSQL's own ``pg_stat_statements`` would count on the server, but it must be loaded
when PostgreSQL starts (``shared_preload_libraries``), which a benchmark cannot ask of a
shared server, and SQLite has nothing like it.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

from scorekeeper.asgi import application as _asgi
from scorekeeper.wsgi import application as wsgi

_lock = threading.Lock()
_count = 0


def _counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    global _count
    with _lock:
        _count += 1
    return execute(sql, params, many, context)


def _hook(sender: Any, connection: Any, **kwargs: Any) -> None:
    # A connection object lives as long as its thread, and connects again for every
    # request (psycopg's pool hands it a connection each time): hook it once.
    if _counted not in connection.execute_wrappers:
        connection.execute_wrappers.append(_counted)


def _write_counts(folder: Path) -> None:
    path, spare = folder / str(os.getpid()), folder / f".{os.getpid()}"
    while True:
        spare.write_text(str(_count))
        spare.replace(path)  # never read half written
        time.sleep(0.1)


def _start() -> None:
    from django.db.backends.signals import connection_created

    connection_created.connect(_hook)
    folder = Path(os.environ["LIVE_COUNT_DIR"])
    threading.Thread(target=_write_counts, args=(folder,), name="count", daemon=True).start()


application = _asgi
if "LIVE_COUNT_DIR" in os.environ:
    _start()

__all__ = ["application", "wsgi"]
