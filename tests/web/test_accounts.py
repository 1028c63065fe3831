"""Accounts from the pages: sign up, change the password, reset a forgotten one by mail."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, override_settings

from tests.web.conftest import PASSWORD

NEW = "a fresh table password 7"


def test_the_sign_in_page_links_to_sign_up_and_reset(db: None) -> None:
    page = Client().get("/accounts/login/?next=/invites/x/").content.decode()
    assert 'href="/accounts/signup/?next=/invites/x/"' in page
    assert 'href="/accounts/password/reset/"' in page


def test_sign_up_makes_an_account_signs_in_and_follows_next(db: None) -> None:
    client = Client()
    answer = client.post(
        "/accounts/signup/",
        {"username": "carol", "password1": NEW, "password2": NEW, "next": "/groups/"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/groups/"
    assert User.objects.get(username="carol").check_password(NEW)
    assert client.get("/groups/").status_code == 200  # signed in


def test_an_address_given_at_sign_up_receives_the_reset_link(db: None) -> None:
    Client().post(
        "/accounts/signup/",
        {"username": "carol", "email": "carol@example.org", "password1": NEW, "password2": NEW},
    )
    Client().post("/accounts/password/reset/", {"email": "carol@example.org"})
    assert [message.to for message in mail.outbox] == [["carol@example.org"]]


@pytest.mark.parametrize(
    ("password", "why"),
    [("carol", "too similar"), ("12345678", "too common"), ("x7", "too short")],
)
def test_sign_up_applies_the_password_validators(db: None, password: str, why: str) -> None:
    answer = Client().post(
        "/accounts/signup/", {"username": "carol", "password1": password, "password2": password}
    )
    assert answer.status_code == 400
    assert why in answer.content.decode()
    assert not User.objects.filter(username="carol").exists()


def test_sign_up_never_follows_next_off_the_site(db: None) -> None:
    answer = Client().post(
        "/accounts/signup/",
        {"username": "carol", "password1": NEW, "password2": NEW, "next": "https://evil.test/"},
    )
    assert answer["Location"] == "/groups/"


@override_settings(SIGNUP_LIMIT=3)
def test_sign_ups_from_one_address_are_throttled(db: None) -> None:
    client = Client()
    answers = [
        client.post(
            "/accounts/signup/", {"username": f"u{k}", "password1": "x", "password2": "y"}
        ).status_code
        for k in range(5)
    ]
    assert answers == [400, 400, 400, 429, 429]


def test_a_signed_in_user_changes_their_password(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    assert 'href="/accounts/password/change/"' in client.get("/groups/").content.decode()

    wrong = client.post(
        "/accounts/password/change/",
        {"old_password": "not it", "new_password1": NEW, "new_password2": NEW},
    )
    assert wrong.status_code == 200 and "incorrectly" in wrong.content.decode()
    answer = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
    )
    assert answer["Location"] == "/accounts/password/change/done/"
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    assert client.get("/groups/").status_code == 200  # still signed in


def test_changing_the_password_needs_a_signed_in_user(db: None) -> None:
    answer = Client().get("/accounts/password/change/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")


def test_a_forgotten_password_is_reset_through_the_mailed_link(alice: User) -> None:
    alice.email = "alice@example.org"
    alice.save()
    client = Client()

    answer = client.post("/accounts/password/reset/", {"email": "alice@example.org"})

    assert answer["Location"] == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.org"]
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", str(mail.outbox[0].body))
    assert link is not None
    form = client.get(link.group(1), follow=True)  # Django swaps the token for a session key
    assert "Set a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW}, follow=True
    )
    assert "Your new password is set" in done.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    # The link works once.
    again = client.get(link.group(1), follow=True)
    assert "no longer valid" in again.content.decode()


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(db: None) -> None:
    answer = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert answer["Location"] == "/accounts/password/reset/sent/"
    assert mail.outbox == []


@override_settings(PASSWORD_RESET_LIMIT=2)
def test_reset_requests_from_one_address_are_throttled(alice: User) -> None:
    alice.email = "alice@example.org"
    alice.save()
    client = Client()
    answers = [
        client.post("/accounts/password/reset/", {"email": "alice@example.org"}) for _ in range(4)
    ]
    assert [a.status_code for a in answers] == [302, 302, 429, 429]
    assert answers[-1]["Retry-After"].isdigit()
    assert len(mail.outbox) == 2


@pytest.mark.parametrize("following", ["0", "1234", "groups"])
def test_a_next_that_looks_like_a_view_name_is_a_path(alice: User, following: str) -> None:
    client = Client()
    client.force_login(alice)
    answer = client.post("/accounts/signup/", {"next": following})
    assert answer.status_code == 302 and answer["Location"] == following
