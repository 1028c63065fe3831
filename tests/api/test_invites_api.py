"""Invite links through the API: Alice (owner) makes one; Carol accepts it with her token."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services
from games.models import Group, Player
from tests.api.conftest import API, client_for


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol")


@pytest.fixture
def as_carol(carol: User) -> APIClient:
    return client_for(carol)


def test_an_owner_makes_lists_and_revokes_invites(as_alice: APIClient, group: Group) -> None:
    made = as_alice.post(f"{API}/groups/{group.pk}/invites/", {"days": 2}, format="json")
    assert made.status_code == 201
    body = made.json()
    assert set(body) >= {"id", "link", "token", "expires_at"}
    assert body["link"] == f"http://testserver/invites/{body['token']}/"
    listed = as_alice.get(f"{API}/groups/{group.pk}/invites/").json()
    assert [row["id"] for row in listed] == [body["id"]]

    revoked = as_alice.post(f"{API}/groups/{group.pk}/invites/{body['id']}/revoke/")

    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    assert as_alice.get(f"{API}/groups/{group.pk}/invites/").json() == []


def test_members_and_strangers_cannot_touch_invites(
    as_bob: APIClient, as_mallory: APIClient, group: Group, alice: User
) -> None:
    invite = services.create_invite(group, by=alice)
    assert as_bob.post(f"{API}/groups/{group.pk}/invites/", {}).status_code == 403
    assert as_bob.get(f"{API}/groups/{group.pk}/invites/").status_code == 403
    assert as_bob.post(f"{API}/groups/{group.pk}/invites/{invite.pk}/revoke/").status_code == 403
    assert as_mallory.get(f"{API}/groups/{group.pk}/invites/").status_code == 404


def test_an_invite_lasts_one_to_ninety_days(as_alice: APIClient, group: Group) -> None:
    answer = as_alice.post(f"{API}/groups/{group.pk}/invites/", {"days": 365}, format="json")
    assert answer.status_code == 400
    assert answer.json()["field"] == "days"


def test_accepting_claims_a_player_by_name(
    as_alice: APIClient, as_carol: APIClient, group: Group, players: dict[str, Player]
) -> None:
    token = as_alice.post(f"{API}/groups/{group.pk}/invites/").json()["token"]

    answer = as_carol.post(f"{API}/invites/accept/", {"token": token, "player": "cy"})

    assert answer.status_code == 201
    assert answer.json() == {
        "group": group.pk,
        "group_name": "Friday club",
        "role": "member",
        "player": {"id": players["Cy"].pk, "name": "Cy"},
    }
    assert as_carol.get(f"{API}/groups/{group.pk}/").status_code == 200
    again = as_carol.post(f"{API}/invites/accept/", {"token": token, "new_player": "C2"})
    assert again.status_code == 400 and "already a member" in again.json()["error"]


def test_accepting_with_a_new_player_or_a_taken_one(
    as_alice: APIClient, as_carol: APIClient, group: Group, players: dict[str, Player]
) -> None:
    token = as_alice.post(f"{API}/groups/{group.pk}/invites/").json()["token"]

    taken = as_carol.post(f"{API}/invites/accept/", {"token": token, "player": players["Bob"].pk})
    assert taken.status_code == 400 and taken.json()["field"] == "player"
    both = as_carol.post(
        f"{API}/invites/accept/", {"token": token, "player": "Cy", "new_player": "Carol"}
    )
    assert both.status_code == 400 and both.json()["field"] == "player"
    made = as_carol.post(f"{API}/invites/accept/", {"token": token, "new_player": "Carol"})
    assert made.status_code == 201 and made.json()["player"]["name"] == "Carol"


def test_a_forged_token_is_refused_in_the_error_shape(
    as_alice: APIClient, as_carol: APIClient, group: Group
) -> None:
    token = as_alice.post(f"{API}/groups/{group.pk}/invites/").json()["token"]

    answer = as_carol.post(f"{API}/invites/accept/", {"token": token + "x", "new_player": "C"})

    assert answer.status_code == 400
    assert answer.json()["field"] == "token" and "not valid" in answer.json()["error"]


def test_accepting_needs_a_signed_in_user(as_alice: APIClient, group: Group) -> None:
    token = as_alice.post(f"{API}/groups/{group.pk}/invites/").json()["token"]
    answer = APIClient().post(f"{API}/invites/accept/", {"token": token, "new_player": "X"})
    assert answer.status_code in (401, 403)
    assert set(answer.json()) == {"error", "field"}
