"""The login lock-out (django-axes, games.lib.lockout) covers every login path: the token
endpoint, the browsable API's login, the admin's, the web pages' sign-in and the old
password of a password change, keyed by username and address together."""

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from axes.models import AccessAttempt
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import F
from django.test import AsyncClient, Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from tests.api.conftest import API

PASSWORD = "carol-plays-at-nine"
NEW = "a fresh table password 7"
LIMIT = 5  # LOGIN_FAILURE_LIMIT's default
MESSAGE = "Too many failed logins from here: try again in 15 minutes."


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password=PASSWORD, is_staff=True)


def token_login(password: str, username: str = "carol", address: str = "127.0.0.1") -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        f"{API}/auth/token/", {"username": username, "password": password}, format="json"
    )


def fail(times: int, username: str = "carol", address: str = "127.0.0.1") -> None:
    """Wrong passwords, fewer than the limit: each an ordinary 400."""
    for _ in range(times):
        assert token_login("wrong", username, address).status_code == 400


def test_the_failure_reaching_the_limit_and_the_right_password_after_it_get_429(
    carol: User,
) -> None:
    fail(LIMIT - 1)
    last_wrong = token_login("wrong")

    response = token_login(PASSWORD)

    for answer in (last_wrong, response):
        assert answer.status_code == 429
        assert answer.json() == {"error": MESSAGE, "field": None}
        assert 800 < int(answer["Retry-After"]) <= 900
    assert "token" not in response.json()


def test_fewer_failures_do_not_stop_a_login_and_a_login_clears_them(carol: User) -> None:
    fail(LIMIT - 1)
    assert token_login(PASSWORD).status_code == 200

    fail(LIMIT - 1)

    assert token_login(PASSWORD).status_code == 200


def test_another_address_or_user_is_not_held_up(carol: User) -> None:
    User.objects.create_user("dave", password=PASSWORD)
    fail(LIMIT - 1)
    assert token_login("wrong").status_code == 429

    assert token_login(PASSWORD, address="10.0.0.2").status_code == 200
    assert token_login(PASSWORD, username="dave").status_code == 200


def test_on_a_shared_address_others_failures_never_lock_a_user_out(carol: User) -> None:
    # One table's Wi-Fi: dave locks himself out and someone tries many usernames; carol's
    # right password from the same address still works (the count is per username and
    # address together, never per address alone).
    User.objects.create_user("dave", password=PASSWORD)
    fail(LIMIT - 1, username="dave")
    assert token_login("wrong", username="dave").status_code == 429
    for k in range(3 * LIMIT):
        fail(1, username=f"guess{k}")

    assert token_login(PASSWORD).status_code == 200
    assert token_login(PASSWORD, username="dave").status_code == 429


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


@override_settings(TRUST_X_FORWARDED_FOR=True)
def test_a_forwarded_address_that_is_no_address_is_still_counted(carol: User) -> None:
    # axes keeps addresses in an IP address column (inet on PostgreSQL): a made-up one is
    # counted as no address, not stored as it came.
    client = APIClient(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not-an-address")
    answers = [
        client.post(f"{API}/auth/token/", {"username": "carol", "password": p}, format="json")
        for p in ["wrong"] * LIMIT + [PASSWORD]
    ]

    assert [a.status_code for a in answers] == [400] * (LIMIT - 1) + [429, 429]
    assert AccessAttempt.objects.get().ip_address is None


def test_under_asgi_the_answers_are_the_same(carol: User) -> None:
    # `make run` serves HTTP over ASGI: the lock-out still answers in the API's shape and
    # shows the login form again. (Axes' middleware has an asynchronous path that calls
    # the lock-out answer without the view's; a synchronous middleware inside it, as
    # DatabaseUnavailableMiddleware is, keeps it on the synchronous one.)
    fail(LIMIT - 1)
    assert token_login("wrong").status_code == 429
    client = AsyncClient()

    api = async_to_sync(client.post)(
        f"{API}/auth/token/",
        {"username": "carol", "password": PASSWORD},
        content_type="application/json",
    )
    page = async_to_sync(client.post)(
        "/accounts/login/", {"username": "carol", "password": PASSWORD}
    )

    assert token_login(PASSWORD).status_code == 429  # the same address (127.0.0.1)
    assert api.status_code == 429 and api.json() == {"error": MESSAGE, "field": None}
    assert page.status_code == 429 and MESSAGE in page.content.decode()
    assert b'name="password"' in page.content


@pytest.mark.parametrize("login_url", ["/api-auth/login/", "/admin/login/", "/accounts/login/"])
def test_login_forms_show_the_message(carol: User, login_url: str) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        wrong = client.post(login_url, {"username": "carol", "password": "wrong"})
        assert wrong.status_code == 200
        assert b"Too many failed logins" not in wrong.content

    answers = [
        client.post(login_url, {"username": "carol", "password": password})
        for password in ("wrong", PASSWORD)
    ]

    for answer in answers:
        assert answer.status_code == 429
        assert MESSAGE in answer.content.decode()
        assert b'name="password"' in answer.content  # the form, shown again
        assert 800 < int(answer["Retry-After"]) <= 900
    assert "_auth_user_id" not in client.session


def test_a_web_login_clears_the_failures(carol: User) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        client.post("/accounts/login/", {"username": "carol", "password": "wrong"})

    signed_in = client.post("/accounts/login/", {"username": "carol", "password": PASSWORD})

    assert signed_in.status_code == 302
    assert not AccessAttempt.objects.exists()


def test_authenticate_itself_refuses(carol: User) -> None:
    # Code calling authenticate() directly (not through a view): None, and the request
    # marked, which axes' middleware turns into the lock-out answer.
    request = RequestFactory().post("/somewhere/")
    for _ in range(LIMIT):
        assert authenticate(request, username="carol", password="wrong") is None

    assert authenticate(request, username="carol", password=PASSWORD) is None
    assert request.axes_locked_out  # type: ignore[attr-defined]


def test_the_lock_out_ends_after_the_window(carol: User) -> None:
    fail(LIMIT - 1)
    assert token_login("wrong").status_code == 429
    assert token_login(PASSWORD).status_code == 429  # refused: does not start it again

    # As if LOGIN_FAILURE_WINDOW (900 s) had gone by since the failure that locked it.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=901))

    assert token_login(PASSWORD).status_code == 200


def test_failures_are_counted_in_the_database_whatever_the_cache(carol: User) -> None:
    # Every web process sees the same count, with or without Redis; a cache that does not
    # answer changes nothing.
    down = ConnectionError("Error 111 connecting to redis:6379. Connection refused.")
    with (
        mock.patch.object(cache, "get", side_effect=down),
        mock.patch.object(cache, "set", side_effect=down),
    ):
        fail(LIMIT - 1)
        attempt = AccessAttempt.objects.get()
        assert (attempt.username, attempt.ip_address) == ("carol", "127.0.0.1")
        assert attempt.failures_since_start == LIMIT - 1

        assert token_login(PASSWORD).status_code == 200


def change_password(client: Client, old: str) -> Any:
    return client.post(
        "/accounts/password/change/",
        {"old_password": old, "new_password1": NEW, "new_password2": NEW},
    )


def test_wrong_old_passwords_count_as_failed_logins(carol: User) -> None:
    client = Client()
    client.force_login(carol)
    for _ in range(LIMIT - 1):
        wrong = change_password(client, "not it")
        assert wrong.status_code == 200 and "incorrectly" in wrong.content.decode()

    answers = [change_password(client, old) for old in ("not it", PASSWORD)]

    for answer in answers:
        assert answer.status_code == 429
        assert MESSAGE in answer.content.decode()
        assert int(answer["Retry-After"]) > 0
    carol.refresh_from_db()
    assert carol.check_password(PASSWORD)
    # The same count as the logins: this user is locked out from this address everywhere.
    assert token_login(PASSWORD).status_code == 429
    assert token_login(PASSWORD, address="10.0.0.2").status_code == 200


def test_login_failures_lock_the_password_change_too(carol: User) -> None:
    fail(LIMIT - 1)
    assert token_login("wrong").status_code == 429
    client = Client()
    client.force_login(carol)

    assert change_password(client, PASSWORD).status_code == 429

    carol.refresh_from_db()
    assert carol.check_password(PASSWORD)


def test_a_password_change_clears_the_failures(carol: User) -> None:
    fail(LIMIT - 1)
    client = Client()
    client.force_login(carol)

    assert change_password(client, PASSWORD).status_code == 302

    assert not AccessAttempt.objects.exists()
    carol.refresh_from_db()
    assert carol.check_password(NEW)
