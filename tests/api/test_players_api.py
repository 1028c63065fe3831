"""Players through the API: rename and retire with PATCH, merge one into another."""

import datetime
from decimal import Decimal

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import reports, services
from games.models import Group, Player, PlayerMerge, Session
from games.reports.audit import Audit
from tests.api.conftest import API
from tests.pdf.night import play_random_night


def url(group: Group, player: Player, tail: str = "") -> str:
    return f"{API}/groups/{group.pk}/players/{player.pk}/{tail}"


def test_retiring_shows_in_the_list_and_seats_no_one(
    as_alice: APIClient, group: Group, players: dict[str, Player]
) -> None:
    response = as_alice.patch(url(group, players["Di"]), {"retired": True}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["retired"] is True and response.json()["retired_at"]
    listed = as_alice.get(f"{API}/groups/{group.pk}/players/").json()["results"]
    assert {p["name"]: p["retired"] for p in listed} == {
        "Ann": False,
        "Bob": False,
        "Cy": False,
        "Di": True,
    }
    refused = as_alice.post(
        f"{API}/sessions/",
        {"group": group.pk, "players": ["Ann", "Bob", "Di"]},
        format="json",
    )
    assert refused.status_code == 400, refused.content
    assert refused.json()["field"] == "players"
    assert "Di retired" in refused.json()["error"]

    back = as_alice.patch(url(group, players["Di"]), {"retired": False}, format="json")
    assert back.json()["retired"] is False and back.json()["retired_at"] is None


def test_members_cannot_retire_or_merge(
    as_bob: APIClient, group: Group, players: dict[str, Player]
) -> None:
    assert (
        as_bob.patch(url(group, players["Di"]), {"retired": True}, format="json").status_code == 403
    )
    merged = as_bob.post(url(group, players["Di"], "merge/"), {"into": "Cy"}, format="json")
    assert merged.status_code == 403
    assert Player.objects.filter(pk=players["Di"].pk).exists()


def test_a_merge_by_name_moves_the_ledger(
    as_alice: APIClient, alice: User, group: Group, players: dict[str, Player]
) -> None:
    dee = services.add_player(group, "Dee", by=alice)
    seats = [players["Ann"], players["Bob"], dee]
    session = services.start_session(group, seats, alice, date=datetime.date(2026, 11, 20))
    play_random_night(session, alice, deals=6, seed=9)
    before = {r["name"]: r["money"] for r in reports.group_standings(group)["players"]}

    response = as_alice.post(url(group, dee, "merge/"), {"into": "di"}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["kept"]["name"] == "Di" and body["gone_name"] == "Dee"
    assert body["merged_by"] == "alice" and body["moved"]["seats"] == 1
    after = {r["name"]: r["money"] for r in reports.group_standings(group)["players"]}
    assert after["Di"] == before["Di"] + before["Dee"] and "Dee" not in after
    assert sum(after.values(), Decimal(0)) == 0
    assert [str(m) for m in Audit().mismatches([group])] == []
    assert PlayerMerge.objects.get().gone_name == "Dee"
    assert Session.objects.get(pk=session.pk).seats.get(name="Dee").player == players["Di"]


def test_a_merge_that_would_seat_one_player_twice_names_the_session(
    as_alice: APIClient, group: Group, players: dict[str, Player], session: Session
) -> None:
    response = as_alice.post(
        url(group, players["Cy"], "merge/"), {"into": players["Di"].pk}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "error": f"into: Cy and Di both sat at the session of {session.date}"
        f" (session {session.pk}): merged, one player would take two seats",
        "field": "into",
    }


def test_merge_into_an_unknown_player_or_a_bad_value(
    as_alice: APIClient, group: Group, players: dict[str, Player]
) -> None:
    unknown = as_alice.post(url(group, players["Cy"], "merge/"), {"into": "Zed"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["field"] == "into"
    bad = as_alice.post(url(group, players["Cy"], "merge/"), {"into": [1]}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "into"
    missing = as_alice.post(url(group, players["Cy"], "merge/"), {}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "into"
