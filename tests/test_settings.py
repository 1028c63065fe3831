import os
import subprocess
import sys
from ipaddress import IPv4Address, IPv6Address
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.env import (
    BROKER_SCHEMES,
    env_bool,
    env_database,
    env_int,
    env_list,
    env_origin,
    env_rate,
    env_url,
    origin_host,
)
from scorekeeper.hosts import PRIVATE_NETWORK, is_local_host

ROOT = Path(__file__).resolve().parents[1]
SETTINGS_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "DOCUMENT_PENDING_TIMEOUT",
    "THROTTLE_SCORE_ANON",
    "THROTTLE_SCORE_USER",
    "THROTTLE_ARRANGE_ANON",
    "THROTTLE_ARRANGE_USER",
    "THROTTLE_EXPECTED_ANON",
    "THROTTLE_EXPECTED_USER",
    "ARRANGE_ANON_MAX_SAMPLES",
    "ARRANGE_ANON_MAX_FANTASY_CARDS",
    "LOGIN_FAILURE_LIMIT",
    "LOGIN_FAILURE_WINDOW",
    "TOKEN_EXPIRY_DAYS",
    "SITE_URL",
    "LAN_URL",
    "CSRF_TRUSTED_ORIGINS",
    "ASGI_MAX_WAIT",
    "REQUEST_QUEUE_LIMIT",
)
SQLITE = {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("ON", True),
        ("0", False),
        ("False", False),
        ("no", False),
        ("off", False),
    ],
)
def test_env_bool_reads(monkeypatch: pytest.MonkeyPatch, value: str, expected: bool) -> None:
    monkeypatch.setenv("DEBUG", value)

    assert env_bool("DEBUG", default=not expected) is expected


@pytest.mark.parametrize("value", [None, "", "  "])
def test_env_bool_unset_or_empty_gives_default(
    monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv("DEBUG", raising=False)
    else:
        monkeypatch.setenv("DEBUG", value)

    assert env_bool("DEBUG", default=True) is True


@pytest.mark.parametrize("value", ["maybe", "2", "truthy", "y e s"])
def test_env_bool_rejects_malformed(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("DEBUG", value)

    with pytest.raises(ImproperlyConfigured, match=r"^DEBUG="):
        env_bool("DEBUG", default=True)


def test_env_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALLOWED_HOSTS", " example.org, .example.net ")

    assert env_list("ALLOWED_HOSTS", default=[]) == ["example.org", ".example.net"]


def test_env_list_rejects_empty_item(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALLOWED_HOSTS", "example.org,,example.net")

    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS"):
        env_list("ALLOWED_HOSTS", default=[])


def test_env_database_default_when_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)

    assert env_database("DATABASE_URL", default=SQLITE) is SQLITE


def test_env_database_reads_postgres(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://ann:secret@db.example:5433/scores")

    config = env_database("DATABASE_URL", default=SQLITE)

    assert config["ENGINE"] == "django.db.backends.postgresql"
    # psycopg's pool holds the connections (Django keeps none of its own: the pool refuses
    # persistent connections), checked as they are handed out; server-side binding with
    # statements prepared once they recur.
    assert config["CONN_MAX_AGE"] == 0 and config["CONN_HEALTH_CHECKS"] is True
    options = config["OPTIONS"]
    assert options["server_side_binding"] is True
    assert options["prepare_threshold"] == 5
    assert options["pool"] == {"min_size": 1, "max_size": 20}
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("scores", "ann", "secret")
    assert (config["HOST"], config["PORT"]) == ("db.example", 5433)


def test_env_database_reads_sqlite(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/scores.sqlite3")

    config = env_database("DATABASE_URL", default=SQLITE)

    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == f"{tmp_path}/scores.sqlite3"


@pytest.mark.parametrize(
    "url",
    ["mysql://root@127.0.0.1/scores", "db.sqlite3", "http://example.org/", "postgres://host"],
)
def test_env_database_rejects(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("DATABASE_URL", url)

    with pytest.raises(ImproperlyConfigured, match=r"^DATABASE_URL "):
        env_database("DATABASE_URL", default=SQLITE)


@pytest.mark.parametrize(
    ("value", "expected", "host"),
    [
        ("https://cards.example.org", "https://cards.example.org", "cards.example.org"),
        (" https://Cards.Example.ORG/ ", "https://cards.example.org", "cards.example.org"),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000", "192.168.1.20"),
        ("http://[fd12::1]:8000/", "http://[fd12::1]:8000", "[fd12::1]"),
        (
            "https://scores.example.org:65535",
            "https://scores.example.org:65535",
            "scores.example.org",
        ),
    ],
)
def test_env_origin_reads(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: str, host: str
) -> None:
    monkeypatch.setenv("SITE_URL", value)

    assert env_origin("SITE_URL") == expected
    assert origin_host(expected) == host


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ("cards.example.org", "SITE_URL has the unsupported scheme (none)"),
        ("ftp://cards.example.org", "SITE_URL has the unsupported scheme ftp://"),
        ("https://", "SITE_URL='https://' has no valid host"),
        ("https://user:secret@cards.example.org", "has no valid host"),
        ("https://cards example.org", "has no valid host"),
        ("http://192.168.1.20:99999", "has no valid host"),
        ("http://192.168.1.20:0", "has no valid host"),
        ("https://cards.example.org/scores", "has more than an origin"),
        ("https://cards.example.org/?next=/", "has more than an origin"),
        ("https://cards.example.org#seats", "has more than an origin"),
    ],
)
def test_env_origin_rejects(monkeypatch: pytest.MonkeyPatch, value: str, error: str) -> None:
    monkeypatch.setenv("SITE_URL", value)

    with pytest.raises(ImproperlyConfigured, match=r"^SITE_URL") as refused:
        env_origin("SITE_URL")
    assert error in str(refused.value)


def test_env_origin_unset_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITE_URL", " ")

    assert env_origin("SITE_URL") is None


def test_env_url_rejects_unknown_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CELERY_BROKER_URL", "http://127.0.0.1:6379/0")

    with pytest.raises(ImproperlyConfigured, match=r"^CELERY_BROKER_URL .*http://"):
        env_url("CELERY_BROKER_URL", BROKER_SCHEMES)


def load_settings(
    show: str = "s.DEBUG, s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL", **env: str
) -> subprocess.CompletedProcess[str]:
    """Import the settings (as `s`) in a child process with only `env` among the settings
    variables; it prints `show` (`DEBUG ALWAYS_EAGER BROKER`) when they load."""
    child_env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES} | env
    code = f"from scorekeeper import settings as s; print({show})"
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_env,
        timeout=60,
        check=False,
    )


def test_development_defaults() -> None:
    result = load_settings()

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "memory://"]


def test_broker_turns_eager_tasks_off() -> None:
    result = load_settings(CELERY_BROKER_URL="redis://127.0.0.1:6379/0")

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False", "redis://127.0.0.1:6379/0"]


def test_production_mode_loads_when_configured() -> None:
    result = load_settings(DEBUG="false", SECRET_KEY="x" * 50, ALLOWED_HOSTS="example.org")

    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "False"


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"DEBUG": "false", "ALLOWED_HOSTS": "example.org"}, "SECRET_KEY"),
        ({"DEBUG": "false", "SECRET_KEY": "x" * 50}, "ALLOWED_HOSTS"),
        ({"DATABASE_URL": "mysql://root@127.0.0.1/scores"}, "DATABASE_URL"),
        ({"CELERY_BROKER_URL": "127.0.0.1:6379"}, "CELERY_BROKER_URL"),
        ({"DOCUMENT_PENDING_TIMEOUT": "10m"}, "DOCUMENT_PENDING_TIMEOUT='10m'"),
        (
            {"DOCUMENT_PENDING_TIMEOUT": "0"},
            "DOCUMENT_PENDING_TIMEOUT='0' is not a whole number (1",
        ),
        ({"DOCUMENT_PENDING_TIMEOUT": "-5"}, "DOCUMENT_PENDING_TIMEOUT"),
        ({"THROTTLE_EXPECTED_ANON": "lots"}, "THROTTLE_EXPECTED_ANON='lots' is not a rate"),
        ({"ARRANGE_ANON_MAX_SAMPLES": "50000"}, "ARRANGE_ANON_MAX_SAMPLES='50000'"),
        ({"SITE_URL": "https://cards.example.org/scores"}, "SITE_URL='https://cards.example.org/"),
        ({"SITE_URL": "cards.example.org"}, "SITE_URL has the unsupported scheme"),
        ({"LAN_URL": "http://192.168.1.20:8000/seat/"}, "LAN_URL='http://192.168.1.20:8000/"),
    ],
    ids=[
        "malformed-debug",
        "no-secret-key",
        "no-allowed-hosts",
        "mysql",
        "broker-no-scheme",
        "timeout-with-unit",
        "timeout-zero",
        "timeout-negative",
        "throttle-rate",
        "samples-over-the-engine-cap",
        "site-url-with-a-path",
        "site-url-without-a-scheme",
        "lan-url-with-a-path",
    ],
)
def test_bad_environment_stops_start_up(env: dict[str, str], named: str) -> None:
    result = load_settings(**env)

    assert result.returncode != 0
    assert f"ImproperlyConfigured: {named}" in result.stderr


PENDING = (
    "s.DOCUMENT_PENDING_TIMEOUT,"
    "s.CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout'],"
    "s.CELERY_BROKER_TRANSPORT_OPTIONS['unacked_restore_interval']"
)


@pytest.mark.parametrize(
    ("env", "expected"),
    [({}, ["600", "300", "10"]), ({"DOCUMENT_PENDING_TIMEOUT": " 30 "}, ["30", "15", "3"])],
    ids=["default", "thirty-seconds"],
)
def test_the_pending_timeout_sets_when_a_lost_task_is_handed_out_again(
    env: dict[str, str], expected: list[str]
) -> None:
    result = load_settings(PENDING, **env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("30/minute", "30/m"),
        ("30/min", "30/m"),
        (" 5/S ", "5/s"),
        ("100/hour", "100/h"),
        ("1000/d", "1000/d"),
        ("007/day", "7/d"),
        ("off", None),
        ("OFF", None),
    ],
)
def test_env_rate_reads(monkeypatch: pytest.MonkeyPatch, value: str, expected: str | None) -> None:
    monkeypatch.setenv("THROTTLE_SCORE_ANON", value)

    assert env_rate("THROTTLE_SCORE_ANON", "60/minute") == expected


@pytest.mark.parametrize("value", [None, "", "  "])
def test_env_rate_unset_gives_default(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv("THROTTLE_SCORE_ANON", raising=False)
    else:
        monkeypatch.setenv("THROTTLE_SCORE_ANON", value)

    assert env_rate("THROTTLE_SCORE_ANON", "60/minute") == "60/m"


@pytest.mark.parametrize(
    "value",
    # "10/month" would be 10 a minute to DRF, which reads the first letter only.
    ["10", "ten/minute", "0/minute", "-1/minute", "10/month", "10/fortnight", "1.5/s", "10/"],
)
def test_env_rate_rejects_malformed(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("THROTTLE_SCORE_ANON", value)

    with pytest.raises(ImproperlyConfigured, match=r"^THROTTLE_SCORE_ANON=.* is not a rate"):
        env_rate("THROTTLE_SCORE_ANON", "60/minute")


@pytest.mark.parametrize("value", ["0", "20001", "2k"])
def test_env_int_with_a_maximum_rejects_out_of_bounds(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("ARRANGE_ANON_MAX_SAMPLES", value)

    with pytest.raises(ImproperlyConfigured, match=r"\(from 1 to 20000\)"):
        env_int("ARRANGE_ANON_MAX_SAMPLES", 2000, minimum=1, maximum=20_000)


THROTTLES = "s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], s.ARRANGE_ANON_MAX_SAMPLES"


def test_the_throttle_rates_default_and_come_from_the_environment() -> None:
    defaults = load_settings(THROTTLES)
    configured = load_settings(
        THROTTLES,
        THROTTLE_EXPECTED_ANON="2/hour",
        THROTTLE_SCORE_USER="off",
        ARRANGE_ANON_MAX_SAMPLES="500",
    )

    assert defaults.returncode == 0, defaults.stderr
    assert defaults.stdout.strip() == (
        "{'score-anon': '60/m', 'score-user': '300/m', 'arrange-anon': '30/m',"
        " 'arrange-user': '120/m', 'expected-anon': '6/m', 'expected-user': '10/m'} 2000"
    )
    assert configured.returncode == 0, configured.stderr
    assert "'expected-anon': '2/h'" in configured.stdout
    assert "'score-user': None" in configured.stdout
    assert configured.stdout.split()[-1] == "500"


LOCKOUT = "s.AXES_ENABLED, s.AXES_FAILURE_LIMIT, int(s.AXES_COOLOFF_TIME.total_seconds())"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, ["True", "5", "900"]),
        ({"LOGIN_FAILURE_LIMIT": "3", "LOGIN_FAILURE_WINDOW": "60"}, ["True", "3", "60"]),
        ({"LOGIN_FAILURE_LIMIT": "0"}, ["False", "1", "900"]),
    ],
)
def test_the_login_settings_become_the_lock_outs(env: dict[str, str], expected: list[str]) -> None:
    # django-axes' settings come from ours: a limit of 0 turns the lock-out off.
    result = load_settings(LOCKOUT, **env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.replace(",", " ").split() == expected


def test_a_lock_out_window_of_zero_is_refused() -> None:
    result = load_settings(LOCKOUT, LOGIN_FAILURE_WINDOW="0")

    assert result.returncode != 0
    assert "LOGIN_FAILURE_WINDOW" in result.stderr


@pytest.mark.parametrize(("value", "days"), [(None, "90"), ("30", "30"), ("0", "0")])
def test_the_token_expiry_comes_from_the_environment(value: str | None, days: str) -> None:
    result = load_settings(
        "s.TOKEN_EXPIRY_DAYS", **({} if value is None else {"TOKEN_EXPIRY_DAYS": value})
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == days


@pytest.mark.parametrize("value", ["-1", "90d", "36501"])
def test_a_malformed_token_expiry_is_refused(value: str) -> None:
    # Refused on loading, whatever is read afterwards.
    result = load_settings("s.DEBUG", TOKEN_EXPIRY_DAYS=value)

    assert result.returncode != 0
    assert f"TOKEN_EXPIRY_DAYS={value!r} is not a whole number" in result.stderr


def test_the_throttles_count_in_redis_when_a_cache_url_is_set() -> None:
    # One count for every gunicorn worker: the throttles use the default cache, Django's
    # Redis cache that counts in each process's memory while Redis is down.
    result = load_settings(
        "s.CACHES['default']['BACKEND'], s.CACHES['default']['LOCATION']",
        CACHE_URL="redis://127.0.0.1:6379/1",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "games.lib.limits_cache.LimitsCache",
        "redis://127.0.0.1:6379/1",
    ]


# The hosts `make run` answers (scorekeeper/hosts.py): a phone on the same network, yes;
# the internet, no.
HOST_CHECK = (
    "from django.test import RequestFactory; from django.core.exceptions import DisallowedHost\n"
    "import django; django.setup()\n"
    "for host in {hosts!r}:\n"
    "    try:\n"
    "        RequestFactory().get('/', HTTP_HOST=host).get_host(); print('ok')\n"
    "    except DisallowedHost:\n"
    "        print('refused')\n"
)
LOCAL_HOSTS = [
    "localhost:8000",
    "127.0.0.1:8000",
    "[::1]:8000",
    "192.168.1.20:8000",
    "10.1.2.3",
    "172.16.0.9:8000",
    "172.31.255.254",
    "169.254.10.1",
    "[fd12:3456:789a::1]:8000",
    "[fe80::1c2d:3e4f]",
    "annas-macbook.local:8000",
]
PUBLIC_HOSTS = [
    "example.com",
    "8.8.8.8:8000",
    "172.32.0.1",
    "192.169.0.1",
    "[2001:4860:4860::8888]",
    "0.0.0.0:8000",
    "local",
    "evil.local.example.com",
    "192.168.1.20.nip.io",
]


def hosts_answered(hosts: list[str], **env: str) -> list[str]:
    child_env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES} | env
    child_env["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    result = subprocess.run(
        [sys.executable, "-c", HOST_CHECK.format(hosts=hosts)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


ORIGINS = "s.SITE_URL, s.LAN_URL, s.ALLOWED_HOSTS[-1], s.CSRF_TRUSTED_ORIGINS"


def test_the_links_origins_default_to_none() -> None:
    result = load_settings(ORIGINS)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:2] == ["None", "None"]
    assert result.stdout.split()[-1] == "[]"


def test_site_url_is_answered_and_trusted_for_posts() -> None:
    production = {"DEBUG": "false", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.org"}
    site = {"SITE_URL": "https://Cards.example.org/", "LAN_URL": "http://192.168.1.20:8000"}

    result = load_settings(ORIGINS, **production, **site)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "https://cards.example.org",
        "http://192.168.1.20:8000",
        "cards.example.org",
        "['https://cards.example.org']",
    ]
    hosts = ["cards.example.org", "example.org", "192.168.1.20"]
    assert hosts_answered(hosts, **production, **site) == ["ok", "ok", "refused"]


def test_development_answers_a_public_site_url_too() -> None:
    hosts = ["cards.example.org:443", "192.168.1.20:8000", "example.com"]

    answered = hosts_answered(hosts, SITE_URL="https://cards.example.org")

    assert answered == ["ok", "ok", "refused"]


def test_development_answers_this_computer_and_the_local_network() -> None:
    assert hosts_answered(LOCAL_HOSTS) == ["ok"] * len(LOCAL_HOSTS)


def test_development_refuses_public_names_and_addresses() -> None:
    assert hosts_answered(PUBLIC_HOSTS) == ["refused"] * len(PUBLIC_HOSTS)


def test_allowed_hosts_set_in_development_is_all_that_is_answered() -> None:
    answered = hosts_answered(
        ["scores.example.org", "192.168.1.20"], ALLOWED_HOSTS="scores.example.org"
    )

    assert answered == ["ok", "refused"]


def test_production_answers_only_its_allowed_hosts() -> None:
    hosts = ["example.org", "192.168.1.20:8000", "localhost", "annas-macbook.local"]

    answered = hosts_answered(
        hosts, DEBUG="false", SECRET_KEY="x" * 50, ALLOWED_HOSTS="example.org"
    )

    assert answered == ["ok", "refused", "refused", "refused"]


@given(st.ip_addresses())
def test_a_public_address_is_never_a_local_host(address: IPv4Address | IPv6Address) -> None:
    text = f"[{address}]" if address.version == 6 else str(address)

    assert is_local_host(text) is _in_networks(address)
    if address.is_global:
        assert text != PRIVATE_NETWORK


def _in_networks(address: IPv4Address | IPv6Address) -> bool:
    # Written from the README's list, not from scorekeeper.hosts.
    if address.version == 4:
        first, second = address.packed[0], address.packed[1]
        return (
            first in (10, 127)
            or (first == 172 and 16 <= second <= 31)
            or (first, second) in ((192, 168), (169, 254))
        )
    head, next_byte = address.packed[0], address.packed[1]
    link_local = head == 0xFE and next_byte & 0xC0 == 0x80  # fe80::/10
    return address == IPv6Address("::1") or head & 0xFE == 0xFC or link_local


def test_the_waits_before_a_busy_answer() -> None:
    shown = "s.ASGI_MAX_WAIT, s.REQUEST_QUEUE_LIMIT"

    assert load_settings(shown).stdout.split() == ["10", "0"]
    assert load_settings(shown, ASGI_MAX_WAIT="0", REQUEST_QUEUE_LIMIT="8").stdout.split() == [
        "0",
        "8",
    ]
    refused = load_settings(shown, REQUEST_QUEUE_LIMIT="soon")
    assert refused.returncode != 0
    assert "REQUEST_QUEUE_LIMIT='soon' is not a whole number" in refused.stderr
