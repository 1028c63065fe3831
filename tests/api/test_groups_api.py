"""Groups, members, players, rules, presets and stakes through the API."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.engine import PRESETS
from games.models import Group, Membership, PairStake, Player, RuleSet
from tests.api.conftest import API


def results(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    rows: list[dict[str, Any]] = body["results"]
    return rows


def test_creating_a_group_makes_the_user_its_owner(as_mallory: APIClient, mallory: User) -> None:
    response = as_mallory.post(
        f"{API}/groups/",
        {"name": "Tuesday table", "currency": "USD", "unit_value": "2", "rules": "ofc"},
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["name"] == "Tuesday table"
    assert (body["currency"], body["unit_value"], body["role"]) == ("USD", "2", "owner")
    assert body["rules_version"] == 1
    group = Group.objects.get(pk=body["id"])
    assert group.memberships.get().user == mallory
    assert group.current_rule_set().rules["preset"] == "ofc"


def test_a_group_with_bad_rules_is_refused_by_field(as_mallory: APIClient) -> None:
    response = as_mallory.post(
        f"{API}/groups/",
        {"name": "Odd", "rules": {"preset": "classic-1-6", "bonus": "3-3"}},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {
        "error": "rules.bonus: '3-3' is not one of '1-6', '2-4', 'none'",
        "field": "rules.bonus",
        "code": "option_value",
        "args": {
            "option": "bonus",
            "value": "'3-3'",
            "expected": {
                "code": "expected_one_of",
                "args": {"choices": ["'1-6'", "'2-4'", "'none'"]},
            },
        },
    }
    assert not Group.objects.exists()


def test_a_group_is_created_with_its_players(as_mallory: APIClient) -> None:
    response = as_mallory.post(
        f"{API}/groups/",
        {"name": "Tuesday table", "players": ["Ann", " Bob ", "Cy"]},
        format="json",
    )

    assert response.status_code == 201, response.content
    group = Group.objects.get(pk=response.json()["id"])
    assert [p.name for p in group.players.all()] == ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize(
    ("players", "error", "field"),
    [
        (
            ["Ann", "Bob", "ANN"],
            "players[2]: 'Ann' is named twice ('ANN' is the same name)",
            "players[2]",
        ),
        (["Ann", ""], "players[1]: a player needs a name", "players[1]"),
        (
            ["Ann", "Bo\u200bb"],
            "players[1]: an invisible character (U+200B ZERO WIDTH SPACE) at position 3"
            " is not allowed in a name",
            "players[1]",
        ),
        ("Ann", 'players: Expected a list of items but got type "str".', "players"),
    ],
    ids=["same-name", "blank", "invisible", "not-a-list"],
)
def test_a_bad_player_name_creates_nothing(
    as_mallory: APIClient, players: Any, error: str, field: str
) -> None:
    response = as_mallory.post(
        f"{API}/groups/", {"name": "Tuesday table", "players": players}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {"error": error, "field": field}
    assert not Group.objects.exists() and not Player.objects.exists()


def test_a_missing_name_gets_the_same_error_shape(as_mallory: APIClient) -> None:
    response = as_mallory.post(f"{API}/groups/", {}, format="json")

    assert response.status_code == 400
    assert response.json() == {"error": "name: This field is required.", "field": "name"}


def test_users_list_only_their_own_groups(
    group: Group, as_alice: APIClient, as_bob: APIClient, as_mallory: APIClient
) -> None:
    assert [(g["name"], g["role"]) for g in results(as_alice.get(f"{API}/groups/"))] == [
        ("Friday club", "owner")
    ]
    assert [(g["name"], g["role"]) for g in results(as_bob.get(f"{API}/groups/"))] == [
        ("Friday club", "member")
    ]
    assert results(as_mallory.get(f"{API}/groups/")) == []


def test_the_api_needs_a_login(group: Group) -> None:
    response = APIClient().get(f"{API}/groups/")

    assert response.status_code == 401
    assert response.json()["field"] is None


def test_owners_change_the_groups_stakes(group: Group, as_alice: APIClient) -> None:
    response = as_alice.patch(
        f"{API}/groups/{group.pk}/", {"unit_value": "0.25", "currency": "gbp"}, format="json"
    )

    assert response.status_code == 200, response.content
    assert (response.json()["unit_value"], response.json()["currency"]) == ("0.25", "GBP")
    group.refresh_from_db()
    assert str(group.unit_value) == "0.2500"


def test_members_add_players_and_link_them_to_members(
    group: Group, players: dict[str, Player], as_bob: APIClient
) -> None:
    guest = as_bob.post(f"{API}/groups/{group.pk}/players/", {"name": "Eve"}, format="json")
    linked = as_bob.post(
        f"{API}/groups/{group.pk}/players/", {"name": "Bobby", "username": "bob"}, format="json"
    )
    twice = as_bob.post(f"{API}/groups/{group.pk}/players/", {"name": "Cy"}, format="json")

    assert guest.status_code == 201
    assert guest.json()["username"] is None
    assert linked.status_code == 400  # bob already plays as Bob
    assert linked.json() == {
        "error": "username: bob is already linked to the player Bob",
        "field": "username",
    }
    assert twice.status_code == 400
    assert twice.json() == {"error": "Friday club already has a player named 'Cy'", "field": "name"}
    names = [p["name"] for p in results(as_bob.get(f"{API}/groups/{group.pk}/players/"))]
    assert names == ["Ann", "Bob", "Cy", "Di", "Eve"]


def test_owners_manage_members(
    group: Group, as_alice: APIClient, mallory: User, alice: User
) -> None:
    url = f"{API}/groups/{group.pk}/members/"
    added = as_alice.post(url, {"username": "mallory"}, format="json")
    assert added.status_code == 201, added.content
    assert added.json()["role"] == "member"
    unknown = as_alice.post(url, {"username": "nobody"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["field"] == "username"

    promoted = as_alice.patch(f"{url}{added.json()['id']}/", {"role": "owner"}, format="json")
    assert promoted.json()["role"] == "owner"
    removed = as_alice.delete(f"{url}{added.json()['id']}/")
    assert removed.status_code == 204
    assert [m["username"] for m in results(as_alice.get(url))] == ["alice", "bob"]

    own = Membership.objects.get(user=alice, group=group)
    last_owner = as_alice.patch(f"{url}{own.pk}/", {"role": "member"}, format="json")
    assert last_owner.status_code == 409
    assert last_owner.json() == {"error": "alice is the group's only owner", "field": "role"}


def test_rules_keep_every_version(group: Group, as_alice: APIClient, as_bob: APIClient) -> None:
    url = f"{API}/groups/{group.pk}/rules/"
    created = as_alice.post(
        url, {"rules": {"preset": "classic-1-6", "royalty_best_only": True}}, format="json"
    )

    assert created.status_code == 201, created.content
    assert created.json()["version"] == 2
    assert created.json()["rules"]["royalty_best_only"] is True
    assert [r["version"] for r in results(as_bob.get(url))] == [1, 2]
    current = as_bob.get(f"{url}current/").json()
    assert (current["version"], current["created_by"]) == (2, "alice")
    assert as_bob.get(f"{url}1/").json()["spec"] == "classic-1-6"


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ("holdem", "rules.preset"),
        ({"preset": "classic-1-6", "bonus": "3-3"}, "rules.bonus"),
        ({"preset": "big-two", "wheel": "low"}, "rules.wheel"),
        ({"preset": "standard", "surrender_cost": -1}, "rules.surrender_cost"),
        ({"bonus": "1-6"}, "rules.preset"),
    ],
)
def test_bad_rules_name_the_field(
    group: Group, as_alice: APIClient, spec: object, field: str
) -> None:
    response = as_alice.post(f"{API}/groups/{group.pk}/rules/", {"rules": spec}, format="json")

    assert response.status_code == 400
    assert response.json()["field"] == field
    assert field.split(".")[-1] in response.json()["error"]
    assert RuleSet.objects.filter(group=group).count() == 1


def test_presets_list_their_resolved_options(as_bob: APIClient) -> None:
    response = as_bob.get(f"{API}/presets/")

    assert response.status_code == 200
    presets = {p["name"]: p for p in response.json()}
    assert list(presets) == list(PRESETS)
    assert presets["pineapple"]["game"] == "open-face"
    assert presets["pineapple"]["rules"]["fantasyland_cards"] == 14
    assert presets["classic-1-6"]["rules"]["surrender_cost"] == "2.5"


def test_owners_set_pair_stakes(
    group: Group, players: dict[str, Player], as_alice: APIClient
) -> None:
    url = f"{API}/groups/{group.pk}/stakes/"
    first = as_alice.post(url, {"players": ["Di", "Ann"], "multiplier": "5"}, format="json")
    again = as_alice.post(url, {"players": ["Ann", "Di"], "multiplier": "3"}, format="json")
    stranger = as_alice.post(url, {"players": ["Ann", "Zed"], "multiplier": "3"}, format="json")

    assert first.status_code == 201, first.content
    assert again.json() == {**first.json(), "multiplier": "3"}
    assert sorted(again.json()["players"]) == ["Ann", "Di"]
    assert stranger.status_code == 400
    assert stranger.json()["field"] == "players[1]"
    assert [s["multiplier"] for s in results(as_alice.get(url))] == ["3"]
    assert PairStake.objects.count() == 1


# --- roles: a member may not govern the group ---------------------------------------------


def test_a_member_cannot_govern_the_group(
    group: Group, players: dict[str, Player], as_bob: APIClient, mallory: User
) -> None:
    g = f"{API}/groups/{group.pk}"
    bob_membership = group.memberships.get(user__username="bob").pk
    attempts = [
        as_bob.post(f"{g}/rules/", {"rules": "standard"}, format="json"),
        as_bob.patch(f"{g}/", {"unit_value": "10"}, format="json"),
        as_bob.post(f"{g}/stakes/", {"players": ["Ann", "Bob"], "multiplier": 9}, format="json"),
        as_bob.post(f"{g}/members/", {"username": "mallory"}, format="json"),
        as_bob.patch(f"{g}/members/{bob_membership}/", {"role": "owner"}, format="json"),
    ]

    for response in attempts:
        assert response.status_code == 403, (response.request["PATH_INFO"], response.content)
        assert set(response.json()) == {"error", "field"}
    assert RuleSet.objects.filter(group=group).count() == 1
    assert not PairStake.objects.exists()
    assert group.memberships.count() == 2


# --- isolation: another group's ids answer 404 ---------------------------------------------


def test_an_outsider_gets_404_everywhere_in_the_group(
    group: Group, players: dict[str, Player], as_mallory: APIClient
) -> None:
    g = f"{API}/groups/{group.pk}"
    membership = group.memberships.first()
    assert membership is not None
    reads = [
        f"{g}/",
        f"{g}/members/",
        f"{g}/members/{membership.pk}/",
        f"{g}/players/",
        f"{g}/players/{players['Ann'].pk}/",
        f"{g}/rules/",
        f"{g}/rules/1/",
        f"{g}/rules/current/",
        f"{g}/stakes/",
    ]
    writes = [
        (f"{g}/", {"unit_value": "9"}),
        (f"{g}/members/", {"username": "mallory", "role": "owner"}),
        (f"{g}/players/", {"name": "Mal"}),
        (f"{g}/rules/", {"rules": "standard"}),
        (f"{g}/stakes/", {"players": ["Ann", "Bob"], "multiplier": 9}),
    ]

    for url in reads:
        assert as_mallory.get(url).status_code == 404, url
    for url, body in writes:
        method = as_mallory.patch if url == f"{g}/" else as_mallory.post
        assert method(url, body, format="json").status_code == 404, url
    assert as_mallory.delete(f"{g}/members/{membership.pk}/").status_code == 404
    assert group.memberships.count() == 2
    assert group.players.count() == 4
