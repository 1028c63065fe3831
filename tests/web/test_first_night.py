"""The first night's taps: the owner says which player they are when creating the group
(or later, "I am ..."), so no invite offers their seat; a new session starts with the
group's players seated as they sat last time."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Player
from games.services import invites
from tests.web.conftest import signed_in

NEW_GROUP = {
    "name": "Friday club",
    "currency": "EUR",
    "unit_value": "0.5",
    "preset": "classic-1-6",
    "players": "Ann\nBob\nCy\nDi",
}


def test_the_owner_says_who_they_are_when_creating_the_group(alice: User) -> None:
    client = signed_in(alice)

    answer = client.post("/groups/new/", NEW_GROUP | {"owner_plays": " bob "})

    assert answer.status_code == 302
    group = Group.objects.get()
    assert group.players.get(user=alice).name == "Bob"
    assert [p.name for p in invites.claimable_players(group)] == ["Ann", "Cy", "Di"]
    # The group page offers no "I am ..." any more: the owner plays.
    assert "I am " not in client.get(f"/groups/{group.pk}/").content.decode()


def test_a_name_not_among_the_players_is_refused_and_nothing_is_stored(alice: User) -> None:
    answer = signed_in(alice).post("/groups/new/", NEW_GROUP | {"owner_plays": "Eve"})

    assert answer.status_code == 400
    page = answer.content.decode()
    assert 'id="owner-plays-error"' in page and "Eve is not one of the players" in page
    assert 'value="Eve"' in page  # what was typed stays
    assert not Group.objects.exists()


def test_an_owner_who_plays_no_one_yet_says_i_am_later(alice: User) -> None:
    client = signed_in(alice)
    client.post("/groups/new/", NEW_GROUP)
    group = Group.objects.get()
    page = client.get(f"/groups/{group.pk}/").content.decode()
    assert page.count("I am ") == 4  # one button a player

    cy = group.players.get(name="Cy")
    done = client.post(f"/groups/{group.pk}/players/{cy.pk}/", {"action": "me"})

    assert done.status_code == 302
    assert Player.objects.get(pk=cy.pk).user == alice
    assert "I am " not in client.get(f"/groups/{group.pk}/").content.decode()
    assert "Cy" not in [p.name for p in invites.claimable_players(group)]


def seated(client: Client, group: Group) -> list[str]:
    page = client.get(f"/groups/{group.pk}/sessions/new/").content.decode()
    names = {str(p.pk): p.name for p in group.players.all()}
    chosen = []
    for k in range(1, 5):
        select = re.search(rf'<select id="seat{k}".*?</select>', page, re.S)
        assert select, k
        picked = re.search(r'<option value="(\d+)" selected>', select.group(0))
        chosen.append(names[picked.group(1)] if picked else "")
    return chosen


def test_a_new_session_seats_the_players_as_they_sat_last_time(alice: User) -> None:
    client = signed_in(alice)
    client.post("/groups/new/", NEW_GROUP | {"players": "Di\nAnn\nCy\nBob"})
    group = Group.objects.get()
    # The first night: in the order they were named, not alphabetically.
    assert seated(client, group) == ["Di", "Ann", "Cy", "Bob"]

    by_name = {p.name: p for p in group.players.all()}
    night = [by_name[n] for n in ("Cy", "Bob", "Di", "Ann")]
    services.start_session(group, night, alice)

    assert seated(client, group) == ["Cy", "Bob", "Di", "Ann"]
