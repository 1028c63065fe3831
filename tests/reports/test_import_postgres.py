"""A 10,000-deal group exported and imported through the API, on PostgreSQL.

The deals are built with bulk inserts (tests.reports.big_group), then the group goes out
as a streamed export and back in as an upload imported in the background; the ledger of
the copy verifies clean and its standings are the original's. CI runs it with
DATABASE_URL pointing at PostgreSQL; on SQLite it is skipped.
"""

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command

from games import reports, services
from games.models import Deal, LedgerEntry
from tests.api.conftest import API, client_for
from tests.reports.big_group import build_group
from tests.reports.test_export import without_ids

pytestmark = pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="a PostgreSQL proof (CI runs it with DATABASE_URL pointing at PostgreSQL)",
)

DEALS = 10_000


def test_a_10000_deal_group_round_trips(
    ann_user: User,
    tmp_path: Path,
    settings: Any,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    begun = time.perf_counter()
    big = build_group(ann_user, deals=DEALS)
    as_ann = client_for(ann_user)
    started = time.perf_counter()

    response: Any = as_ann.get(f"{API}/groups/{big.pk}/export/")
    content = b"".join(response.streaming_content)
    exported = time.perf_counter()
    target = services.create_group(ann_user, "Big club, restored", "EUR", 1, "standard")
    with django_capture_on_commit_callbacks(execute=True):
        queued = as_ann.post(
            f"{API}/groups/{target.pk}/import/", {"file": io.BytesIO(content)}, format="multipart"
        )
    status = as_ann.get(queued["Location"]).json()
    imported = time.perf_counter()

    assert queued.status_code == 202
    assert status["status"] == "done", status
    assert (status["players"], status["sessions"], status["deals"]) == (4, 1, DEALS)
    assert Deal.objects.filter(session__group=target).count() == DEALS
    active = DEALS - DEALS // 100
    assert LedgerEntry.objects.filter(deal__session__group=target).count() == active * 6
    target.refresh_from_db()
    assert without_ids(reports.group_standings(target)) == without_ids(reports.group_standings(big))
    call_command("verify_ledger", "--group", str(target.pk), stdout=io.StringIO())
    print(
        f"\n{DEALS:,} deals, {len(content) / 1e6:.1f} MB: built in {started - begun:.1f} s,"
        f" export {exported - started:.1f} s, import {imported - exported:.1f} s,"
        f" checks {time.perf_counter() - imported:.1f} s"
    )
    assert imported - started < 120
