"""Whole-deal review benchmark: prints figures, asserts only that the answers agree (run
with ``make bench``; ``REVIEW_DEALS=1000`` for a thousand deals a preset).

For each preset, random four-player deals (most set in rank order, some fouled) are
reviewed both ways in turn: ``review`` player by player (the review as it was first written) and
``review_all`` (the whole deal at once, what ``review_request`` runs). Every answer of the
two must be equal: best setting, units, declaration and nearest legal setting. Printed:
the median time of a deal each way and the deals a second it means in one process
(target: 100), with the machine's load, since the figures move with it.

Then the review task with the database (a throw-away one, as benchmarks/growth.py builds:
SQLite in a temporary file, or a database of its own on the PostgreSQL server
DATABASE_URL names): REVIEW_QUEUE (200) classic-1-6 deals are recorded through the
services with their reviews left queued, then reviewed as a worker would take the queue,
both ways in turn: one deal a task (``store_review``: read, review, write in a transaction
of its own, as it first was) and the task as it is now (``review_deal``: a deal whose
successors wait too takes up to ``BATCH`` of them into one batch, and their own tasks end
after one query). Deals a second, Celery's own cost per task aside.
"""

from __future__ import annotations

import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.engine import random_request  # noqa: E402
from games.engine import parse_request  # noqa: E402
from games.engine.arrangement.review import review  # noqa: E402
from games.engine.arrangement.review_batch import review_all  # noqa: E402

DEALS = int(os.environ.get("REVIEW_DEALS", "200"))
QUEUE = int(os.environ.get("REVIEW_QUEUE", "200"))
PRESETS = ("standard", "classic-1-6", "classic-2-4", "mau-binh-south", "mau-binh-north")


def main() -> None:
    rng = random.Random(18)
    print(f"whole-deal review, {DEALS} four-player deals per preset, load {os.getloadavg()[0]:.2f}")
    print("  preset            player by player      whole deal at once    agree")
    for preset in PRESETS:
        deals = [parse_request(random_request(rng, preset)) for _ in range(DEALS)]
        review_all(deals[0].hands, deals[0].rules)  # builds the split index once
        before: list[float] = []
        after: list[float] = []
        for deal in deals:
            hands, rules = deal.hands, deal.rules
            start = time.perf_counter()
            old = [None if h.rows is None else review(hands, rules, k) for k, h in enumerate(hands)]
            before.append(time.perf_counter() - start)
            start = time.perf_counter()
            new = review_all(hands, rules)
            after.append(time.perf_counter() - start)
            assert new == old, f"the reviews disagree on {[h.rows for h in hands]}"
        b, a = statistics.median(before), statistics.median(after)
        print(
            f"  {preset:<16} {b * 1e3:6.2f} ms {1 / b:5.0f}/s      {a * 1e3:6.2f} ms {1 / a:5.0f}/s"
            f"      {DEALS}/{DEALS}"
        )
    print(f"  load at the end {os.getloadavg()[0]:.2f}")
    with_database()


def with_database() -> None:
    import tempfile

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from games import services
    from games.models import Deal, ReviewLine
    from games.services import reviews

    settings.DEBUG = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    reviews.review_deal.delay = lambda pk: None  # type: ignore[method-assign]  # queued
    scratch = tempfile.TemporaryDirectory()
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        db["TEST"]["NAME"] = os.path.join(scratch.name, "reviews.sqlite3")
    else:
        db["TEST"]["NAME"] = f"scorekeeper_bench_reviews_{secrets.token_hex(4)}"
    old = setup_databases(verbosity=0, interactive=False)
    try:
        owner = User.objects.create_user("bench")
        group = services.create_group(owner, "Bench club", "EUR", "0.5", "classic-1-6")
        seats = [services.add_player(group, name, by=owner) for name in ("A", "B", "C", "D")]
        session = services.start_session(group, seats, owner)
        rng = random.Random(2018)
        for _ in range(QUEUE):
            players = random_request(rng, "classic-1-6")["players"]
            for seat, player in zip(seats, players, strict=True):
                player["name"] = seat.name
            services.record_deal(session, players, owner)
        ids = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
        print(
            f"the review task on {connection.vendor}, {len(ids)} queued classic-1-6 deals,"
            f" load {os.getloadavg()[0]:.2f}"
        )

        def forget() -> None:
            Deal.objects.update(review=None)
            ReviewLine.objects.all().delete()

        for rounds in range(2):
            forget()
            start = time.perf_counter()
            for pk in ids:
                services.store_review(pk)
            one = time.perf_counter() - start
            answers = {d.pk: d.review for d in Deal.objects.all()}
            forget()
            start = time.perf_counter()
            for pk in ids:
                reviews.review_deal(pk)
            batched = time.perf_counter() - start
            assert {d.pk: d.review for d in Deal.objects.all()} == answers
            print(
                f"  round {rounds + 1}: one deal a task {len(ids) / one:6.1f} deals/s;"
                f" batches of up to {reviews.BATCH} {len(ids) / batched:6.1f} deals/s"
                f" ({one / batched:.2f}x); the reviews equal"
            )
        print(
            "  target: 100 deals/s a process; before the rule sets' shared tables"
            " and the one-statement write: 35-37 deals/s in batches (quiet machine)"
        )
    finally:
        teardown_databases(old, verbosity=0)
        scratch.cleanup()


if __name__ == "__main__":
    main()
