"""API tokens expire: one left unused for ``TOKEN_EXPIRY_DAYS`` days (90) is refused with
401 and deleted; each use carries the expiry on; 0 days means never. The answer that
issues a token and the list of tokens show when each expires.

Time is moved by patching ``django.utils.timezone.now``, which every reader of the clock
here goes through.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.models import DeviceToken
from tests.api.conftest import API

PASSWORD = "carol-plays-at-nine"
DAY = datetime.timedelta(days=1)
EXPIRED = "This token has expired: sign in again for a new one."


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password=PASSWORD)


@contextmanager
def at(moment: datetime.datetime) -> Iterator[None]:
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def login(device: str) -> dict[str, str]:
    body = {"username": "carol", "password": PASSWORD, "device": device}
    answer = APIClient().post(f"{API}/auth/token/", body, format="json")
    assert answer.status_code == 200, answer.content
    issued: dict[str, str] = answer.json()
    return issued


def ask(key: str) -> tuple[int, str | None]:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    answer = client.get(f"{API}/groups/")
    return answer.status_code, answer.json().get("error") if answer.status_code != 200 else None


def when(text: str | None) -> datetime.datetime:
    assert text is not None
    moment = parse_datetime(text)
    assert moment is not None
    return moment


def test_the_issued_token_says_when_it_expires(carol: User) -> None:
    issued = login("Ann's phone")

    token = DeviceToken.objects.get()
    assert when(issued["expires"]) == token.created + 90 * DAY


def test_the_list_shows_when_each_token_expires_counted_from_its_last_use(carol: User) -> None:
    start = timezone.now()
    with at(start):
        phone = login("Ann's phone")
        login("Kitchen laptop")
    with at(start + 30 * DAY):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {phone['token']}")
        rows = client.get(f"{API}/auth/tokens/").json()["results"]

    assert [(row["device"], when(row["expires"])) for row in rows] == [
        ("Ann's phone", start + 120 * DAY),  # used just now: 90 days from today
        ("Kitchen laptop", start + 90 * DAY),  # never used: 90 days from its making
    ]


def test_a_token_unused_for_90_days_is_refused_and_deleted(carol: User) -> None:
    start = timezone.now()
    with at(start):
        key = login("Ann's phone")["token"]

    with at(start + 90 * DAY - datetime.timedelta(minutes=1)):
        assert ask(key) == (200, None)
    with at(start + 90 * DAY - datetime.timedelta(minutes=1) + 90 * DAY):
        assert ask(key) == (401, EXPIRED)
    assert not DeviceToken.objects.exists()
    # Deleted: asked again, it is no token at all.
    assert ask(key) == (401, "Invalid token.")


def test_each_use_carries_the_expiry_on(carol: User) -> None:
    start = timezone.now()
    with at(start):
        key = login("Ann's phone")["token"]

    for day in (60, 120, 180, 240):  # never 90 days apart: it keeps working
        with at(start + day * DAY):
            assert ask(key) == (200, None)
    with at(start + 330 * DAY):
        assert ask(key) == (401, EXPIRED)


@override_settings(TOKEN_EXPIRY_DAYS=7)
def test_the_expiry_follows_the_setting(carol: User) -> None:
    start = timezone.now()
    with at(start):
        issued = login("Ann's phone")

    assert when(issued["expires"]) == DeviceToken.objects.get().created + 7 * DAY
    with at(start + 7 * DAY):
        assert ask(issued["token"]) == (401, EXPIRED)


@override_settings(TOKEN_EXPIRY_DAYS=0)
def test_no_expiry_when_the_setting_is_zero(carol: User) -> None:
    start = timezone.now()
    with at(start):
        issued = login("Ann's phone")

    assert issued["expires"] is None
    with at(start + 3650 * DAY):
        assert ask(issued["token"]) == (200, None)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {issued['token']}")
        rows = client.get(f"{API}/auth/tokens/").json()["results"]
    assert [(row["device"], row["expires"]) for row in rows] == [("Ann's phone", None)]


def test_expired_tokens_are_not_listed_and_go_when_the_user_signs_in_again(
    carol: User,
) -> None:
    start = timezone.now()
    with at(start):
        login("old phone")
    with at(start + 80 * DAY):
        login("old tablet")

    with at(start + 100 * DAY):
        new = login("new phone")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {new['token']}")
        listed = [row["device"] for row in client.get(f"{API}/auth/tokens/").json()["results"]]

    assert listed == ["old tablet", "new phone"]
    assert sorted(DeviceToken.objects.values_list("device", flat=True)) == [
        "new phone",
        "old tablet",
    ]


@pytest.mark.parametrize("used", [False, True])
@pytest.mark.parametrize(
    "age", [89 * DAY, 90 * DAY - datetime.timedelta(seconds=1), 90 * DAY, 91 * DAY]
)
def test_the_database_and_the_token_agree_on_what_expired(
    carol: User, used: bool, age: datetime.timedelta
) -> None:
    token, _ = DeviceToken.issue(carol, "Ann's phone")
    if used:
        token.last_used = token.created + 5 * DAY
        token.save()
    now = (token.last_used or token.created) + age

    picked = DeviceToken.objects.filter(DeviceToken.expired_q(now)).exists()

    assert picked == token.expired(now) == (age >= 90 * DAY)


MOMENTS = st.datetimes(
    min_value=datetime.datetime(2000, 1, 1),
    max_value=datetime.datetime(2100, 1, 1),
    timezones=st.just(datetime.UTC),
)


@given(
    created=MOMENTS,
    used_after=st.none() | st.timedeltas(min_value=datetime.timedelta(0), max_value=400 * DAY),
    days=st.integers(min_value=0, max_value=400),
    later=st.timedeltas(min_value=datetime.timedelta(0), max_value=900 * DAY),
)
def test_a_token_works_until_its_expiry_and_never_after(
    created: datetime.datetime,
    used_after: datetime.timedelta | None,
    days: int,
    later: datetime.timedelta,
) -> None:
    last_used = None if used_after is None else created + used_after
    token = DeviceToken(created=created, last_used=last_used)
    now = (last_used or created) + later

    with override_settings(TOKEN_EXPIRY_DAYS=days):
        expires, expired = token.expires, token.expired(now)

    if days == 0:
        assert expires is None and not expired
    else:
        assert expires == (last_used or created) + days * DAY
        assert expired == (now >= expires)
