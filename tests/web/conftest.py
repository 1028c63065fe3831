"""Alice owns the Friday club, Bob is a member, Mallory belongs to none of it.

At the table: Ann (Alice's player), Bob (Bob's), and two guests, Cy and Di. Each user has a
Django test client signed in through the pages' own sign-in form where it matters.
"""

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client

from tests.api import conftest as api_fixtures
from tests.conftest import skip_or_fail
from tests.web.asgi_server import _daphne, asgi_server  # noqa: F401  (fixtures, used by name)
from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, watch_csp

PASSWORD = "a long table password"


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def mallory(db: None) -> User:
    return User.objects.create_user("mallory", password=PASSWORD)


@pytest.fixture
def as_alice(alice: User) -> Client:
    return signed_in(alice)


@pytest.fixture
def as_bob(bob: User) -> Client:
    return signed_in(bob)


@pytest.fixture
def as_mallory(mallory: User) -> Client:
    return signed_in(mallory)


# The Friday club, its four players and a night at Ann's, as the API tests set them up (on
# the users above, who can also sign in with a password).
group = api_fixtures.group
players = api_fixtures.players
session = api_fixtures.session


@pytest.fixture
def chromium(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A launched browser; skipped without Chromium (failed under REQUIRE_SERVICES=1).

    A page opened with its ``new_page`` must break no Content-Security-Policy: a violation
    Chromium reports fails the test when the browser closes."""
    if not CHROMIUM.exists():
        skip_or_fail(f"no Chromium at {CHROMIUM} (Debian package chromium)")
    # Playwright's sync API runs an event loop in this thread; the test's own database
    # calls are still synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        pages: list[list[str]] = []  # each page's violations
        open_page = browser.new_page

        def new_page(*args: Any, **kwargs: Any) -> Any:
            page = open_page(*args, **kwargs)
            pages.append(watch_csp(page))
            return page

        monkeypatch.setattr(browser, "new_page", new_page)
        try:
            yield browser
            violations = [text for page in pages for text in page]
            assert violations == [], violations
        finally:
            # While Playwright's loop runs, the test's queries get connections of their own
            # (Django keys them by context): close them, or they hold the test database open.
            connections.close_all()
            browser.close()
