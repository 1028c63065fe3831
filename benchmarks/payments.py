"""Payments benchmark: what a group owes across 100 nights and 10,000 payments (prints
figures, asserts nothing).

Builds a throw-away database (SQLite in a temporary file; PostgreSQL when DATABASE_URL
names one, in a database of its own that is dropped afterwards), a group of six, 100
sessions of 20 random classic-1-6 deals each (four of the six seated, in turn) scored by
the engine, and 10,000 payments between random players (nine in ten confirmed, with their
ledger rows; the rest pending or void), all bulk inserted. Then times the balances; the
target for ``group_balances`` is under 200 ms on PostgreSQL.
"""

from __future__ import annotations

import datetime
import os
import random
import sys
import tempfile
import time
from decimal import Decimal
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
from engine import machine_speed, random_request  # noqa: E402
from ledger import bench_deal, timed  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from games import reports, services  # noqa: E402
from games.engine import score_request  # noqa: E402
from games.models import Deal, Group, LedgerEntry, Payment, Session  # noqa: E402
from games.reports.statement import statement  # noqa: E402

SESSIONS = 100
DEALS_PER_SESSION = 20
PAYMENTS = 10_000
NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Flo")
START = datetime.date(2025, 1, 3)


def build_group(rng: random.Random) -> Group:
    owner = User.objects.create_user("bench")
    group = services.create_group(owner, "Bench club", "EUR", "0.5", "classic-1-6")
    players = [services.add_player(group, name, by=owner) for name in NAMES]
    start = time.perf_counter()
    deals, rows = [], []
    for night in range(SESSIONS):
        seated = [players[(night + k) % len(players)] for k in range(4)]
        session = services.start_session(
            group, seated, owner, date=START + datetime.timedelta(days=7 * night)
        )
        names = [p.name for p in seated]
        by_name = {p.name: p for p in seated}
        for number in range(1, DEALS_PER_SESSION + 1):
            request = {
                "players": [
                    {**p, "name": names[k]} for k, p in enumerate(random_request(rng)["players"])
                ],
                "stakes": {"unit_value": "0.5", "pairs": []},
            }
            result = score_request({"rules": session.rules, **request})
            deal = bench_deal(session, owner, number, request, result)
            deals.append(deal)
            if deal.status == Deal.Status.ACTIVE:
                rows.extend(
                    LedgerEntry(
                        deal=deal,
                        player_a=by_name[pair["players"][0]],
                        player_b=by_name[pair["players"][1]],
                        units=pair["units"],
                        money=pair["money"],
                    )
                    for pair in result["pairs"]
                )
        Session.objects.filter(pk=session.pk).update(last_deal_number=DEALS_PER_SESSION)
    Deal.objects.bulk_create(deals, batch_size=500)
    LedgerEntry.objects.bulk_create(rows, batch_size=2000)
    played = time.perf_counter() - start

    start = time.perf_counter()
    sessions = list(group.sessions.order_by("date"))
    payments = []
    for k in range(PAYMENTS):
        payer, payee = rng.sample(players, 2)
        roll = rng.random()
        status = "confirmed" if roll < 0.9 else ("pending" if roll < 0.97 else "void")
        night = sessions[k % SESSIONS]
        payments.append(
            Payment(
                group=group,
                session=night if rng.random() < 0.5 else None,
                payer=payer,
                payee=payee,
                amount=Decimal(rng.randrange(1, 5000)) / 100,
                date=night.date + datetime.timedelta(days=rng.randrange(0, 7)),
                status=status,
                recorded_by=owner,
            )
        )
    Payment.objects.bulk_create(payments, batch_size=2000)
    LedgerEntry.objects.bulk_create(
        (
            LedgerEntry(
                kind=LedgerEntry.Kind.PAYMENT,
                payment=p,
                player_a=p.payer,
                player_b=p.payee,
                units=0,
                money=p.amount,
            )
            for p in payments
            if p.status == "confirmed"
        ),
        batch_size=2000,
    )
    paid = time.perf_counter() - start
    print(
        f"built {SESSIONS} sessions of {DEALS_PER_SESSION} deals ({len(rows):,} ledger rows)"
        f" in {played:.1f} s and {PAYMENTS:,} payments in {paid:.1f} s"
    )
    return group


def main() -> None:
    settings = connection.settings_dict
    vendor = connection.vendor
    scratch = tempfile.TemporaryDirectory()
    if vendor == "sqlite":
        settings["TEST"]["NAME"] = os.path.join(scratch.name, "bench.sqlite3")
    else:
        settings["TEST"]["NAME"] = "scorekeeper_bench_payments"
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {vendor} database;"
        f" sum(range(100)) takes {machine_speed():.2f} us"
    )
    old = setup_databases(verbosity=0, interactive=False)
    try:
        group = build_group(random.Random(2026))
        ann = group.players.get(name="Ann")
        bob = group.players.get(name="Bob")
        balances = reports.group_balances(group)
        print(
            "balances now: "
            + ", ".join(f"{row['name']} {row['balance']:+,.2f}" for row in balances["players"])
            + f" {group.currency}; clearing everything takes {len(balances['transfers'])}"
            " transfers"
        )
        client = APIClient(SERVER_NAME="127.0.0.1")
        client.force_authenticate(user=User.objects.get(username="bench"))

        def api() -> None:
            answer = client.get(f"/api/v1/groups/{group.pk}/balances/")
            assert answer.status_code == 200, answer.content[:200]

        print("balances of the group (target: group_balances under 200 ms on PostgreSQL):")
        timed("group_balances", lambda: reports.group_balances(group))
        timed("clear_everything", lambda: reports.clear_everything(group))
        timed("GET .../balances/ (in-process API)", api)
        timed("statement (Ann against Bob)", lambda: statement(group, ann, opponent=bob))
        timed("statement (Ann, all opponents)", lambda: statement(group, ann))
        last = group.sessions.order_by("-date").first()
        assert last is not None
        timed("night_settlement (last night)", lambda: reports.night_settlement(last))
    finally:
        teardown_databases(old, verbosity=0)
        scratch.cleanup()


if __name__ == "__main__":
    main()
