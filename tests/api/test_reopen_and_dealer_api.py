"""The API's dealer field on deals and POST sessions/{id}/reopen/ (owners only)."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from games.models import Session, SessionEvent
from tests.api.conftest import API
from tests.services.hands import deal

FOUR = {"Ann": "A", "Bob": "B", "Cy": "C", "Di": "D"}


def post_deal(client: APIClient, session: Session, **extra: object) -> Any:
    return client.post(
        f"{API}/sessions/{session.pk}/deals/",
        {"players": deal(**FOUR), **extra},
        format="json",
    )


def test_a_deal_answers_its_dealer_and_the_default_follows_the_button(
    as_bob: APIClient, session: Session
) -> None:
    first = post_deal(as_bob, session)
    given = post_deal(as_bob, session, dealer="Di")
    after = post_deal(as_bob, session)

    assert [a.status_code for a in (first, given, after)] == [201, 201, 201]
    assert [a.json()["dealer"] for a in (first, given, after)] == ["Ann", "Di", "Ann"]
    listed = as_bob.get(f"{API}/sessions/{session.pk}/deals/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [d["dealer"] for d in rows] == ["Ann", "Di", "Ann"]


def test_a_dealer_not_seated_is_refused_naming_the_field(
    as_bob: APIClient, session: Session
) -> None:
    answer = post_deal(as_bob, session, dealer="Eve")

    assert answer.status_code == 400
    assert answer.json()["field"] == "dealer"
    assert not session.deals.exists()


def test_an_edit_changes_the_dealer_and_keeps_it_when_not_given(
    as_bob: APIClient, session: Session
) -> None:
    post_deal(as_bob, session, dealer="Cy")
    url = f"{API}/sessions/{session.pk}/deals/1/"

    kept = as_bob.put(url, {"players": deal(**FOUR), "reason": "typo"}, format="json")
    changed = as_bob.put(url, {"players": deal(**FOUR), "dealer": "Bob"}, format="json")

    assert (kept.json()["dealer"], changed.json()["dealer"]) == ("Cy", "Bob")


def test_an_owner_reopens_a_closed_session_and_it_takes_deals_again(
    as_alice: APIClient, as_bob: APIClient, session: Session
) -> None:
    post_deal(as_bob, session)
    assert as_bob.post(f"{API}/sessions/{session.pk}/close/").status_code == 200
    assert post_deal(as_bob, session).status_code == 409

    refused = as_bob.post(f"{API}/sessions/{session.pk}/reopen/", {}, format="json")
    assert refused.status_code == 403
    assert set(refused.json()) == {"error", "field"}

    reopened = as_alice.post(
        f"{API}/sessions/{session.pk}/reopen/", {"reason": "one more deal"}, format="json"
    )
    assert reopened.status_code == 200, reopened.content
    assert reopened.json()["status"] == "open"
    again = post_deal(as_bob, session)
    assert again.status_code == 201
    assert again.json()["number"] == 2
    assert again.json()["dealer"] == "Bob"

    assert as_alice.post(f"{API}/sessions/{session.pk}/close/").status_code == 200
    history = list(SessionEvent.objects.filter(session=session).order_by("at", "id"))
    assert [(e.action, e.by.username if e.by else None, e.reason) for e in history] == [
        ("close", "bob", ""),
        ("reopen", "alice", "one more deal"),
        ("close", "alice", ""),
    ]


def test_reopening_an_open_session_is_a_conflict(as_alice: APIClient, session: Session) -> None:
    answer = as_alice.post(f"{API}/sessions/{session.pk}/reopen/", {}, format="json")

    assert answer.status_code == 409
    assert answer.json()["error"].startswith(f"session {session.pk} is open")
    assert not SessionEvent.objects.exists()
