"""PDF benchmark: the settlement sheet of a 200-deal, four-player session (prints figures).

Builds a throw-away database (SQLite in a temporary file; PostgreSQL when DATABASE_URL
names one, in a database of its own that is dropped afterwards), records 200 random deals
through the services (hands set by the engine's heuristic, with fouls, surrenders,
naturals and a few void deals, as in the tests' random night), then times the sheet from
the database to the PDF bytes: the first render in the process (WeasyPrint's start-up and
fonts included) and the best of the next ones, in wall-clock and CPU seconds, split into
gathering the data with the HTML and WeasyPrint's layout and writing. Target: under 3 s.
Also times one player's ledger. Asserts nothing: this machine kind swings about 2x.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402
from engine import machine_speed  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from games import services  # noqa: E402
from games.models import Session  # noqa: E402
from games.sheets import compose, pdf  # noqa: E402
from tests.pdf.night import play_random_night  # noqa: E402

DEALS = 200
ROUNDS = 3


def build_session() -> Session:
    owner = User.objects.create_user("bench")
    group = services.create_group(owner, "Bench club", "EUR", "0.5", "classic-1-6")
    seats = [services.add_player(group, name, by=owner) for name in ("Ann", "Bob", "Cy", "Di")]
    services.set_pair_stake(group, seats[0], seats[3], 2, by=owner)
    session = services.start_session(group, seats, owner, place="the bench")
    start = time.perf_counter()
    play_random_night(session, owner, deals=DEALS, seed=2026)
    print(f"recorded {DEALS} deals through the services in {time.perf_counter() - start:.1f} s")
    return session


def clock(run: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def timed(label: str, kind: str, session: Session) -> None:
    player = session.seats.order_by("seat")[0].player if kind == "ledger" else None
    first, _ = clock(lambda: compose.render(kind, session, player))
    runs = []
    for _ in range(ROUNDS):
        html_times = clock(lambda: compose.document_html(kind, session, player, "A4"))
        html = compose.document_html(kind, session, player, "A4")
        pdf_times = clock(lambda: pdf.html_to_pdf(html))  # noqa: B023 - called at once
        runs.append((html_times, pdf_times))
    (html_wall, html_cpu), (pdf_wall, pdf_cpu) = min(runs, key=lambda r: r[0][0] + r[1][0])
    pages = len(PdfReader(io.BytesIO(pdf.html_to_pdf(html))).pages)
    print(
        f"  {label:<28} first {first:5.2f} s;  best of {ROUNDS}: {html_wall + pdf_wall:5.2f} s "
        f"wall, {html_cpu + pdf_cpu:5.2f} s cpu (data and HTML {html_wall:.2f} s, "
        f"WeasyPrint {pdf_wall:.2f} s), {pages} pages"
    )


def main() -> None:
    settings = connection.settings_dict
    scratch = tempfile.TemporaryDirectory()
    if connection.vendor == "sqlite":
        settings["TEST"]["NAME"] = os.path.join(scratch.name, "bench.sqlite3")
    else:
        settings["TEST"]["NAME"] = "scorekeeper_bench_sheets"
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {connection.vendor} database;"
        f" sum(range(100)) {machine_speed():.2f} us"
    )
    old = setup_databases(verbosity=0, interactive=False)
    try:
        session = build_session()
        print(f"PDFs of a {DEALS}-deal, four-player session (target for the sheet: under 3 s):")
        timed("settlement sheet", "sheet", session)
        timed("ledger (Ann, 3 opponents)", "ledger", session)
    finally:
        teardown_databases(old, verbosity=0)
        scratch.cleanup()


if __name__ == "__main__":
    main()
