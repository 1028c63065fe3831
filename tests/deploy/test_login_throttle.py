"""Login throttling covers every login path: the token endpoint, the browsable API's login
and the admin's (and any later one using authenticate()), per username and address."""

from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from games.lib.ratelimit import LoginThrottled
from tests.api.conftest import API

PASSWORD = "carol-plays-at-nine"
LIMIT = 5  # LOGIN_FAILURE_LIMIT's default


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password=PASSWORD, is_staff=True)


def token_login(password: str, username: str = "carol", address: str = "127.0.0.1") -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        f"{API}/auth/token/", {"username": username, "password": password}, format="json"
    )


def fail(times: int, username: str = "carol", address: str = "127.0.0.1") -> None:
    for _ in range(times):
        assert token_login("wrong", username, address).status_code == 400


def test_the_right_password_is_refused_with_429_after_too_many_failures(carol: User) -> None:
    fail(LIMIT)

    response = token_login(PASSWORD)

    assert response.status_code == 429
    assert response.json() == {
        "error": "Too many failed logins from here: try again in 15 minutes.",
        "field": None,
    }
    assert 800 < int(response["Retry-After"]) <= 900


def test_fewer_failures_do_not_stop_a_login_and_a_login_clears_them(carol: User) -> None:
    fail(LIMIT - 1)
    assert token_login(PASSWORD).status_code == 200

    fail(LIMIT - 1)

    assert token_login(PASSWORD).status_code == 200


def test_another_address_or_user_is_not_held_up(carol: User) -> None:
    User.objects.create_user("dave", password=PASSWORD)
    fail(LIMIT)

    assert token_login(PASSWORD, address="10.0.0.2").status_code == 200
    assert token_login(PASSWORD, username="dave").status_code == 200


@override_settings(LOGIN_FAILURE_IP_LIMIT=8)
def test_one_address_trying_many_usernames_is_stopped(carol: User) -> None:
    for k in range(8):
        fail(1, username=f"guess{k}")

    assert token_login(PASSWORD).status_code == 429


@override_settings(TRUST_X_FORWARDED_FOR=True)
def test_behind_a_proxy_the_address_it_appended_counts(carol: User) -> None:
    def via_proxy(password: str, client_address: str) -> int:
        client = APIClient(
            REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"1.2.3.4, {client_address}"
        )
        response = client.post(
            f"{API}/auth/token/", {"username": "carol", "password": password}, format="json"
        )
        return response.status_code

    for _ in range(LIMIT):
        via_proxy("wrong", "203.0.113.9")

    assert via_proxy(PASSWORD, "203.0.113.9") == 429
    assert via_proxy(PASSWORD, "198.51.100.4") == 200


@pytest.mark.parametrize("login_url", ["/api-auth/login/", "/admin/login/"])
def test_login_forms_show_the_message(carol: User, login_url: str) -> None:
    client = Client()
    for _ in range(LIMIT):
        wrong = client.post(login_url, {"username": "carol", "password": "wrong"})
        assert wrong.status_code == 200
        assert b"Too many failed logins" not in wrong.content

    refused = client.post(login_url, {"username": "carol", "password": PASSWORD})

    assert refused.status_code == 200
    assert b"Too many failed logins from here: try again in 15 minutes." in refused.content
    assert "_auth_user_id" not in client.session
    assert int(refused["Retry-After"]) > 0


def test_authenticate_itself_refuses(carol: User) -> None:
    # Code calling authenticate() directly (not through a form or DRF) gets the exception.
    request = RequestFactory().post("/somewhere/")
    for _ in range(LIMIT):
        assert authenticate(request, username="carol", password="wrong") is None

    with pytest.raises(LoginThrottled) as refused:
        authenticate(request, username="carol", password=PASSWORD)

    assert refused.value.retry_after > 0


def test_logins_go_on_when_the_cache_does_not_answer(carol: User) -> None:
    down = ConnectionError("Error 111 connecting to redis:6379. Connection refused.")
    with (
        mock.patch.object(cache, "get", side_effect=down),
        mock.patch.object(cache, "set", side_effect=down),
    ):
        fail(LIMIT + 1)

        assert token_login(PASSWORD).status_code == 200
