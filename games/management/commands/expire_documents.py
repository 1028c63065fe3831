"""``manage.py expire_documents``: mark failed every document pending past the timeout.

A pending row is marked failed when its status is read after ``DOCUMENT_PENDING_TIMEOUT``;
one that nobody reads again would stay pending in the database. Run this from cron (every
few minutes is plenty) to leave no such row at all.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.sheets import documents


class Command(BaseCommand):
    help = "Mark failed every PDF document still pending after DOCUMENT_PENDING_TIMEOUT."

    def handle(self, *args: Any, **options: Any) -> None:
        expired = documents.expire_overdue()
        self.stdout.write(f"{expired} overdue document{'' if expired == 1 else 's'} marked failed")
