"""``manage.py verify_ledger [--group ID]``: check the ledger against the deals.

Re-scores every active deal from its stored request and rules, compares the result with
the stored one and with the deal's ledger rows, and checks each session's deal numbering
(``games.reports.audit``). Prints each mismatch (group, session, deal, what differs) and
exits with status 1 if there is one; otherwise prints a one-line summary. It only reads,
so it can run from cron against the live database (docs/operations.md).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Group
from games.reports.audit import Audit


def _plural(count: int, word: str) -> str:
    ending = "" if count == 1 else "es" if word.endswith("ch") else "s"
    return f"{count:,} {word}{ending}"


class Command(BaseCommand):
    help = (
        "Re-score every active deal and compare it with its stored result and its ledger "
        "rows, and check deal numbering; exit 1 on any mismatch."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--group", type=int, help="check this group only (its id)")

    def handle(self, *args: Any, **options: Any) -> None:
        groups = Group.objects.order_by("pk")
        if options["group"] is not None:
            groups = groups.filter(pk=options["group"])
            if not groups.exists():
                raise CommandError(f"no group {options['group']}")
        audit = Audit()
        found = 0
        for mismatch in audit.mismatches(groups.iterator()):
            found += 1
            self.stdout.write(str(mismatch))
        checked = (
            f"{_plural(audit.groups, 'group')}, {_plural(audit.sessions, 'session')},"
            f" {_plural(audit.deals, 'deal')} ({audit.active:,} active) checked"
        )
        if found:
            raise CommandError(f"verify_ledger: {checked}; {_plural(found, 'mismatch')}")
        self.stdout.write(f"verify_ledger: {checked}; every ledger row agrees with its deal")
