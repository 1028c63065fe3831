"""GET groups/{id}/season/: the season's figures as JSON, members only, in the schema."""

from __future__ import annotations

import yaml
from django.contrib.auth.models import User
from django.test import Client

from games.models import Session
from tests.api.conftest import API, client_for


def test_the_season_over_the_api(night: Session, next_night: Session, bob_user: User) -> None:
    client = client_for(bob_user)
    body = client.get(f"{API}/groups/{night.group_id}/season/").json()
    players = {p["name"]: p for p in body["players"]}
    # The night's units (Ann +7.5) and the next night's (-8); money at its stakes.
    assert (players["Ann"]["units"], players["Ann"]["money"]) == ("-0.5", "-9.25")
    assert (players["Bob"]["deals"], players["Bob"]["fouls"]) == (12, 1)
    assert players["Bob"]["missed_per_deal"] is None
    assert [n["session"] for n in body["nights"]] == [night.pk, next_night.pk]
    assert {(p["a"], p["b"]) for p in body["head_to_head"]} and body["games"] == ["chinese"]
    first = {p["a"]: p for p in body["head_to_head"]}
    assert all(isinstance(pair["money"], str) for pair in first.values())

    only = client.get(f"{API}/groups/{night.group_id}/season/?from={next_night.date}").json()
    assert [n["session"] for n in only["nights"]] == [next_night.pk]
    assert only["date_from"] == str(next_night.date) and only["date_to"] is None
    bad = client.get(f"{API}/groups/{night.group_id}/season/?to=31-12-2026")
    assert bad.status_code == 400 and bad.json()["field"] == "to"
    assert client.get(f"{API}/groups/{night.group_id}/season/?game=poker").status_code == 400


def test_only_members_see_the_season(night: Session, stranger: User) -> None:
    assert client_for(stranger).get(f"{API}/groups/{night.group_id}/season/").status_code == 404


def test_the_schema_describes_the_season(client: Client, db: None) -> None:
    schema = yaml.safe_load(client.get("/api/schema/").content)
    season = schema["paths"][f"{API}/groups/{{id}}/season/"]["get"]
    assert {p["name"] for p in season["parameters"]} >= {"from", "to", "game"}
    answer = season["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][answer.rsplit("/", 1)[1]]["properties"]
    assert {"players", "nights", "head_to_head"} <= set(fields)
    player = schema["components"]["schemas"]["SeasonPlayer"]["properties"]
    assert {"deals", "units", "money", "fouls", "missed_per_deal"} <= set(player)
    assert f"{API}/groups/{{id}}/season/pdf/" in schema["paths"]
