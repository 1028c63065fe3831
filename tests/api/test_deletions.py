"""Renaming players and deleting players, stakes, sessions and groups through the API.

Alice owns the Friday club, Bob is a member (403 where owners decide), Mallory is an
outsider (404). Whatever has history answers 409 and stays.
"""

import json
from decimal import Decimal
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services
from games.models import Deal, Group, PairStake, Player, Session
from tests.api.conftest import API
from tests.services.hands import deal
from tests.streamed import streamed


@pytest.fixture
def played(session: Session, bob: User) -> Session:
    """One deal at Ann's kitchen: Ann A, Bob B."""
    services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob)
    return session


@pytest.fixture
def guest(group: Group, bob: User) -> Player:
    """A guest added but never seated."""
    return services.add_player(group, "Eve", by=bob)


def player_url(player: Player) -> str:
    return f"{API}/groups/{player.group_id}/players/{player.pk}/"


def test_owners_rename_and_link_a_player(
    as_alice: APIClient, players: dict[str, Player], bob: User
) -> None:
    unlinked = as_alice.patch(player_url(players["Bob"]), {"username": None}, format="json")
    assert unlinked.status_code == 200, unlinked.content
    response = as_alice.patch(
        player_url(players["Cy"]), {"name": "Cyril", "username": "bob"}, format="json"
    )

    assert response.status_code == 200, response.content
    assert response.json() == {
        "id": players["Cy"].pk,
        "name": "Cyril",
        "username": "bob",
        "retired": False,
        "retired_at": None,
    }
    response = as_alice.patch(player_url(players["Cy"]), {"username": None}, format="json")
    assert response.json() == {
        "id": players["Cy"].pk,
        "name": "Cyril",
        "username": None,
        "retired": False,
        "retired_at": None,
    }


@pytest.mark.parametrize(
    ("body", "error", "field"),
    [
        ({"name": "Bob"}, "Friday club already has a player named 'Bob'", "name"),
        ({"username": "mallory"}, "username: mallory is not a member of Friday club", "username"),
        ({"username": "nobody"}, "username: there is no user 'nobody'", "username"),
        ({"username": "bob"}, "username: bob is already linked to the player Bob", "username"),
    ],
)
def test_a_bad_rename_or_link_names_the_field(
    as_alice: APIClient,
    players: dict[str, Player],
    mallory: User,
    body: dict[str, str],
    error: str,
    field: str,
) -> None:
    response = as_alice.patch(player_url(players["Cy"]), body, format="json")

    assert response.status_code == 400
    assert response.json() == {"error": error, "field": field}
    assert Player.objects.get(pk=players["Cy"].pk).name == "Cy"


def test_members_and_outsiders_cannot_rename_or_delete_a_player(
    as_bob: APIClient, as_mallory: APIClient, players: dict[str, Player]
) -> None:
    url = player_url(players["Cy"])

    assert as_bob.patch(url, {"name": "Cyril"}, format="json").status_code == 403
    assert as_bob.delete(url).status_code == 403
    assert as_mallory.patch(url, {"name": "Cyril"}, format="json").status_code == 404
    assert as_mallory.delete(url).status_code == 404
    assert Player.objects.get(pk=players["Cy"].pk).name == "Cy"


def test_a_player_never_seated_is_deleted(as_alice: APIClient, guest: Player) -> None:
    response = as_alice.delete(player_url(guest))

    assert response.status_code == 204
    assert not Player.objects.filter(pk=guest.pk).exists()


def test_a_player_with_history_is_kept(
    as_alice: APIClient, played: Session, players: dict[str, Player]
) -> None:
    response = as_alice.delete(player_url(players["Cy"]))

    assert response.status_code == 409
    assert response.json() == {
        "error": "Cy has history: seated in 1 session, so the player cannot be deleted"
        " (rename them instead)",
        "field": None,
    }
    assert Player.objects.filter(pk=players["Cy"].pk).exists()


def test_a_rename_leaves_an_earlier_nights_reports_alone(
    as_alice: APIClient, as_bob: APIClient, played: Session, players: dict[str, Player], bob: User
) -> None:
    services.close_session(played, bob)
    summary = as_bob.get(f"{API}/sessions/{played.pk}/summary/").json()
    settlement = as_bob.get(f"{API}/sessions/{played.pk}/settlement/").json()
    deals = as_bob.get(f"{API}/sessions/{played.pk}/deals/").json()

    response = as_alice.patch(player_url(players["Ann"]), {"name": "Annie"}, format="json")

    assert response.status_code == 200, response.content
    assert as_bob.get(f"{API}/sessions/{played.pk}/summary/").json() == summary
    assert as_bob.get(f"{API}/sessions/{played.pk}/settlement/").json() == settlement
    assert as_bob.get(f"{API}/sessions/{played.pk}/deals/").json() == deals
    session = as_bob.get(f"{API}/sessions/{played.pk}/").json()
    assert session["players"] == ["Ann", "Bob", "Cy", "Di"]  # as they sat down
    ledger = as_bob.get(f"{API}/groups/{played.group_id}/ledger/?player={players['Ann'].pk}")
    body = json.loads(streamed(ledger))
    assert body["player"]["name"] == "Annie"
    assert body["units"] == "-6"


def test_owners_delete_a_pair_stake(
    as_alice: APIClient,
    as_bob: APIClient,
    as_mallory: APIClient,
    session: Session,
    group: Group,
    players: dict[str, Player],
    alice: User,
    bob: User,
) -> None:
    stake = services.set_pair_stake(group, players["Ann"], players["Bob"], 5, by=alice)
    before = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob)
    url = f"{API}/groups/{group.pk}/stakes/{stake.pk}/"

    assert as_mallory.delete(url).status_code == 404
    assert as_bob.delete(url).status_code == 403
    assert as_alice.delete(url).status_code == 204
    assert as_alice.delete(url).status_code == 404

    assert not PairStake.objects.exists()
    after = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob)
    # Ann loses 6 units, at 0.5 a unit: 5x before the stake was dropped, 1x after.
    assert before.result["players"][0]["money"] == "-15"
    assert after.result["players"][0]["money"] == "-3"
    before.refresh_from_db()
    assert before.result["players"][0]["money"] == "-15"


def test_members_delete_an_empty_open_session(
    as_bob: APIClient, as_mallory: APIClient, session: Session
) -> None:
    url = f"{API}/sessions/{session.pk}/"

    assert as_mallory.delete(url).status_code == 404
    assert as_bob.delete(url).status_code == 204
    assert not Session.objects.exists()


def test_a_session_with_deals_or_closed_is_kept(
    as_alice: APIClient, played: Session, group: Group, players: dict[str, Player], bob: User
) -> None:
    closed = services.start_session(group, [players["Cy"], players["Di"]], bob)
    services.close_session(closed, bob)

    response = as_alice.delete(f"{API}/sessions/{played.pk}/")
    assert response.status_code == 409
    assert response.json() == {
        "error": f"session {played.pk} has 1 deal: void them instead of deleting the session",
        "field": None,
    }
    response = as_alice.delete(f"{API}/sessions/{closed.pk}/")
    assert response.status_code == 409
    assert response.json()["error"] == f"session {closed.pk} is closed: it is kept as played"
    assert Session.objects.count() == 2


def test_owners_delete_a_group_without_deals(
    as_alice: APIClient, as_bob: APIClient, as_mallory: APIClient, session: Session, group: Group
) -> None:
    url = f"{API}/groups/{group.pk}/"

    assert as_mallory.delete(url).status_code == 404
    assert as_bob.delete(url).status_code == 403
    assert as_alice.delete(url).status_code == 204
    assert not Group.objects.exists() and not Session.objects.exists()


def test_a_group_with_deals_needs_its_name_to_be_deleted(
    as_alice: APIClient, as_bob: APIClient, played: Session, group: Group
) -> None:
    url = f"{API}/groups/{group.pk}/"

    response = as_alice.delete(url)
    assert response.status_code == 409
    assert response.json() == {
        "error": "Friday club has 1 recorded deal: to delete it with its whole history,"
        " confirm with its name (Friday club)",
        "field": None,
    }
    assert as_alice.delete(f"{url}?confirm=Friday").status_code == 409
    assert as_bob.delete(f"{url}?confirm={quote('Friday club')}").status_code == 403
    assert Deal.objects.count() == 1

    assert as_alice.delete(f"{url}?confirm={quote('Friday club')}").status_code == 204
    assert not Group.objects.exists() and not Deal.objects.exists()
    assert as_alice.get(url).status_code == 404


@pytest.mark.parametrize("currency", ["EU", "E1R", "€UR"])
def test_a_new_group_needs_a_three_letter_currency(as_mallory: APIClient, currency: str) -> None:
    response = as_mallory.post(
        f"{API}/groups/", {"name": "Odd", "currency": currency}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "error": f"currency: expected a 3-letter code, got {currency!r}",
        "field": "currency",
    }
    assert not Group.objects.exists()


def test_a_new_groups_currency_is_stored_upper_case(as_mallory: APIClient) -> None:
    response = as_mallory.post(f"{API}/groups/", {"name": "Odd", "currency": "gbp"}, format="json")

    assert response.status_code == 201
    assert response.json()["currency"] == "GBP"
    assert Group.objects.get().unit_value == Decimal(1)
