"""The reads every deal recording makes, written once as SQL (games.lib.hot_sql), give exactly
what the ORM gives; on PostgreSQL psycopg prepares them, as it prepares every statement a
connection keeps sending (the database's options, scorekeeper.settings)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import F, Model
from django.forms.models import model_to_dict
from rest_framework.test import APIClient

from games import services
from games.models import Group, Player, Session
from games.models.accounts import DeviceToken
from games.services.deal_reads import session_for_deal, token_and_session, with_deal_table
from tests.api.conftest import API
from tests.services.hands import deal

POSTGRES = "postgresql" in settings.DATABASES["default"]["ENGINE"]


def values(instance: Model) -> dict[str, Any]:
    """Every concrete field's value, as loaded (types included)."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def typed(row: dict[str, Any]) -> dict[str, tuple[type, Any]]:
    return {name: (type(value), value) for name, value in row.items()}


@pytest.mark.django_db
def test_a_token_and_its_user_read_as_the_orm_reads_them(bob: User) -> None:
    token, key = DeviceToken.issue(bob, "phone")
    token.record_use()  # a last_used to convert too
    bob.first_name = "Robert"
    bob.save()

    found = DeviceToken.for_key(key)

    assert found is not None
    orm = DeviceToken.objects.select_related("user").get(pk=token.pk)
    assert typed(values(found)) == typed(values(orm))
    assert typed(values(found.user)) == typed(values(orm.user))
    assert found.user.get_full_name() == "Robert"
    assert not found._state.adding and found._state.db == "default"
    assert DeviceToken.for_key(key[:-1] + "0" if key[-1] != "0" else key[:-1] + "1") is None


@pytest.mark.django_db
def test_the_session_a_deal_goes_into_reads_as_the_orm_reads_it(
    session: Session, group: Group, players: dict[str, Player], alice: User, bob: User
) -> None:
    services.set_pair_stake(group, players["Ann"], players["Cy"], Decimal("2.5"), by=alice)
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)

    found = session_for_deal(bob, session.pk)

    assert found is not None
    orm = (
        with_deal_table(Session.objects.filter(group__memberships__user=bob))
        .annotate(viewer_role=F("group__memberships__role"))
        .select_related("group")
        .get(pk=session.pk)
    )
    assert typed(values(found)) == typed(values(orm))
    assert typed(values(found.group)) == typed(values(orm.group))
    assert model_to_dict(found.group) == model_to_dict(orm.group)
    extra = ("viewer_role", "deal_table_seats", "deal_table_stakes", "deal_table_last")
    for name in extra:
        assert found.__dict__[name] == orm.__dict__[name], name
    assert found.__dict__["viewer_role"] == "member"
    assert session_for_deal(alice, session.pk).__dict__["viewer_role"] == "owner"


@pytest.mark.django_db
def test_no_session_for_an_outsider_a_missing_one_or_a_number_too_big(
    session: Session, mallory: User, bob: User
) -> None:
    assert session_for_deal(mallory, session.pk) is None
    assert session_for_deal(bob, session.pk + 1000) is None
    assert session_for_deal(bob, 2**63) is None
    assert session_for_deal(bob, 0) is None


@pytest.mark.django_db
def test_recording_into_a_session_of_another_group_answers_404(
    session: Session, as_mallory: APIClient
) -> None:
    answer = as_mallory.post(
        f"{API}/sessions/{session.pk}/deals/",
        {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")},
        format="json",
    )
    assert answer.status_code == 404
    too_big = as_mallory.post(f"{API}/sessions/{2**70}/deals/", {"players": []}, format="json")
    assert too_big.status_code == 404


@pytest.mark.skipif(not POSTGRES, reason="prepared statements are PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_the_deal_path_prepares_its_statements_once_per_connection(
    session: Session, as_bob: APIClient
) -> None:
    url = f"{API}/sessions/{session.pk}/deals/"
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    for _ in range(threshold + 2):
        answer = as_bob.post(
            url, {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")}, format="json"
        )
        assert answer.status_code == 201, answer.content

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        prepared = [row[0] for row in cursor.fetchall()]
    # The token with its user and the session with its table in one, and each write of the
    # transaction: prepared once each, however many deals follow.
    assert sum("games_devicetoken" in sql and "games_membership" in sql for sql in prepared) == 1
    assert (
        sum(sql.startswith('UPDATE "games_session" SET last_deal_number') for sql in prepared) == 1
    )
    assert sum(sql.startswith('INSERT INTO "games_deal" ') for sql in prepared) == 1
    assert sum(sql.startswith('INSERT INTO "games_ledgerentry" ') for sql in prepared) == 1


@pytest.mark.django_db
def test_the_token_and_the_session_read_together_equal_the_two_reads(
    session: Session, bob: User, mallory: User
) -> None:
    _, key = DeviceToken.issue(bob, "phone")
    _, outsider = DeviceToken.issue(mallory, "phone")

    token, found = token_and_session(key, session.pk)

    alone, apart = DeviceToken.for_key(key), session_for_deal(bob, session.pk)
    assert token is not None and alone is not None and found is not None and apart is not None
    assert typed(values(token)) == typed(values(alone))
    assert typed(values(token.user)) == typed(values(alone.user))
    assert typed(values(found)) == typed(values(apart))
    assert typed(values(found.group)) == typed(values(apart.group))
    extra = ("viewer_role", "deal_table_seats", "deal_table_stakes", "deal_table_last")
    assert {n: found.__dict__[n] for n in extra} == {n: apart.__dict__[n] for n in extra}
    # A token whose user is not of the group, a session that is not there, a number too
    # big for the column: the token, and no session. No token: neither.
    for pk, user_key in ((session.pk, outsider), (session.pk + 1000, key), (2**63, key)):
        token, found = token_and_session(user_key, pk)
        assert token is not None and found is None
    assert token_and_session("0" * 40, session.pk) == (None, None)


@pytest.mark.django_db
def test_recording_a_deal_checks_the_token_as_any_request_does(
    session: Session, bob: User, as_bob: APIClient
) -> None:
    url = f"{API}/sessions/{session.pk}/deals/"
    body = {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")}
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert wrong.post(url, body, format="json").status_code == 401
    assert as_bob.post(url, body, format="json").status_code == 201
    bob.is_active = False
    bob.save()
    assert as_bob.post(url, body, format="json").status_code == 401
    assert Session.objects.get(pk=session.pk).deals.count() == 1


@pytest.mark.django_db
def test_a_signed_in_browser_records_a_deal_without_a_token(session: Session, bob: User) -> None:
    browser = APIClient()
    browser.force_login(bob)
    answer = browser.post(
        f"{API}/sessions/{session.pk}/deals/",
        {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["number"] == 1
