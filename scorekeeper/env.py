"""Reading settings from environment variables.

Each helper returns the variable's value in the type a setting needs, or its default when
the variable is unset or empty, and rejects a malformed value with ImproperlyConfigured
naming the variable, instead of guessing.
"""

import os
import re
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
DATABASE_SCHEMES = frozenset({"sqlite", "postgres", "postgresql", "pgsql"})
BROKER_SCHEMES = frozenset({"redis", "rediss", "amqp", "amqps", "memory"})


def env_str(name: str) -> str | None:
    """The variable's value with surrounding blanks removed, or None when unset or empty."""
    value = os.environ.get(name, "").strip()
    return value or None


def env_required(name: str, why: str) -> str:
    """The variable's value; ImproperlyConfigured (saying why it is needed) when unset."""
    value = env_str(name)
    if value is None:
        raise ImproperlyConfigured(f"{name} must be set {why}.")
    return value


def env_bool(name: str, default: bool) -> bool:
    """A boolean spelled 1/0, true/false, yes/no or on/off (any case)."""
    value = env_str(name)
    if value is None:
        return default
    if value.lower() in TRUE_WORDS:
        return True
    if value.lower() in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use 1/0, true/false, yes/no or on/off."
    )


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks around items are dropped, empty items rejected."""
    value = env_str(name)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if not all(items):
        raise ImproperlyConfigured(f"{name}={value!r} has an empty item in its comma list.")
    return items


def env_url(name: str, schemes: frozenset[str]) -> str | None:
    """A URL whose scheme is one of `schemes`, or None when unset."""
    value = env_str(name)
    if value is None:
        return None
    scheme = urlsplit(value).scheme
    if scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name} has the unsupported scheme {scheme + '://' if scheme else '(none)'};"
            f" use one of: {', '.join(sorted(schemes))}."
        )
    return value


WEB_SCHEMES = frozenset({"http", "https"})
# A host as Django's host check accepts it: a name or IPv4 address, or an IPv6 address in
# brackets, with an optional port.
ORIGIN_HOST = re.compile(r"^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]{1,5})?$")


def env_origin(name: str) -> str | None:
    """An http or https origin (``https://cards.example.org``, a port allowed, no path but
    ``/``), answered lowercase without a trailing slash; None when unset."""
    url = env_url(name, WEB_SCHEMES)
    if url is None:
        return None
    parts = urlsplit(url)
    example = "such as https://cards.example.org or http://192.168.1.20:8000"
    host = ORIGIN_HOST.match(parts.netloc.lower())
    if host is None or (host.group(2) and not 0 < int(host.group(2)[1:]) < 65536):
        raise ImproperlyConfigured(f"{name}={url!r} has no valid host: give an origin, {example}.")
    if parts.path not in ("", "/") or "?" in url or "#" in url:
        raise ImproperlyConfigured(
            f"{name}={url!r} has more than an origin: give no path, query or fragment, {example}."
        )
    return f"{parts.scheme}://{parts.netloc.lower()}"


def origin_host(origin: str) -> str:
    """The host of an ``env_origin`` value without its port, as ``ALLOWED_HOSTS`` names it."""
    host = ORIGIN_HOST.match(origin.partition("://")[2])
    assert host is not None, origin
    return host.group(1)


# PostgreSQL through Django's own backend, with two of its options (docs/operations.md):
# psycopg's pool, which hands each request a connection it has just checked (a connection
# the server ended is replaced before a request uses it), and server-side binding, psycopg
# preparing a statement once a connection has sent it PREPARE_THRESHOLD times (the ones
# every deal sends, and every other one that recurs). A process opens connections as its
# threads need them at once: one for a gunicorn worker, up to ASGI_MAX_REQUESTS and a
# few more for Daphne; the pool's maximum is only a ceiling.
PREPARE_THRESHOLD = 5
POOL = {"min_size": 1, "max_size": 20}


def env_database(name: str, default: dict[str, Any]) -> dict[str, Any]:
    """A Django DATABASES entry from a database URL (SQLite or PostgreSQL only)."""
    url = env_url(name, DATABASE_SCHEMES)
    if url is None:
        return default
    try:
        config: dict[str, Any] = dict(
            dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
        )
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} is not a valid database URL: {exc}") from exc
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name} names no database (the path after the host).")
    if config["ENGINE"] == "django.db.backends.postgresql":
        # The pool keeps the connections: Django must not keep one of its own as well.
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = {
            **config.get("OPTIONS", {}),
            "server_side_binding": True,
            "prepare_threshold": PREPARE_THRESHOLD,
            "pool": dict(POOL),
        }
    return config


def env_int(name: str, default: int, minimum: int = 0, maximum: int | None = None) -> int:
    """A whole number of at least ``minimum`` (zero unless told) and at most ``maximum``."""
    value = env_str(name)
    if value is None:
        return default
    bounds = f"{minimum} or more" if maximum is None else f"from {minimum} to {maximum}"
    if not value.isdigit() or not minimum <= int(value) <= (maximum or int(value)):
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number ({bounds}).")
    return int(value)


RATE_PERIODS = {"second": "s", "minute": "m", "hour": "h", "day": "d"}


def env_rate(name: str, default: str) -> str | None:
    """A request rate for a DRF throttle: ``N/second``, ``N/minute``, ``N/hour`` or
    ``N/day`` (or ``N/s``, ``N/min``, ``N/m``, ``N/h``, ``N/d``), N at least 1; ``off``
    for no throttle (None). Answered as ``N/unit``."""
    value = env_str(name) or default
    if value.lower() == "off":
        return None
    number, _, period = value.lower().partition("/")
    unit = RATE_PERIODS.get(period) or ("m" if period == "min" else period)
    if not number.isdigit() or int(number) < 1 or unit not in RATE_PERIODS.values():
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a rate: use N/second, N/minute, N/hour or N/day"
            " (N at least 1), or off."
        )
    return f"{int(number)}/{unit}"
