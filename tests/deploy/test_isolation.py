"""Every group-scoped endpoint refuses the users of other groups.

The URLs are read from the URL resolver, so an endpoint added later under /api/v1/ with an
id in its path is checked too (a new kind of id must be named in ``ids_for`` below, or this
test says so). Mallory, owner of a group of her own, tries every method on every URL naming
one of the Friday club's objects: she must get the same answer as for an object that does
not exist (404, or 405 where the method is not served at all), and nothing may change.
"""

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from games import services
from games.models import (
    Deal,
    DealRevision,
    DeviceToken,
    Document,
    Group,
    ImportJob,
    LedgerEntry,
    LiveDeal,
    LiveEntry,
    Membership,
    PairStake,
    Payment,
    Player,
    RuleSet,
    SeatLink,
    Session,
    SessionEvent,
)
from games.sheets import documents
from tests.api.conftest import client_for
from tests.services.hands import deal

METHODS = ("get", "post", "put", "patch", "delete")
MISSING = 987654
MODELS = (
    Payment,
    Group,
    Membership,
    Player,
    RuleSet,
    PairStake,
    Session,
    Deal,
    DealRevision,
    SessionEvent,
    LedgerEntry,
    Document,
    ImportJob,
    LiveDeal,
    LiveEntry,
    SeatLink,
)


def api_patterns() -> Iterator[tuple[str, frozenset[str]]]:
    """(URL name, path keyword names) of every pattern in the `api` namespace."""

    def walk(
        patterns: list[Any], namespace: str | None, names: frozenset[str]
    ) -> Iterator[tuple[str, frozenset[str]]]:
        for entry in patterns:
            keywords = names | set(entry.pattern.regex.groupindex)
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, entry.namespace or namespace, keywords)
            elif isinstance(entry, URLPattern) and namespace == "api" and entry.name:
                yield entry.name, keywords

    yield from walk(get_resolver().url_patterns, None, frozenset())


SCOPED = sorted({(name, kw) for name, kw in api_patterns() if kw - {"format"}})


@pytest.fixture
def night(
    group: Group, players: dict[str, Player], session: Session, alice: User, bob: User
) -> dict[str, Any]:
    """The Friday club with one of everything: a stake, a second rule version, a deal."""
    stake = services.set_pair_stake(group, players["Ann"], players["Bob"], 2, by=alice)
    services.set_rules(group, "classic-2-4", by=alice)
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    sheet, _ = documents.request_document(session, Document.Kind.SHEET, alice)
    token, _ = DeviceToken.issue(alice, "Alice's phone")
    imported = ImportJob.objects.create(group=group, requested_by=alice, status="failed")
    paid = services.record_payment(group, players["Cy"], players["Bob"], "2", alice)
    return {
        "payment": paid,
        "invite": services.create_invite(group, alice),
        "group": group,
        "session": session,
        "member": Membership.objects.get(group=group, user=bob),
        "player": players["Cy"],
        "stake": stake,
        "rules": RuleSet.objects.filter(group=group).order_by("version").first(),
        "deal": recorded,
        "document": sheet,
        "device": token,
        "import": imported,
    }


def ids_for(name: str, keywords: frozenset[str], night: dict[str, Any]) -> dict[str, Any]:
    """Path keywords naming the Friday club's objects for the URL `name`."""
    kind = name.split("-")[0]
    ids: dict[str, Any] = {"format": "json"}
    ids["group_pk"] = night["group"].pk
    ids["session_pk"] = night["session"].pk
    ids["number"] = night["deal"].number
    ids["version"] = night["rules"].version
    # The live table: a seat of the session, and its first seat link.
    ids["seat"] = 1
    ids["link_pk"] = night["session"].seat_links.order_by("pk").first().pk
    if kind == "payment" and "payment_pk" in keywords:
        # groups/{pk}/payments/{payment_pk}/...: the group's pk, then the payment's
        ids["payment_pk"] = night["payment"].pk
        ids["pk"] = night["group"].pk
    elif kind == "invite" and "invite_pk" in keywords:
        # groups/{pk}/invites/{invite_pk}/revoke/: the group's pk, then the invite's
        ids["invite_pk"] = night["invite"].pk
        ids["pk"] = night["group"].pk
    elif "pk" in keywords:
        kinds = ("group", "session", "member", "player", "stake", "document", "device", "import")
        objects = {k: night[k] for k in kinds}
        assert kind in objects, f"{name}: which object does its pk name? add it to ids_for()"
        ids["pk"] = objects[kind].pk
    unknown = keywords - set(ids)
    assert not unknown, f"{name}: add the path keywords {sorted(unknown)} to ids_for()"
    return {key: value for key, value in ids.items() if key in keywords}


def body_for(name: str) -> dict[str, Any]:
    """A body the owner could send, so that validation is never the reason for a refusal."""
    deal_body = {"players": deal(Ann="B", Bob="A", Cy="C", Di="D"), "reason": "typo"}
    bodies: dict[str, dict[str, Any]] = {
        "deal": deal_body,
        "member": {"username": "mallory", "role": "owner"},
        "player": {"name": "Eve"},
        "stake": {"players": ["Ann", "Cy"], "multiplier": 3},
        "rules": {"rules": "standard"},
        "session": {"date": "2026-12-01", "place": "elsewhere", "reason": "mine now"},
        "group": {"name": "Stolen", "currency": "USD", "unit_value": "9"},
        "payment": {"amount": "99", "reason": "mine now"},
    }
    return bodies.get(name.split("-")[0], {})


def snapshot() -> dict[str, list[Any]]:
    rows = {model.__name__: list(model.objects.order_by("pk").values()) for model in MODELS}
    # API tokens too, but not when each was last used (the requests here use theirs).
    tokens = DeviceToken.objects.order_by("pk").values("id", "user", "device", "key_hash")
    return rows | {"DeviceToken": list(tokens)}


def answer(client: APIClient, method: str, url: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = getattr(client, method)(url, body if method != "get" else None, format="json")
    if response.streaming:  # the export
        return response.status_code, b"".join(response.streaming_content)
    return response.status_code, response.content


def test_the_resolver_finds_the_group_scoped_endpoints() -> None:
    names = {name for name, _ in SCOPED}

    assert {"group-detail", "member-detail", "deal-void", "group-export", "session-close"} <= names


@pytest.mark.parametrize(("name", "keywords"), SCOPED, ids=[f"{n}{sorted(k)}" for n, k in SCOPED])
def test_another_groups_user_gets_404(
    name: str,
    keywords: frozenset[str],
    night: dict[str, Any],
    as_alice: APIClient,
    mallory: User,
) -> None:
    services.create_group(mallory, "Mallory's table", "EUR", Decimal(1), "standard")
    as_mallory = client_for(mallory)
    ids = ids_for(name, keywords, night)
    url = reverse(f"api:{name}", kwargs=ids)
    missing_url = reverse(
        f"api:{name}", kwargs={k: MISSING if k != "format" else v for k, v in ids.items()}
    )
    before = snapshot()

    for method in METHODS:
        status, content = answer(as_mallory, method, url, body_for(name))
        absent_status, _ = answer(as_mallory, method, missing_url, body_for(name))

        assert status in (404, 405), f"{method.upper()} {url}: {status} {content[:200]!r}"
        assert status == absent_status, f"{method.upper()} {url} tells it exists"
    assert snapshot() == before

    # The ids are real: the group's owner finds the same URL (a 400 may ask for a filter).
    owner_status, _ = answer(as_alice, "get", url, {})
    assert owner_status != 404, f"GET {url} as the owner: 404"


def test_lists_and_creations_hide_other_groups(
    night: dict[str, Any], mallory: User, as_mallory: APIClient
) -> None:
    group = night["group"]
    before = snapshot()

    groups = as_mallory.get("/api/v1/groups/").json()
    sessions = as_mallory.get(f"/api/v1/sessions/?group={group.pk}").json()
    start = as_mallory.post(
        "/api/v1/sessions/", {"group": group.pk, "players": ["Ann", "Bob"]}, format="json"
    )

    assert groups["count"] == 0
    assert sessions["count"] == 0
    assert start.status_code == 404
    assert snapshot() == before
