"""The address a link handed to a phone carries: seat links, invite links, their QR codes.

A link built from the request alone carries whatever address the host's browser used, and
``http://127.0.0.1:8000/...`` opens nothing on a phone. So the origin is, in order:
``SITE_URL`` when set; ``LAN_URL`` (this computer's address on the local network, found
by ``make run``) when the request came to a loopback address; else the request's own.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port, validate_host


@dataclass(frozen=True)
class LoopbackLinks:
    """Links asked for at a loopback address: the ``host`` the page was opened at, and the
    ``lan`` origin the links carry instead (None when none is known: phones cannot open
    them)."""

    host: str
    lan: str | None


def is_loopback(name: str) -> bool:
    """Whether a host name without its port (an IPv6 address in brackets or not) names
    this computer only: ``localhost`` (and ``*.localhost``), 127.0.0.0/8 or ::1."""
    name = name.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name.removeprefix("[").removesuffix("]")).is_loopback
    except ValueError:
        return False


def _loopback_host(request: HttpRequest) -> str | None:
    """The host (with its port) the request came to, when it is a loopback address."""
    host = request.get_host()
    return host if is_loopback(split_domain_port(host)[0]) else None


def _lan_origin() -> str | None:
    """``LAN_URL``, when set and a host this site answers (a link it refused would be no
    better than a loopback one)."""
    lan: str | None = settings.LAN_URL
    if lan is None:
        return None
    name = split_domain_port(lan.partition("://")[2])[0]
    return lan if validate_host(name, settings.ALLOWED_HOSTS) else None


def loopback_links(request: HttpRequest) -> LoopbackLinks | None:
    """What a page handing out links should tell its reader about them: None unless the
    page was asked for at a loopback address and ``SITE_URL`` is unset."""
    if settings.SITE_URL is not None:
        return None
    host = _loopback_host(request)
    return None if host is None else LoopbackLinks(host=host, lan=_lan_origin())


def public_url(request: HttpRequest, path: str) -> str:
    """The absolute URL of ``path`` (as ``reverse`` gives it) that a phone should open."""
    site: str | None = settings.SITE_URL
    if site is not None:
        return site + path
    links = loopback_links(request)
    if links is not None and links.lan is not None:
        return links.lan + path
    return request.build_absolute_uri(path)
