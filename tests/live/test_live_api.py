"""The live table's API: who may read and write it (members, seat links), and STATE."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services
from games.models import Deal, Group, Player, Session
from tests.api.conftest import client_for
from tests.live.helpers import hand, seat_token

pytestmark = pytest.mark.django_db


def phone(session: Session, seat: int) -> APIClient:
    """A phone without an account, holding seat ``seat``'s link."""
    client = APIClient()
    client.credentials(HTTP_X_SEAT_TOKEN=seat_token(session, seat))
    return client


def url(session: Session, rest: str = "") -> str:
    return f"/api/v1/sessions/{session.pk}/live/{rest}"


def put(client: APIClient, session: Session, seat: int, entry: Any) -> Any:
    return client.put(url(session, f"seats/{seat}/"), {"entry": entry}, format="json")


def submit(client: APIClient, session: Session, seat: int, entry: Any) -> Any:
    return client.post(url(session, f"seats/{seat}/submit/"), {"entry": entry}, format="json")


def test_a_night_through_the_api(session: Session, bob_user: User) -> None:
    opened = phone(session, 1).post(url(session))
    again = client_for(bob_user).post(url(session))

    assert (opened.status_code, again.status_code) == (201, 200)
    assert opened.json()["live"]["id"] == again.json()["live"]["id"]
    for seat in (1, 2, 3):
        assert submit(phone(session, seat), session, seat, hand(seat)).status_code == 200
    last = submit(phone(session, 4), session, 4, hand(4))

    assert last.status_code == 200
    state = last.json()
    assert state["live"]["status"] == "recorded"
    assert state["live"]["deal"]["units"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert state["live"]["deal"]["url"] == f"/sessions/{session.pk}/#deal-1"
    assert state["live"]["you"]["player"] == "Di" and state["live"]["you"]["submitted"]
    assert state["session"]["deals"] == 1
    # Bob's own player is seated: his STATE shows his seat.
    assert client_for(bob_user).get(url(session)).json()["live"]["you"]["player"] == "Bob"


def test_a_clash_is_named_once_both_hands_are_in(session: Session, ann_user: User) -> None:
    client_for(ann_user).post(url(session))
    put(phone(session, 2), session, 2, hand(2))  # Bob's draft holds 2c

    drafted = put(phone(session, 1), session, 1, {**hand(1), "front": "2c Kc 3d"})
    ann_in = submit(phone(session, 1), session, 1, {**hand(1), "front": "2c Kc 3d"})
    bob_in = submit(phone(session, 2), session, 2, hand(2))
    twice = submit(phone(session, 3), session, 3, hand(3))
    again = submit(phone(session, 3), session, 3, hand(3))

    # Against a draft, neither the save nor the submit says anything of Bob's cards.
    for answer in (drafted, ann_in):
        assert answer.status_code == 200
        assert answer.json()["live"]["you"]["conflicts"] == []
        assert not any(s["conflict"] for s in answer.json()["live"]["seats"])
    # Once both are in, each seat is told the card and who else holds it.
    bob = bob_in.json()["live"]["you"]
    assert bob["conflicts"] == [{"card": "2c", "seat": 1, "player": "Ann"}]
    ann = phone(session, 1).get(url(session)).json()["live"]["you"]
    assert ann["conflicts"] == [{"card": "2c", "seat": 2, "player": "Bob"}]
    assert twice.status_code == 200
    assert (again.status_code, again.json()["detail"]) == (
        409,
        "Cy has already submitted this hand",
    )


def test_an_entry_the_engine_refuses_answers_400(session: Session, ann_user: User) -> None:
    client_for(ann_user).post(url(session))

    refused = submit(phone(session, 1), session, 1, {"front": 7, "name": "Ann"})

    assert refused.status_code == 400


def test_a_seat_link_writes_only_its_seat(session: Session, ann_user: User) -> None:
    client_for(ann_user).post(url(session))

    answer = put(phone(session, 1), session, 2, hand(2))

    assert answer.status_code == 403
    assert phone(session, 2).get(url(session)).json()["live"]["seats"][1]["state"] == "waiting"


def test_the_host_takes_a_seat_and_the_phone_is_refused(session: Session, bob_user: User) -> None:
    bob = client_for(bob_user)
    bob.post(url(session))
    di = phone(session, 4)

    taken = bob.post(url(session, "seats/4/take-over/"))
    refused = put(di, session, 4, hand(4))
    typed = submit(bob, session, 4, hand(4))

    assert taken.status_code == 200
    assert (refused.status_code, refused.json()["detail"]) == (
        409,
        "the host took over Di's seat",
    )
    assert typed.json()["live"]["seats"][3]["by"] == "host"
    assert di.post(url(session, "seats/4/take-over/")).status_code == 403
    assert di.post(url(session, "cancel/")).status_code == 403


def test_a_seat_token_of_another_session_is_refused(
    group: Group, session: Session, players: dict[str, Player], ann_user: User
) -> None:
    other = services.start_session(group, [players["Ann"], players["Bob"]], ann_user)
    client = APIClient()
    client.credentials(HTTP_X_SEAT_TOKEN=seat_token(other, 1))

    assert client.get(url(session)).status_code == 403
    assert client.get(url(other)).status_code == 200


def test_a_revoked_link_is_refused_and_the_new_one_works(
    session: Session, ann_user: User, bob_user: User
) -> None:
    links = client_for(ann_user).get(f"/api/v1/sessions/{session.pk}/seat-links/").json()
    old = links[0]
    revoke = f"/api/v1/sessions/{session.pk}/seat-links/{old['id']}/revoke/"

    assert client_for(bob_user).post(revoke).status_code == 403  # members do not revoke
    new = client_for(ann_user).post(revoke).json()
    stale, fresh = APIClient(), APIClient()
    stale.credentials(HTTP_X_SEAT_TOKEN=old["token"])
    fresh.credentials(HTTP_X_SEAT_TOKEN=new["token"])

    assert [link["player"] for link in links] == ["Ann", "Bob", "Cy", "Di"]
    assert old["url"].endswith(f"/seat/{old['token']}/")
    assert (new["seat"], new["player"], new["revoked"]) == (1, "Ann", False)
    assert stale.get(url(session)).status_code == 403
    assert "revoked" in stale.get(url(session)).json()["error"]
    assert fresh.get(url(session)).status_code == 200
    assert fresh.get(f"/api/v1/sessions/{session.pk}/seat-links/").status_code == 403


def test_another_groups_user_and_nobody_are_refused(session: Session, stranger: User) -> None:
    eve = client_for(stranger)

    assert eve.get(url(session)).status_code == 404
    assert eve.post(url(session)).status_code == 404
    assert put(eve, session, 1, hand(1)).status_code == 404
    assert APIClient().get(url(session)).status_code in (401, 403)
    assert not session.live_deals.exists()


def test_a_closed_session_refuses_writes(session: Session, ann_user: User) -> None:
    ann = client_for(ann_user)
    ann.post(url(session))
    di = phone(session, 4)
    services.close_session(session, ann_user)

    assert di.get(url(session)).status_code == 403  # the link expired with the session
    state = ann.get(url(session)).json()
    assert state["live"]["message"] == "the session was closed"
    refused = submit(ann, session, 4, hand(4))
    assert (refused.status_code, refused.json()["code"]) == (409, "session_closed")
    assert not Deal.objects.filter(session=session).exists()


def test_withdraw_and_cancel(session: Session, ann_user: User) -> None:
    ann = client_for(ann_user)
    ann.post(url(session))
    submit(ann, session, 1, hand(1))

    back = ann.post(url(session, "seats/1/withdraw/"))
    cancelled = ann.post(url(session, "cancel/"))
    none_left = ann.post(url(session, "cancel/"))

    assert back.json()["live"]["you"]["submitted"] is False
    assert cancelled.json()["live"]["status"] == "cancelled"
    assert (none_left.status_code, none_left.json()["code"]) == (409, "no_deal")


def test_the_result_carries_the_totals_so_far(session: Session, ann_user: User) -> None:
    """A seat link's holder has no account to open the scoreboard: STATE brings the totals."""
    for _ in range(2):
        phone(session, 1).post(url(session))
        for seat in (1, 2, 3, 4):
            state = submit(phone(session, seat), session, seat, hand(seat)).json()

    deal = state["live"]["deal"]
    assert deal["number"] == 2
    assert deal["units"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert deal["totals"] == {"Ann": "-16", "Bob": "8", "Cy": "6", "Di": "2"}
    assert deal["total_money"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}  # 0.5 a unit
    assert sum(map(int, deal["totals"].values())) == 0
