"""``POST auth/password/``: a phone app changes its user's password. Every other API token
of the user is revoked, and the one the change came with too unless ``keep_this_device``
asks to keep it; the answer names both. The old password is a login: a wrong one is
counted by the lock-out.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.models import DeviceToken
from tests.api.conftest import API

PASSWORD = "carol-plays-at-nine"
NEW = "a fresh table password 7"


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password=PASSWORD)


@pytest.fixture
def devices(carol: User) -> dict[str, tuple[int, str]]:
    """Carol's three devices: each one's token id and key."""
    made = {name: DeviceToken.issue(carol, name) for name in ("phone", "tablet", "laptop")}
    return {name: (token.pk, key) for name, (token, key) in made.items()}


def holding(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def change(client: APIClient, old: str = PASSWORD, new: str = NEW, **extra: Any) -> Any:
    body = {"old_password": old, "new_password": new, **extra}
    return client.post(f"{API}/auth/password/", body, format="json")


def works(key: str) -> bool:
    status: int = holding(key).get(f"{API}/groups/").status_code
    assert status in (200, 401)
    return status == 200


def test_a_change_revokes_every_token_the_one_used_included(
    carol: User, devices: dict[str, tuple[int, str]]
) -> None:
    answer = change(holding(devices["phone"][1]))

    assert answer.status_code == 200, answer.content
    assert answer.json() == {
        "revoked": [
            {"id": devices[name][0], "device": name} for name in ("phone", "tablet", "laptop")
        ],
        "kept": None,
    }
    assert not any(works(key) for _, key in devices.values())
    carol.refresh_from_db()
    assert carol.check_password(NEW)


def test_keep_this_device_keeps_the_token_the_change_came_with(
    carol: User, devices: dict[str, tuple[int, str]]
) -> None:
    phone_id, phone_key = devices["phone"]

    answer = change(holding(phone_key), keep_this_device=True)

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["revoked"] == [
        {"id": devices["tablet"][0], "device": "tablet"},
        {"id": devices["laptop"][0], "device": "laptop"},
    ]
    assert set(body["kept"]) == {"id", "device", "expires"}
    assert (body["kept"]["id"], body["kept"]["device"]) == (phone_id, "phone")
    assert body["kept"]["expires"] is not None
    assert works(phone_key)
    assert not works(devices["tablet"][1]) and not works(devices["laptop"][1])
    assert list(DeviceToken.objects.values_list("pk", flat=True)) == [phone_id]


def test_the_new_password_gets_a_token_and_the_old_one_no_longer_does(
    carol: User, devices: dict[str, tuple[int, str]]
) -> None:
    change(holding(devices["phone"][1]))

    def login(password: str) -> int:
        body = {"username": "carol", "password": password}
        status: int = APIClient().post(f"{API}/auth/token/", body, format="json").status_code
        return status

    assert login(PASSWORD) == 400
    assert login(NEW) == 200


def test_a_wrong_old_password_changes_nothing_and_counts_towards_the_lock_out(
    carol: User, devices: dict[str, tuple[int, str]]
) -> None:
    client = holding(devices["phone"][1])

    wrong = change(client, old="not it")

    assert wrong.status_code == 400
    assert wrong.json() == {
        "error": "old_password: Your old password was entered incorrectly.",
        "field": "old_password",
    }
    carol.refresh_from_db()
    assert carol.check_password(PASSWORD)
    assert DeviceToken.objects.count() == 3
    # LOGIN_FAILURE_LIMIT (5): the fifth wrong password locks Carol out from here, and the
    # right one is refused while she is.
    answers = [change(client, old="not it").status_code for _ in range(4)]
    assert answers == [400, 400, 400, 429]
    refused = change(client)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert set(refused.json()) == {"error", "field"}
    carol.refresh_from_db()
    assert carol.check_password(PASSWORD)
    assert DeviceToken.objects.count() == 3


def test_a_new_password_the_rules_refuse_changes_nothing(
    carol: User, devices: dict[str, tuple[int, str]]
) -> None:
    answer = change(holding(devices["phone"][1]), new="12345678")

    assert answer.status_code == 400
    assert answer.json()["field"] == "new_password"
    assert "too common" in answer.json()["error"]
    carol.refresh_from_db()
    assert carol.check_password(PASSWORD)
    assert DeviceToken.objects.count() == 3


def test_a_change_from_a_signed_in_session_keeps_it_and_ends_the_others(
    carol: User, devices: dict[str, tuple[int, str]]
) -> None:
    here, elsewhere = APIClient(), Client()
    here.force_login(carol)
    elsewhere.force_login(carol)

    answer = change(here, keep_this_device=True)

    assert answer.status_code == 200, answer.content
    assert answer.json()["kept"] is None  # no token to keep
    assert len(answer.json()["revoked"]) == 3
    assert here.get(f"{API}/groups/").status_code == 200
    assert elsewhere.get("/groups/").status_code == 302


def test_changing_the_password_needs_a_login(carol: User) -> None:
    answer = change(APIClient())

    assert answer.status_code == 401
    carol.refresh_from_db()
    assert carol.check_password(PASSWORD)


def test_the_schema_documents_the_change_and_its_answers(db: None) -> None:
    schema = yaml.safe_load(Client().get("/api/schema/").content)

    post = schema["paths"][f"{API}/auth/password/"]["post"]

    # Its own refusals, and those the shared machinery answers any body with.
    assert set(post["responses"]) == {"200", "400", "401", "403", "406", "413", "415", "429", "503"}
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]
    assert set(fields) == {"old_password", "new_password", "keep_this_device"}
