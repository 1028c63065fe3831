"""The live table's pages as their script uses them: the host types and submits a seat's
hand (without taking the seat over), and the owner revokes a seat link; what the seat's
phone sees afterwards, through its page and its API calls."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Deal, LiveEntry, SeatLink, Session
from tests.api.conftest import client_for
from tests.live.helpers import hand, seat_token
from tests.live.test_live_api import phone, submit, url

pytestmark = pytest.mark.django_db

UNITS = {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}


class LivePage:
    """A member's browser on /sessions/<id>/live/: the page, then the calls live.js makes
    from it (the session cookie and the page's CSRF token; CSRF is checked)."""

    def __init__(self, user: User, session: Session) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(user)
        self.session = session
        self.reload()

    def reload(self) -> None:
        answer = self.client.get(f"/sessions/{self.session.pk}/live/")
        assert answer.status_code == 200
        self.html = answer.content.decode()
        found = re.search(
            r'<script id="live-config" type="application/json">(.*?)</script>', self.html
        )
        assert found is not None
        self.config: dict[str, Any] = json.loads(found.group(1))
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', self.html)
        assert token is not None
        self.csrf = token.group(1)

    def api(self, path: str, body: Any = None, *, csrf: bool = True) -> Any:
        """``api("POST", path, body)`` of live.js."""
        headers = {"X-CSRFToken": self.csrf} if csrf else {}
        data = json.dumps(body) if body is not None else None
        return self.client.post(
            self.config["api"] + path, data, content_type="application/json", headers=headers
        )

    def revoke(self, link_id: int) -> Any:
        """The revoke button's call: the seat-links URL next to the live API's."""
        revoke = re.sub(r"live/$", f"seat-links/{link_id}/revoke/", self.config["api"])
        return self.client.post(revoke, HTTP_X_CSRFTOKEN=self.csrf)

    def revoke_buttons(self) -> list[int]:
        return [
            int(k)
            for k in re.findall(r'class="secondary revoke-seat" data-link="(\d+)"', self.html)
        ]


def _di_sees(session: Session) -> dict[str, Any]:
    live = phone(session, 4).get(url(session)).json()["live"]
    assert isinstance(live, dict)
    return live


def test_the_host_types_the_last_hand_through_the_api_and_the_deal_records(
    session: Session, ann_user: User
) -> None:
    ann = client_for(ann_user)
    ann.post(url(session))
    for seat in (1, 2, 3):
        submit(phone(session, seat), session, seat, hand(seat))

    typed = submit(ann, session, 4, hand(4))  # Di has no phone: Ann types it, no take-over

    assert typed.status_code == 200
    assert typed.json()["live"]["status"] == "recorded"
    assert typed.json()["live"]["deal"]["units"] == UNITS
    (deal,) = Deal.objects.filter(session=session)
    assert {p["name"]: p["units"] for p in deal.result["players"]} == UNITS
    # Di's phone shows the hand as submitted, by the host, and the result; the deal is
    # recorded, so there is nothing left to withdraw.
    di = _di_sees(session)
    assert (di["status"], di["you"]["submitted"], di["you"]["entry"]) == (
        "recorded",
        True,
        hand(4),
    )
    assert di["seats"][3]["by"] == "host" and not di["you"]["taken_over"]
    back = phone(session, 4).post(url(session, "seats/4/withdraw/"))
    assert (back.status_code, back.json()["code"]) == (409, "no_deal")
    assert Deal.objects.filter(session=session).count() == 1


def test_a_hand_the_host_typed_stays_the_seats_own(session: Session, ann_user: User) -> None:
    ann = client_for(ann_user)
    ann.post(url(session))

    submit(ann, session, 4, hand(4))
    di = _di_sees(session)
    # Not taken over: the seat's phone sees what the host typed, and may take it back to
    # change it (games.live.table: a seat link writes its seat until the host takes it).
    assert (di["you"]["submitted"], di["you"]["entry"], di["seats"][3]["by"]) == (
        True,
        hand(4),
        "host",
    )
    back = phone(session, 4).post(url(session, "seats/4/withdraw/"))
    assert back.status_code == 200 and back.json()["live"]["you"]["submitted"] is False
    again = submit(phone(session, 4), session, 4, hand(4))
    assert again.json()["live"]["seats"][3] == {
        "seat": 4,
        "player": "Di",
        "state": "submitted",
        "by": "phone",
        "taken_over": False,
        "conflict": False,
        "cards": 13,
        "phone": "none",
        "quiet": None,
    }


def test_the_host_types_a_hand_on_the_live_page(session: Session, bob_user: User) -> None:
    bob = LivePage(bob_user, session)  # a member, not an owner
    assert 'class="host-form" data-seat="4"' in bob.html
    assert bob.api("").status_code == 201  # "Start the next deal"
    for seat in (1, 2, 3):
        submit(phone(session, seat), session, seat, hand(seat))

    without_csrf = bob.api("seats/4/submit/", {"entry": hand(4)}, csrf=False)
    typed = bob.api("seats/4/submit/", {"entry": hand(4)})

    assert without_csrf.status_code == 403
    assert typed.status_code == 200
    assert typed.json()["live"]["deal"]["units"] == UNITS
    entry = LiveEntry.objects.get(live_deal__session=session, player__name="Di")
    assert (entry.by, entry.taken_over) == ("host", False)
    assert _di_sees(session)["you"]["submitted"] is True


def test_the_owner_revokes_a_seat_link_on_the_live_page(
    session: Session, ann_user: User, bob_user: User
) -> None:
    ann, bob = LivePage(ann_user, session), LivePage(bob_user, session)
    old = SeatLink.objects.get(session=session, player__name="Cy", revoked_at=None)
    old_token = seat_token(session, 3)

    # Revoking is the owners' (games.live.seat_links.revoke_link): Bob has no button,
    # and the call refused to him changes nothing.
    assert bob.revoke_buttons() == []
    refused = bob.revoke(old.pk)
    assert refused.status_code == 403
    assert "only an owner" in refused.json()["error"]
    assert Client().get(f"/seat/{old_token}/").status_code == 200

    assert old.pk in ann.revoke_buttons()
    revoked = ann.revoke(old.pk)
    assert revoked.status_code == 200
    new_token = revoked.json()["token"]
    ann.reload()  # (live.js reloads the page)

    assert f"/seat/{new_token}/" in ann.html and f"/seat/{old_token}/" not in ann.html
    page = Client().get(f"/seat/{old_token}/")
    assert page.status_code == 410
    assert "This seat link was revoked: ask the host for the new one." in page.content.decode()
    stale = APIClient()
    stale.credentials(HTTP_X_SEAT_TOKEN=old_token)
    for answer in (stale.get(url(session)), stale.post(url(session))):
        assert answer.status_code == 403
        assert answer.json()["error"] == "This seat link was revoked: ask the host for the new one."
    assert submit(stale, session, 3, hand(3)).status_code == 403
    assert Client().get(f"/seat/{new_token}/").status_code == 200
    assert phone(session, 3).post(url(session)).status_code == 201  # the new link writes


def test_a_seat_link_that_no_longer_works_says_why_on_its_page(
    session: Session, ann_user: User
) -> None:
    token = seat_token(session, 2)
    cut = Client().get(f"/seat/{token[:-4]}/")
    services.close_session(session, ann_user)
    closed = Client().get(f"/seat/{token}/")

    for page, why in (
        (cut, "This seat link is not valid: it may have been copied incompletely."),
        (closed, "This session is closed: its seat links no longer work."),
    ):
        assert page.status_code == 410
        assert why in page.content.decode()
        assert 'id="live-config"' not in page.content.decode()
