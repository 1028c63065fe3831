"""Production mode from the environment: `check --deploy` is clean, development unchanged."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Every variable the settings read; a child process starts with none of them set.
VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "REDIS_URL",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "CSRF_TRUSTED_ORIGINS",
    "TRUST_X_FORWARDED_FOR",
    "LOGIN_FAILURE_LIMIT",
    "STATIC_ROOT",
)


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    child_env = {k: v for k, v in os.environ.items() if k not in VARIABLES} | env
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_env,
        timeout=120,
        check=False,
    )


def production(**extra: str) -> dict[str, str]:
    return {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "scores.example.org",
        **extra,
    }


SHOW = (
    "from django.conf import settings as s;"
    "print(s.STORAGES['staticfiles']['BACKEND'], s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS,"
    " s.SESSION_COOKIE_SECURE, getattr(s, 'SECURE_PROXY_SSL_HEADER', None) is not None,"
    " s.CACHES['default']['BACKEND'].rsplit('.', 1)[-1])"
)


def show(**env: str) -> list[str]:
    result = run("-c", "import django; django.setup();" + SHOW, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_check_deploy_passes_with_no_warning_in_production_mode() -> None:
    result = run("manage.py", "check", "--deploy", "--fail-level", "WARNING", **production())

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_on_a_short_secret_key() -> None:
    # The check is really looking: a weak key is a warning, and warnings fail.
    env = production(SECRET_KEY="short")

    result = run("manage.py", "check", "--deploy", "--fail-level", "WARNING", **env)

    assert result.returncode != 0
    assert "security.W009" in result.stderr


def test_development_is_unchanged() -> None:
    assert show() == [
        "django.contrib.staticfiles.storage.StaticFilesStorage",
        "False",
        "0",
        "False",
        "False",
        "LocMemCache",
    ]


def test_production_serves_hashed_static_files_over_https_with_hsts() -> None:
    assert show(**production()) == [
        "scorekeeper.staticfiles.GzipManifestStaticFilesStorage",
        "True",
        "31536000",
        "True",
        "False",
        "LocMemCache",
    ]


def test_behind_a_tls_proxy_with_redis_cache() -> None:
    env = production(
        SECURE_PROXY_SSL_HEADER="1", SECURE_SSL_REDIRECT="0", REDIS_URL="redis://cache:6379/1"
    )

    assert show(**env)[1:] == ["False", "31536000", "True", "True", "LimitsCache"]


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS"),
        ({"LOGIN_FAILURE_LIMIT": "-1"}, "LOGIN_FAILURE_LIMIT"),
        ({"CACHE_URL": "memcached://127.0.0.1"}, "CACHE_URL"),
        ({"SECURE_SSL_REDIRECT": "sometimes"}, "SECURE_SSL_REDIRECT"),
        ({"STATIC_ROOT": "staticfiles"}, "STATIC_ROOT"),
    ],
)
def test_a_malformed_variable_stops_start_up(env: dict[str, str], named: str) -> None:
    result = run("-c", "import django; django.setup()", **env)

    assert result.returncode != 0
    assert f"ImproperlyConfigured: {named}" in result.stderr


def test_collectstatic_writes_where_static_root_says(tmp_path: Path) -> None:
    root = tmp_path / "static"

    done = run(
        "manage.py", "collectstatic", "--noinput", "-v", "0", **production(STATIC_ROOT=str(root))
    )

    assert done.returncode == 0, done.stderr
    assert (root / "staticfiles.json").is_file()
    assert list(root.glob("games/*.js.gz"))


def test_the_pools_reconnect_warnings_are_json_lines_in_production() -> None:
    said = (
        "import django, logging; django.setup();"
        " logging.getLogger('psycopg.pool').warning(\"error connecting in 'pool-1'\")"
    )

    done = run("-c", said, **production())

    assert done.returncode == 0, done.stderr
    [line] = done.stderr.splitlines()
    assert json.loads(line)["message"] == "error connecting in 'pool-1'"
