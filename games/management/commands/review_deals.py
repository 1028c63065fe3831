"""`manage.py review_deals`: store the reviews that deals are missing.

Deals recorded before reviews existed, imported from an export file, or whose task was
lost (a broker down when they were recorded) have no review. This reviews them in this
process, oldest first, one transaction per deal, so it can be stopped and run again.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import services
from games.models import Deal, Group, Session


class Command(BaseCommand):
    help = "Review the deals that have no review yet (all, or one session's or group's)."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--session", type=int, help="only this session's deals (its id)")
        which.add_argument("--group", type=int, help="only this group's deals (its id)")
        parser.add_argument(
            "--again", action="store_true", help="review deals that already have a review too"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        deals = Deal.objects.all()
        if options["session"] is not None:
            if not Session.objects.filter(pk=options["session"]).exists():
                raise CommandError(f"there is no session {options['session']}")
            deals = deals.filter(session_id=options["session"])
        if options["group"] is not None:
            if not Group.objects.filter(pk=options["group"]).exists():
                raise CommandError(f"there is no group {options['group']}")
            deals = deals.filter(session__group_id=options["group"])
        if not options["again"]:
            deals = deals.filter(review__isnull=True)
        ids = list(deals.order_by("pk").values_list("pk", flat=True))
        done = sum(services.store_review(pk) is not None for pk in ids)
        self.stdout.write(f"reviewed {done} of {len(ids)} deals")
