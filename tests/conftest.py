import os
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from kombu import Connection
from kombu.exceptions import OperationalError

from scorekeeper.env import env_bool, env_str


def skip_or_fail(reason: str) -> NoReturn:
    """Skip a test whose service is missing, or fail it when REQUIRE_SERVICES is set (CI)."""
    if env_bool("REQUIRE_SERVICES", default=False):
        pytest.fail(f"{reason} (REQUIRE_SERVICES is set)")
    pytest.skip(reason)


def xdist_worker() -> str:
    """This process's pytest-xdist worker ("gw0", "gw1", ...; `make test` runs several at
    once), or "main" in a run without workers. Names kept in a service every worker shares
    (Redis keys, channel-layer groups) carry it, so that one worker never hears another's."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


@pytest.fixture
def broker_url() -> str:
    """A reachable message broker: CELERY_BROKER_URL when set, else the local Redis."""
    url = env_str("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/0"
    with Connection(url, connect_timeout=2) as connection:
        try:
            connection.ensure_connection(max_retries=1)
        except (OSError, OperationalError) as exc:
            skip_or_fail(f"no broker at {url}: {exc}")
    return url


@pytest.fixture(autouse=True, scope="session")
def _media_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Files the tests store (PDFs, uploaded imports) go to a folder of this run's and this
    worker's own, never to the checkout's media/ that every worker would share. The PDF
    tests go further: a folder per test (tests/pdf/conftest.py)."""
    from django.test.utils import override_settings

    root = tmp_path_factory.mktemp("media")
    with override_settings(MEDIA_ROOT=root):
        yield root


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher() -> Iterator[None]:
    """Passwords hashed with one quick round instead of PBKDF2's million: the tests sign in
    and fail logins by the hundred (the login throttle alone took minutes), and none of them
    is about the hasher. Production keeps Django's default list."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _no_language_left() -> Iterator[None]:
    """Every test starts in the default language: a request read in Vietnamese leaves it
    active in the thread (the middleware activates a language per request and never turns
    it off), and a service test after it on the same worker would read its errors in it."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Every test starts with an empty cache: calls or form posts counted by one test (the
    calculators' throttles, games.lib.form_posts) must not refuse another's."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """On SQLite, the test database is a file of this worker's (WAL, as `make run`'s), not
    Django's shared in-memory one: the browser tests' server writes from several threads at
    once (four phones), which a shared in-memory database answers "table is locked", where
    a file waits for the lock as production does."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
