"""A new password signs a stolen phone out: every path that sets one (the page that changes
it, the mailed reset link, the admin, ``manage.py changepassword``) revokes all of the
user's API tokens, and ends the user's other browsers.

A password hash upgraded at login is no new password: it revokes nothing.
"""

from __future__ import annotations

import re
from io import StringIO
from unittest import mock

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from games.models import DeviceToken
from tests.api.conftest import API
from tests.web.conftest import PASSWORD

NEW = "a fresh table password 7"


def api_answer(key: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get(f"{API}/groups/").status_code


@pytest.fixture
def phones(alice: User, bob: User) -> dict[str, str]:
    """Two of Alice's devices holding tokens, and Bob's phone, which no change of Alice's
    may touch."""
    keys = {
        "alice phone": DeviceToken.issue(alice, "Alice's phone")[1],
        "alice tablet": DeviceToken.issue(alice, "Kitchen tablet")[1],
        "bob phone": DeviceToken.issue(bob, "Bob's phone")[1],
    }
    assert {api_answer(key) for key in keys.values()} == {200}
    return keys


def assert_alice_signed_out(phones: dict[str, str]) -> None:
    assert api_answer(phones["alice phone"]) == 401
    assert api_answer(phones["alice tablet"]) == 401
    assert api_answer(phones["bob phone"]) == 200
    assert list(DeviceToken.objects.values_list("device", flat=True)) == ["Bob's phone"]


def test_changing_the_password_on_the_page_revokes_the_tokens_and_says_so(
    alice: User, phones: dict[str, str]
) -> None:
    here, elsewhere = Client(), Client()
    here.force_login(alice)
    elsewhere.force_login(alice)
    wrong = here.post(
        "/accounts/password/change/",
        {"old_password": "not it", "new_password1": NEW, "new_password2": NEW},
    )
    assert wrong.status_code == 200 and DeviceToken.objects.count() == 3  # nothing changed

    done = here.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )

    assert done.redirect_chain[-1][0] == "/accounts/password/change/done/"
    page = done.content.decode()
    assert "2 API tokens (apps and devices signed in to your account) were revoked." in page
    assert "Other browsers signed in to your account were signed out; this one stays." in page
    assert_alice_signed_out(phones)
    assert here.get("/groups/").status_code == 200
    # Another browser signed in before the change is signed out (Django's session hash).
    gone = elsewhere.get("/groups/")
    assert gone.status_code == 302 and gone["Location"].startswith("/accounts/login/")


def test_a_reset_through_the_mailed_link_revokes_the_tokens(
    alice: User, phones: dict[str, str]
) -> None:
    alice.email = "alice@example.org"
    alice.save()
    signed_in = Client()
    signed_in.force_login(alice)
    client = Client()
    client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", str(mail.outbox[0].body))
    assert link is not None
    form = client.get(link.group(1), follow=True)

    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW}, follow=True
    )

    page = done.content.decode()
    assert "Your new password is set" in page
    assert "2 API tokens (apps and devices signed in to your account) were revoked." in page
    assert "Every browser signed in to your account was signed out." in page
    assert_alice_signed_out(phones)
    assert signed_in.get("/groups/").status_code == 302


def test_the_page_counts_one_token_in_the_singular(alice: User) -> None:
    DeviceToken.issue(alice, "Alice's phone")
    client = Client()
    client.force_login(alice)

    done = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )

    assert "1 API token (an app or device signed in to your account) was revoked." in (
        done.content.decode()
    )


@pytest.fixture
def admin_client(db: None) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="x"))
    return client


def test_a_password_set_in_the_admin_revokes_the_tokens(
    alice: User, phones: dict[str, str], admin_client: Client
) -> None:
    answer = admin_client.post(
        f"/admin/auth/user/{alice.pk}/password/",
        {"password1": NEW, "password2": NEW, "usable_password": "true"},
    )

    assert answer["Location"] == f"/admin/auth/user/{alice.pk}/change/"
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    assert_alice_signed_out(phones)


def test_password_sign_in_disabled_in_the_admin_revokes_the_tokens(
    alice: User, phones: dict[str, str], admin_client: Client
) -> None:
    answer = admin_client.post(
        f"/admin/auth/user/{alice.pk}/password/",
        {"usable_password": "false", "unset-password": "Disable"},
    )

    assert answer["Location"] == f"/admin/auth/user/{alice.pk}/change/"
    alice.refresh_from_db()
    assert not alice.has_usable_password()
    assert_alice_signed_out(phones)


def test_only_a_save_with_a_new_password_revokes(alice: User, phones: dict[str, str]) -> None:
    alice.email = "alice@example.org"
    alice.save()
    # A user who never had a usable password, saved again, loses nothing either.
    carol = User.objects.create_user("carol")
    _, key = DeviceToken.issue(carol, "Carol's phone")
    carol.first_name = "Carol"
    carol.save()

    assert DeviceToken.objects.count() == 4
    assert api_answer(phones["alice phone"]) == 200 and api_answer(key) == 200
    # A new password set anywhere, even straight on the model, does revoke them.
    alice.set_password(NEW)
    alice.save()
    assert api_answer(phones["alice phone"]) == api_answer(phones["alice tablet"]) == 401
    assert api_answer(phones["bob phone"]) == api_answer(key) == 200


def test_the_changepassword_command_revokes_the_tokens(alice: User, phones: dict[str, str]) -> None:
    with mock.patch("getpass.getpass", return_value=NEW):
        call_command("changepassword", "alice", stdout=StringIO())

    alice.refresh_from_db()
    assert alice.check_password(NEW)
    assert_alice_signed_out(phones)


def test_a_hash_upgraded_at_sign_in_is_no_new_password(alice: User, phones: dict[str, str]) -> None:
    # A salt too short for the hasher makes Django hash the password again at sign-in.
    User.objects.filter(pk=alice.pk).update(password=make_password(PASSWORD, salt="ab"))
    before = User.objects.get(pk=alice.pk).password

    client = Client()
    signed_in = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert signed_in.status_code == 302
    assert User.objects.get(pk=alice.pk).password != before  # upgraded
    assert DeviceToken.objects.count() == 3
    assert api_answer(phones["alice phone"]) == 200
    # The password itself changed, from the page: now they go.
    changed = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
    )
    assert changed["Location"] == "/accounts/password/change/done/"
    assert_alice_signed_out(phones)
