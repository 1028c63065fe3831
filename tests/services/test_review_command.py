"""`manage.py review_deals` fills in the reviews that deals are missing."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games import services
from games.models import Deal, ReviewLine, Session
from tests.services.hands import deal


def run(*args: str) -> str:
    out = StringIO()
    call_command("review_deals", *args, stdout=out)
    return out.getvalue().strip()


def test_deals_without_a_review_get_one(session: Session, bob_user: User) -> None:
    # Inside the test's transaction nothing commits, so no review task runs.
    for holding in ("ABCD", "BCDA", "CDAB"):
        services.record_deal(
            session, deal(**dict(zip(("Ann", "Bob", "Cy", "Di"), holding, strict=True))), bob_user
        )
    assert not Deal.objects.filter(review__isnull=False).exists()

    assert run("--session", str(session.pk)) == "reviewed 3 of 3 deals"

    assert all(d.review is not None and d.review["version"] == 1 for d in Deal.objects.all())
    assert ReviewLine.objects.count() == 12
    assert run() == "reviewed 0 of 0 deals"  # nothing left to do
    assert run("--group", str(session.group_id), "--again") == "reviewed 3 of 3 deals"
    assert ReviewLine.objects.count() == 12  # replaced, not added


def test_an_unknown_session_is_an_error(db: None) -> None:
    with pytest.raises(CommandError, match="there is no session 999"):
        run("--session", "999")
