"""API tokens, one per device: asked for with a password, listed and revoked by their user.

A token's key is shown once, when it is made; the database keeps only its SHA-256, so a
copy of the database gives no usable token.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import DeviceToken
from tests.api.conftest import API

PASSWORD = "carol-plays-at-nine"


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password=PASSWORD)


def login(device: str | None = None, password: str = PASSWORD, **extra: Any) -> Any:
    body: dict[str, Any] = {"username": "carol", "password": password, **extra}
    if device is not None:
        body["device"] = device
    return APIClient().post(f"{API}/auth/token/", body, format="json")


def holding(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def listed(client: APIClient) -> list[dict[str, Any]]:
    response = client.get(f"{API}/auth/tokens/")
    assert response.status_code == 200, response.content
    rows: list[dict[str, Any]] = response.json()["results"]
    return rows


def test_each_device_gets_its_own_token(carol: User) -> None:
    phone = login("Ann's phone")
    laptop = login("Kitchen laptop")

    assert phone.status_code == laptop.status_code == 200
    assert set(phone.json()) == {"token", "id", "device", "expires"}
    assert phone.json()["device"] == "Ann's phone"
    assert phone.json()["token"] != laptop.json()["token"]
    for answer in (phone, laptop):
        assert holding(answer.json()["token"]).get(f"{API}/groups/").status_code == 200


def test_a_token_without_a_device_name_gets_a_default_one(carol: User) -> None:
    answer = login()

    assert answer.status_code == 200
    assert answer.json()["device"] == "API client"
    assert holding(answer.json()["token"]).get(f"{API}/groups/").status_code == 200


def test_the_database_keeps_only_the_keys_hash(carol: User) -> None:
    key = login("Ann's phone").json()["token"]

    stored = DeviceToken.objects.get(user=carol)
    assert stored.key_hash == hashlib.sha256(key.encode()).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM games_devicetoken")
        rows = cursor.fetchall()
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        plain = cursor.fetchone()
    assert not any(key in str(value) for row in rows for value in row)
    assert plain == (0,)
    # A key that is only the stored hash is no token.
    assert holding(stored.key_hash).get(f"{API}/groups/").status_code == 401


def test_the_list_shows_each_device_never_a_key(carol: User) -> None:
    phone = login("Ann's phone").json()
    laptop = login("Kitchen laptop").json()
    client = holding(phone["token"])

    rows = listed(client)

    assert [row["device"] for row in rows] == ["Ann's phone", "Kitchen laptop"]
    assert [row["id"] for row in rows] == [phone["id"], laptop["id"]]
    for row in rows:
        assert set(row) == {"id", "device", "created", "last_used", "expires", "current"}
        assert phone["token"] not in str(row) and laptop["token"] not in str(row)
    assert [row["current"] for row in rows] == [True, False]
    assert rows[0]["last_used"] is not None  # this very request
    assert rows[1]["last_used"] is None  # never used


def test_last_used_follows_use(carol: User) -> None:
    key = login("Ann's phone").json()["token"]
    assert DeviceToken.objects.get().last_used is None

    holding(key).get(f"{API}/groups/")

    used = DeviceToken.objects.get().last_used
    assert used is not None
    assert used >= DeviceToken.objects.get().created


def test_revoking_a_token_stops_it_and_only_it(carol: User) -> None:
    phone = login("Ann's phone").json()
    laptop = login("Kitchen laptop").json()
    client = holding(laptop["token"])

    revoked = client.delete(f"{API}/auth/tokens/{phone['id']}/")

    assert revoked.status_code == 204
    assert holding(phone["token"]).get(f"{API}/groups/").status_code == 401
    assert [row["device"] for row in listed(client)] == ["Kitchen laptop"]
    # A token may revoke itself (signing the device out).
    assert client.delete(f"{API}/auth/tokens/{laptop['id']}/").status_code == 204
    assert client.get(f"{API}/groups/").status_code == 401


def test_another_users_tokens_are_neither_listed_nor_revoked(carol: User) -> None:
    mine = login("Ann's phone").json()
    User.objects.create_user("dave", password=PASSWORD)
    dave = APIClient().post(
        f"{API}/auth/token/",
        {"username": "dave", "password": PASSWORD, "device": "Dave's phone"},
        format="json",
    )
    as_dave = holding(dave.json()["token"])

    assert [row["device"] for row in listed(as_dave)] == ["Dave's phone"]
    assert as_dave.delete(f"{API}/auth/tokens/{mine['id']}/").status_code == 404
    assert holding(mine["token"]).get(f"{API}/groups/").status_code == 200


def test_the_list_needs_a_login(db: None) -> None:
    answer = APIClient().get(f"{API}/auth/tokens/")

    assert answer.status_code == 401
    assert set(answer.json()) == {"error", "field"}


@pytest.mark.parametrize(
    ("device", "message"),
    [
        ("", "device: This field may not be blank."),
        ("   ", "device: This field may not be blank."),
        ("x" * 101, "device: at most 100 characters, got 101"),
        (
            "Ann\u202es phone",
            "device: an invisible character (U+202E RIGHT-TO-LEFT OVERRIDE) at position 4"
            " is not allowed here",
        ),
        (
            "Ann's\nphone",
            "device: a control character (U+000A line break) at position 6 is not allowed here",
        ),
    ],
)
def test_a_bad_device_name_is_refused_and_no_token_made(
    carol: User, device: str, message: str
) -> None:
    answer = login(device)

    assert answer.status_code == 400
    assert answer.json() == {"error": message, "field": "device"}
    assert not DeviceToken.objects.exists()


def test_a_wrong_password_gets_no_token(carol: User) -> None:
    answer = login("Ann's phone", password="nope")

    assert answer.status_code == 400
    assert answer.json() == {
        "error": "Unable to log in with provided credentials.",
        "field": None,
    }
    assert not DeviceToken.objects.exists()


def test_the_login_lock_out_holds_for_device_logins(carol: User) -> None:
    # LOGIN_FAILURE_LIMIT (5): the fifth failure already answers the lock-out.
    answers = [login("Ann's phone", password="nope").status_code for _ in range(5)]
    assert answers == [400, 400, 400, 400, 429]

    refused = login("Ann's phone")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert not DeviceToken.objects.exists()


def test_a_user_keeps_at_most_the_limit_the_least_recently_used_go_first(carol: User) -> None:
    keys = [DeviceToken.issue(carol, f"device {k}")[1] for k in range(DeviceToken.LIMIT)]
    holding(keys[0]).get(f"{API}/groups/")  # device 0 used: device 1 is now the stalest

    newest = login("one more").json()["token"]

    assert DeviceToken.objects.filter(user=carol).count() == DeviceToken.LIMIT
    assert holding(keys[1]).get(f"{API}/groups/").status_code == 401
    for key in (keys[0], keys[2], newest):
        assert holding(key).get(f"{API}/groups/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_a_token_from_before_into_a_device_token() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    before = next(
        parent
        for (app, name), migration in executor.loader.graph.nodes.items()
        if app == "games" and "devicetoken" in str(migration.operations).lower()
        for parent in migration.dependencies
        if parent[0] == "games"
    )
    executor.migrate([before])
    try:
        carol = User.objects.create_user("carol", password=PASSWORD)
        old = Token.objects.create(user=carol)
    finally:
        MigrationExecutor(connection).migrate(latest)

    assert not Token.objects.exists()
    token = DeviceToken.objects.get()
    assert (token.user, token.device) == (carol, "Token from before devices")
    assert token.key_hash == hashlib.sha256(old.key.encode()).hexdigest()
    assert holding(old.key).get(f"{API}/groups/").status_code == 200


def test_the_admin_lists_tokens_without_keys_and_revokes_them(carol: User) -> None:
    answer = login("Ann's phone").json()
    token = DeviceToken.objects.get()
    admin = APIClient()
    admin.force_login(User.objects.create_superuser("root", password="x"))

    listing = admin.get("/admin/games/devicetoken/").content.decode()
    page = admin.get(f"/admin/games/devicetoken/{token.pk}/change/").content.decode()

    assert "Ann&#x27;s phone" in listing
    assert token.key_hash not in listing + page and answer["token"] not in listing + page
    assert admin.get("/admin/games/devicetoken/add/").status_code == 403
    assert admin.get("/admin/authtoken/tokenproxy/").status_code == 404
    revoked = admin.post(f"/admin/games/devicetoken/{token.pk}/delete/", {"post": "yes"})
    assert revoked.status_code == 302
    assert holding(answer["token"]).get(f"{API}/groups/").status_code == 401
