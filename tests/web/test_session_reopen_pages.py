"""The session page's Close and Reopen (both ask first), its history, and the deal form's
Dealer select."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Deal, Session, SessionEvent
from tests.services.hands import deal
from tests.web.forms import deal_form

FOUR = {"Ann": "A", "Bob": "B", "Cy": "C", "Di": "D"}


def confirming_form(html: str, action: str) -> str | None:
    """The data-confirm text of the form posting to ``action``, None without one."""
    match = re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>', html)
    assert match is not None, f"no form to {action}"
    confirm = re.search(r'data-confirm="([^"]+)"', match.group(0))
    return None if confirm is None else confirm.group(1)


def test_close_asks_first(as_bob: Client, session: Session) -> None:
    html = as_bob.get(f"/sessions/{session.pk}/").content.decode()

    assert confirming_form(html, f"/sessions/{session.pk}/close/") is not None


def test_an_owner_reopens_from_the_page_after_a_confirm_and_the_history_shows_it(
    as_alice: Client, as_bob: Client, alice: User, session: Session
) -> None:
    services.record_deal(session, deal(**FOUR), alice)
    as_bob.post(f"/sessions/{session.pk}/close/")
    reopen = f"/sessions/{session.pk}/reopen/"
    member_page = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert reopen not in member_page  # no button for a member
    assert "Closed by bob" in member_page

    as_bob.post(reopen, {"reason": "please"})  # refused: a member
    session.refresh_from_db()
    assert not session.is_open

    owner_page = as_alice.get(f"/sessions/{session.pk}/").content.decode()
    assert confirming_form(owner_page, reopen) is not None
    answer = as_alice.post(reopen, {"reason": "Cy came back"}, follow=True)
    session.refresh_from_db()
    assert session.is_open
    html = answer.content.decode()
    assert "The session is open again." in html
    assert "Reopened by alice" in html and "Cy came back" in html
    actions = list(SessionEvent.objects.order_by("id").values_list("action", flat=True))
    assert actions == ["close", "reopen"]


def test_the_deal_form_offers_the_next_dealer_and_records_the_choice(
    as_bob: Client, alice: User, session: Session
) -> None:
    services.record_deal(session, deal(**FOUR), alice)  # Ann deals
    form = as_bob.get(f"/sessions/{session.pk}/deal/").content.decode()
    assert re.search(r'<option value="Bob" selected>Bob</option>', form)

    as_bob.post(f"/sessions/{session.pk}/deal/", {**deal_form(**FOUR), "dealer": "Di"})
    assert Deal.objects.get(session=session, number=2).dealer == 4
    edit = as_bob.get(f"/sessions/{session.pk}/deals/2/edit/").content.decode()
    assert '<option value="Di" selected>Di</option>' in edit

    as_bob.post(f"/sessions/{session.pk}/deals/2/edit/", {**deal_form(**FOUR), "dealer": "Cy"})
    assert Deal.objects.get(session=session, number=2).dealer == 3
    page = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert "Next deal: Di deals." in page
