"""Recording a deal through the API never loses or mis-records one: a reused
Idempotency-Key with another deal is a 409, a seated player left out is a 400 unless the
request says they sat the deal out."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Deal, LedgerEntry, Session
from tests.api.conftest import API
from tests.services.hands import HANDS, deal

SAT_OUT = {"sat_out": True}


def deals_url(session: Session) -> str:
    return f"{API}/sessions/{session.pk}/deals/"


def post(client: APIClient, session: Session, body: Any, key: str | None = None) -> Any:
    headers = {} if key is None else {"Idempotency-Key": key}
    return client.post(deals_url(session), body, format="json", headers=headers)


def test_a_reused_key_with_another_deal_answers_409(session: Session, as_bob: APIClient) -> None:
    first = post(as_bob, session, {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")}, "k")
    assert first.status_code == 201

    other = post(as_bob, session, {"players": deal(Ann="B", Bob="A", Cy="C", Di="D")}, "k")

    assert other.status_code == 409, other.content
    body = other.json()
    assert set(body) - {"code", "args"} == {"error", "field"}  # (a refusal's code)
    assert body["field"] == "Idempotency-Key"
    assert "deal 1" in body["error"]
    assert (Deal.objects.count(), LedgerEntry.objects.count()) == (1, 6)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"players": "garbage"}, 400),
        ({"players": [1, 2]}, 400),
        ({"players": None}, 400),
        ({}, 400),
        ({"players": [{"name": "Ann", "front": "zz"}]}, 409),
    ],
)
def test_garbage_under_a_used_key_is_never_a_200(
    session: Session, as_bob: APIClient, body: dict[str, Any], status: int
) -> None:
    assert post(as_bob, session, {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")}, "k")

    response = post(as_bob, session, body, "k")

    assert response.status_code == status, response.content
    assert set(response.json()) - {"code", "args"} == {"error", "field"}
    assert Deal.objects.count() == 1


def test_the_same_deal_sent_again_is_replayed(session: Session, as_bob: APIClient) -> None:
    players = deal(Ann="A", Bob="B", Cy="C", Di="D")
    first = post(as_bob, session, {"players": players}, "k")
    reordered = [dict(reversed(list(p.items()))) for p in players]

    again = post(as_bob, session, {"players": reordered}, "k")

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]


def test_a_seated_player_left_out_answers_400(session: Session, as_bob: APIClient) -> None:
    response = post(as_bob, session, {"players": deal(Ann="A", Bob="B", Cy="C")})

    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == "players"
    assert "Di" in body["error"] and "sat_out" in body["error"]
    assert Deal.objects.count() == 0


def test_a_player_who_sat_out_says_so(session: Session, as_bob: APIClient) -> None:
    players = [*deal(Ann="A", Bob="B", Cy="C"), {"name": "Di", **SAT_OUT}]

    response = post(as_bob, session, {"players": players})

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["players"][3] == {"name": "Di", "sat_out": True}
    assert [p["name"] for p in body["result"]["players"]] == ["Ann", "Bob", "Cy"]
    shown = as_bob.get(f"{deals_url(session)}1/").json()
    assert shown["players"] == players


def test_a_sat_out_entry_with_cards_answers_400(session: Session, as_bob: APIClient) -> None:
    players = [*deal(Ann="A", Bob="B", Cy="C"), {"name": "Di", **SAT_OUT, **HANDS["D"]}]

    response = post(as_bob, session, {"players": players})

    assert response.status_code == 400
    assert response.json()["field"] == "players[3].front"


def test_an_edit_leaving_a_seat_out_answers_400(session: Session, as_bob: APIClient) -> None:
    post(as_bob, session, {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")})
    url = f"{deals_url(session)}1/"

    left_out = as_bob.patch(url, {"players": deal(Ann="B", Bob="A", Cy="C")}, format="json")
    sat_out = as_bob.patch(
        url,
        {"players": [*deal(Ann="B", Bob="A", Cy="C"), {"name": "Di", **SAT_OUT}]},
        format="json",
    )

    assert left_out.status_code == 400
    assert left_out.json()["field"] == "players"
    assert sat_out.status_code == 200, sat_out.content
    assert sat_out.json()["version"] == 2


def test_a_reason_beyond_200_characters_answers_400(session: Session, as_bob: APIClient) -> None:
    post(as_bob, session, {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")})
    players = deal(Ann="B", Bob="A", Cy="C", Di="D")

    response = as_bob.patch(
        f"{deals_url(session)}1/", {"players": players, "reason": "x" * 201}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["field"] == "reason"
    assert Deal.objects.get().version == 1
