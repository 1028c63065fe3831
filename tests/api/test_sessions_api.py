"""Sessions and deals through the API: recording, bad cards, idempotency, edits, voids,
closed sessions, filters, roles and isolation."""

import datetime
from collections.abc import Callable
from contextlib import AbstractContextManager
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services
from games.models import Deal, DealRevision, Group, LedgerEntry, Player, Session
from tests.api.conftest import API
from tests.services.hands import deal


def row_counts() -> tuple[int, int, int]:
    return Deal.objects.count(), LedgerEntry.objects.count(), DealRevision.objects.count()


def deals_url(session: Session) -> str:
    return f"{API}/sessions/{session.pk}/deals/"


def post_deal(client: APIClient, session: Session, players: list[Any], **headers: str) -> Any:
    return client.post(deals_url(session), {"players": players}, format="json", headers=headers)


def units(body: dict[str, Any]) -> dict[str, str]:
    return {p["name"]: p["units"] for p in body["result"]["players"]}


def test_starting_a_session(group: Group, players: dict[str, Player], as_bob: APIClient) -> None:
    response = as_bob.post(
        f"{API}/sessions/",
        {
            "group": group.pk,
            "players": ["Di", "Cy", "Bob"],
            "date": "2026-11-27",
            "place": "Bob's",
            "rules_override": "pineapple",
        },
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["players"] == ["Di", "Cy", "Bob"]
    assert (body["game"], body["status"], body["rules_version"]) == ("open-face", "open", 1)
    assert body["rules"]["preset"] == "pineapple"
    assert body["date"] == "2026-11-27"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Ann", "Zed"]}, "players[1]"),
        ({"players": ["Ann", "Ann"]}, "players"),
        ({"players": ["Ann"]}, "players"),
        ({"players": ["Ann", "Bob"], "rules_override": {"bonus": "3-3"}}, "rules.bonus"),
        ({"players": ["Ann", "Bob"], "game": "poker"}, "game"),
    ],
)
def test_a_bad_session_names_the_field(
    group: Group, players: dict[str, Player], as_bob: APIClient, body: dict[str, Any], field: str
) -> None:
    response = as_bob.post(f"{API}/sessions/", {"group": group.pk, **body}, format="json")

    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert not Session.objects.exists()


def test_sessions_filter_by_date_player_and_game(
    group: Group, players: dict[str, Player], alice: User, as_bob: APIClient
) -> None:
    ann, bob, cy, di = (players[n] for n in ("Ann", "Bob", "Cy", "Di"))
    day = datetime.date(2026, 11, 1)
    services.start_session(group, [ann, bob], alice, date=day)
    services.start_session(group, [cy, di], alice, date=day + datetime.timedelta(days=7))
    services.start_session(group, [ann, cy], alice, date=day + datetime.timedelta(days=14))
    services.start_session(group, [ann, di], alice, date=day, game="big-two")

    def listed(query: str) -> list[tuple[str, list[str]]]:
        response = as_bob.get(f"{API}/sessions/?{query}")
        assert response.status_code == 200, response.content
        return [(s["date"], s["players"]) for s in response.json()["results"]]

    assert listed("date_after=2026-11-05&date_before=2026-11-10") == [("2026-11-08", ["Cy", "Di"])]
    assert listed(f"player={ann.pk}&game=chinese") == [
        ("2026-11-15", ["Ann", "Cy"]),
        ("2026-11-01", ["Ann", "Bob"]),
    ]
    assert listed("game=big-two") == [("2026-11-01", ["Ann", "Di"])]
    assert len(listed(f"group={group.pk}")) == 4


def test_members_correct_a_sessions_place_and_notes(session: Session, as_bob: APIClient) -> None:
    url = f"{API}/sessions/{session.pk}/"
    response = as_bob.patch(url, {"place": "Bob's", "date": "2026-11-27"}, format="json")

    assert response.status_code == 200, response.content
    assert (response.json()["place"], response.json()["date"]) == ("Bob's", "2026-11-27")
    assert response.json()["notes"] == ""
    as_bob.post(f"{url}close/")
    assert as_bob.patch(url, {"notes": "late"}, format="json").status_code == 409


def test_recording_a_deal_answers_the_scored_deal(
    session: Session, as_bob: APIClient, bob: User
) -> None:
    response = post_deal(as_bob, session, deal(Ann="A", Bob="B", Cy="C", Di="D"))

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["number"], body["status"], body["version"]) == (1, "active", 1)
    assert body["created_by"] == "bob"
    assert units(body) == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert body["rules"]["preset"] == "classic-1-6"
    assert body["stakes"] == {"unit_value": "0.5", "pairs": []}
    assert body["revisions"] == []
    assert row_counts() == (1, 6, 0)
    listed = as_bob.get(deals_url(session)).json()["results"]
    assert [d["number"] for d in listed] == [1]
    assert "session_closed" not in body  # only once a target score closes the session
    assert as_bob.get(f"{deals_url(session)}1/").json() == body


@pytest.mark.parametrize(
    ("entries", "field", "words"),
    [
        (
            [
                {
                    "name": "Ann",
                    "front": "Ac Kc 3d",
                    "middle": "4c 4d 9h Jd",
                    "back": "7c 7d 7h 2s 5d",
                },
                {
                    "name": "Bob",
                    "front": "2c 2d 8s",
                    "middle": "5c 5h Tc Ts Kd",
                    "back": "3c 4h 5s 6d 7s",
                },
                *deal(sat_out=("Cy", "Di")),
            ],
            "players[0].middle",
            ["Ann", "middle", "4 cards"],
        ),
        (
            [
                {
                    "name": "Ann",
                    "front": "Ac Kc 3d",
                    "middle": "4c 4d 9h Jd Qs",
                    "back": "7c 7d 7h 2s 5d",
                },
                {
                    "name": "Bob",
                    "front": "2c 2d 8s",
                    "middle": "5c 5h Tc Ts Kd",
                    "back": "3c 4h 5s 6d 1x",
                },
                *deal(sat_out=("Cy", "Di")),
            ],
            "players[1].back",
            ["Bob", "back", "1x"],
        ),
        (
            [
                {
                    "name": "Ann",
                    "front": "Ac Kc 3d",
                    "middle": "4c 4d 9h Jd Qs",
                    "back": "7c 7d 7h 2s 5d",
                },
                {
                    "name": "Bob",
                    "front": "Ac 2d 8s",
                    "middle": "5c 5h Tc Ts Kd",
                    "back": "3c 4h 5s 6d 7s",
                },
                *deal(sat_out=("Cy", "Di")),
            ],
            None,
            ["Ac"],
        ),
        ([{"name": "Ann", **deal(Ann="A")[0]}, {"name": "Zed"}], "players[1].name", ["Zed"]),
        ("Ann and Bob", "players", ["list"]),
    ],
    ids=["short-row", "bad-card", "duplicate-card", "not-seated", "not-a-list"],
)
def test_bad_cards_are_refused_and_nothing_is_stored(
    session: Session, as_bob: APIClient, entries: Any, field: str | None, words: list[str]
) -> None:
    response = post_deal(as_bob, session, entries)

    assert response.status_code == 400, response.content
    body = response.json()
    # The scorer's refusals give their code (games.engine.errors); the session's own none.
    assert set(body) == (
        {"error", "field", "code", "args"} if "code" in body else {"error", "field"}
    )
    if field is not None:
        assert body["field"] == field
    for word in words:
        assert word in body["error"]
    assert row_counts() == (0, 0, 0)


def test_a_deal_without_players_gets_the_error_shape(session: Session, as_bob: APIClient) -> None:
    response = as_bob.post(deals_url(session), {}, format="json")

    assert response.status_code == 400
    assert response.json() == {"error": "players: This field is required.", "field": "players"}


def test_the_same_idempotency_key_records_one_deal(session: Session, as_bob: APIClient) -> None:
    players = deal(Ann="A", Bob="B", Cy="C", Di="D")
    first = post_deal(as_bob, session, players, **{"Idempotency-Key": "phone-1:17"})
    again = post_deal(as_bob, session, players, **{"Idempotency-Key": "phone-1:17"})
    other = post_deal(as_bob, session, players, **{"Idempotency-Key": "phone-1:18"})

    assert (first.status_code, again.status_code, other.status_code) == (201, 200, 201)
    assert again.json() == first.json()
    assert first.json()["idempotency_key"] == "phone-1:17"
    assert other.json()["number"] == 2
    assert row_counts() == (2, 12, 0)


def test_a_retry_after_closing_still_gets_its_deal(session: Session, as_bob: APIClient) -> None:
    players = deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))
    first = post_deal(as_bob, session, players, **{"Idempotency-Key": "k"})
    assert as_bob.post(f"{API}/sessions/{session.pk}/close/").status_code == 200

    again = post_deal(as_bob, session, players, **{"Idempotency-Key": "k"})

    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]


def test_editing_a_deal_rescores_it_and_keeps_the_revision(
    session: Session, as_bob: APIClient
) -> None:
    post_deal(as_bob, session, deal(Ann="A", Bob="B", Cy="C", Di="D"))

    response = as_bob.patch(
        f"{deals_url(session)}1/",
        {"players": deal(Di="A", Ann="B", Bob="C", Cy="D"), "reason": "hands mixed up"},
        format="json",
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["number"], body["version"]) == (1, 2)
    assert units(body) == {"Ann": "4", "Bob": "3", "Cy": "1", "Di": "-8"}
    [revision] = body["revisions"]
    assert (revision["version"], revision["action"], revision["reason"]) == (
        1,
        "edit",
        "hands mixed up",
    )
    assert revision["changed_by"] == "bob"
    assert {p["name"]: p["units"] for p in revision["result"]["players"]}["Ann"] == "-8"
    assert row_counts() == (1, 6, 1)


def test_a_bad_edit_changes_nothing(session: Session, as_bob: APIClient) -> None:
    created = post_deal(as_bob, session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))).json()
    bad = deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))
    bad[1]["front"] = "2c 2d"

    response = as_bob.put(f"{deals_url(session)}1/", {"players": bad}, format="json")

    assert response.status_code == 400
    assert response.json()["field"] == "players[1].front"
    assert as_bob.get(f"{deals_url(session)}1/").json() == created


def test_owners_void_deals_and_members_cannot(
    session: Session, as_alice: APIClient, as_bob: APIClient
) -> None:
    post_deal(as_bob, session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")))
    url = f"{deals_url(session)}1/void/"

    refused = as_bob.post(url, {"reason": "mine"}, format="json")
    assert refused.status_code == 403
    assert row_counts() == (1, 1, 0)

    voided = as_alice.post(url, {"reason": "entered twice"}, format="json")
    assert voided.status_code == 200, voided.content
    assert (voided.json()["status"], voided.json()["version"]) == ("void", 2)
    assert voided.json()["revisions"][0]["action"] == "void"
    assert row_counts() == (1, 0, 1)

    again = as_alice.post(url, format="json")
    assert again.status_code == 409
    assert again.json() == {"error": "deal 1 is void", "field": None}
    edit = as_bob.put(
        f"{deals_url(session)}1/",
        {"players": deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))},
        format="json",
    )
    assert edit.status_code == 409


def test_a_closed_session_answers_409(
    session: Session, as_alice: APIClient, as_bob: APIClient
) -> None:
    post_deal(as_bob, session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")))
    closed = as_bob.post(f"{API}/sessions/{session.pk}/close/")
    assert closed.status_code == 200
    assert closed.json()["status"] == "closed"
    counts = row_counts()

    attempts = [
        post_deal(as_bob, session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))),
        as_bob.put(
            f"{deals_url(session)}1/",
            {"players": deal(Ann="B", Bob="A", sat_out=("Cy", "Di"))},
            format="json",
        ),
        as_alice.post(f"{deals_url(session)}1/void/", format="json"),
        as_bob.post(f"{API}/sessions/{session.pk}/close/"),
    ]

    for response in attempts:
        assert response.status_code == 409, response.content
        assert set(response.json()) == {"error", "field"}
        assert "closed" in response.json()["error"]
    assert row_counts() == counts


def test_an_outsider_gets_404_for_sessions_and_deals(
    session: Session, group: Group, as_bob: APIClient, as_mallory: APIClient
) -> None:
    post_deal(as_bob, session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")))
    s = f"{API}/sessions/{session.pk}"
    counts = row_counts()

    assert as_mallory.get(f"{API}/sessions/").json()["results"] == []
    for url in (f"{s}/", f"{s}/deals/", f"{s}/deals/1/"):
        assert as_mallory.get(url).status_code == 404, url
    attempts = [
        as_mallory.post(f"{s}/close/"),
        as_mallory.patch(f"{s}/", {"place": "Mallory's"}, format="json"),
        post_deal(as_mallory, session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))),
        as_mallory.put(
            f"{s}/deals/1/",
            {"players": deal(Ann="B", Bob="A", sat_out=("Cy", "Di"))},
            format="json",
        ),
        as_mallory.post(f"{s}/deals/1/void/", format="json"),
        as_mallory.post(
            f"{API}/sessions/", {"group": group.pk, "players": ["Ann", "Bob"]}, format="json"
        ),
    ]
    for response in attempts:
        assert response.status_code == 404, (response.request["PATH_INFO"], response.content)
    assert row_counts() == counts
    assert Session.objects.count() == 1
    session.refresh_from_db()
    assert session.is_open


@pytest.mark.django_db(transaction=True)  # real commits: the review runs at the commit
def test_without_a_broker_the_answer_to_a_deal_carries_its_review(
    session: Session, as_bob: APIClient
) -> None:
    # Run eagerly (the embedded default) the review is done at the commit, before the answer.
    response = post_deal(as_bob, session, deal(Ann="A", Bob="B", Cy="C", Di="D"))

    assert response.status_code == 201, response.content
    review = response.json()["review"]
    assert review == as_bob.get(f"{deals_url(session)}1/").json()["review"]
    assert review["reviewed"] is True and review["version"] == 1


def test_a_stored_deal_shows_its_review_once_it_is_done(
    session: Session,
    as_bob: APIClient,
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[list[Any]]],
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = post_deal(as_bob, session, deal(Ann="A", Bob="B", Cy="C", Di="D"))
    assert response.status_code == 201, response.content
    assert response.json()["review"] is None  # queued, not done yet
    assert len(queued) == 2  # the review, and the announcement to the pages following

    for work in queued:
        work()

    review = as_bob.get(f"{deals_url(session)}1/").json()["review"]
    assert review["reviewed"] is True
    assert review["version"] == 1
    ann = next(p for p in review["players"] if p["name"] == "Ann")
    assert ann["actual_units"] == "-8"  # hand A, worked out in tests/services/hands.py
    assert Decimal(ann["units_missed"]) == Decimal(ann["best_units"]) + 8
    assert set(ann["best"]) == {"front", "middle", "back"}
    summary = as_bob.get(f"{API}/sessions/{session.pk}/summary/").json()
    assert summary["reviewed_deals"] == 1
    missed = {p["name"]: Decimal(p["units_missed"]) for p in summary["players"]}
    assert missed["Ann"] == Decimal(ann["units_missed"])


def test_a_deal_recorded_through_the_api_is_played_at_the_pairs_stakes(
    session: Session, players: dict[str, Player], as_bob: APIClient, alice: User
) -> None:
    """The deal carries the stakes of the pairs at the table, in a stable order."""
    services.set_pair_stake(session.group, players["Di"], players["Ann"], "2.5", by=alice)
    services.set_pair_stake(session.group, players["Bob"], players["Cy"], 3, by=alice)

    response = post_deal(as_bob, session, deal(Ann="A", Bob="B", Cy="C", Di="D"))

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["stakes"] == {
        "unit_value": "0.5",
        "pairs": [
            {"players": ["Ann", "Di"], "multiplier": "2.5"},
            {"players": ["Bob", "Cy"], "multiplier": "3"},
        ],
    }
    # Units (hands.py): Ann-Di -1 at 2.5x and 0.5 a unit, Bob-Cy -1 at 3x.
    money = {tuple(p["players"]): p["money"] for p in body["result"]["pairs"]}
    assert money[("Ann", "Di")] == "-1.25"
    assert money[("Bob", "Cy")] == "-1.5"
    assert money[("Ann", "Bob")] == "-3"  # -6 units at 1x
    by_services = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    assert by_services.request["stakes"] == body["stakes"]


def test_the_deal_that_reaches_the_target_says_the_session_is_closed_and_why(
    group: Group, players: dict[str, Player], alice: User, as_bob: APIClient
) -> None:
    seats = [players[n] for n in ("Ann", "Bob", "Di")]
    night = services.start_session(group, seats, alice, game="big-two", target_score=30)
    # One unit a card: Ann goes out, Bob holds 1 and Di all 13 (Di -13).
    first = post_deal(
        as_bob,
        night,
        [
            {"name": "Ann", "cards_left": 0},
            {"name": "Bob", "cards_left": 1},
            {"name": "Di", "cards_left": 13},
        ],
    )
    assert first.status_code == 201 and "session_closed" not in first.json()
    # Bob goes out; Di holds 13 again (-26) and then 7 (-33): past the target of 30.
    for left in (13, 7):
        answer = post_deal(
            as_bob,
            night,
            [
                {"name": "Ann", "cards_left": 2},
                {"name": "Bob", "cards_left": 0},
                {"name": "Di", "cards_left": left},
            ],
        )
        assert answer.status_code == 201
    assert answer.json()["session_closed"] == "Di lost 33, the target is 30"
    night.refresh_from_db()
    assert night.status == Session.Status.CLOSED


def test_a_hand_not_shown_is_recorded_as_a_foul(session: Session, as_bob: APIClient) -> None:
    # classic-1-6: Ann's hand is not shown, so she pays each live opponent the foul penalty
    # (3) plus its royalties; hands B, C and D hold no baseline royalty (C's middle trips
    # and back full house earn nothing there), so 3 each: Ann -9.
    players = [*deal(Bob="B", Cy="C", Di="D"), {"name": "Ann", "fouled": True}]
    answer = post_deal(as_bob, session, players)
    assert answer.status_code == 201, answer.content
    ann = next(p for p in answer.json()["result"]["players"] if p["name"] == "Ann")
    assert (ann["units"], ann["fouled"], ann["rows"]) == ("-9", True, None)
    tally = Deal.objects.get().tally
    assert tally is not None and tally["Ann"]["fouls"] == 1
