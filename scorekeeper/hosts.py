"""The hosts a development server answers: this computer, and the local network's.

Django's ``ALLOWED_HOSTS`` matches names exactly (or a domain with its subdomains); it has
no syntax for "any address of the local network". ``PRIVATE_NETWORK`` is one entry of that
list that Django's ``validate_host`` compares equal to exactly those hosts, so a phone on
the same Wi-Fi opens ``http://192.168.1.20:8000/`` while ``DEBUG`` is on and
``ALLOWED_HOSTS`` is unset. Public names and public addresses are still refused.
"""

from __future__ import annotations

import ipaddress
from typing import Any

# Loopback, the private ranges (RFC 1918, IPv6 unique local) and link-local addresses.
NETWORKS = tuple(
    ipaddress.ip_network(net)
    for net in (
        "127.0.0.0/8",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "169.254.0.0/16",
        "::1/128",
        "fc00::/7",
        "fe80::/10",
    )
)


def is_local_host(host: str) -> bool:
    """Whether ``host`` (lowercase, without its port, an IPv6 address in brackets) is this
    computer or on its local network: an address in ``NETWORKS``, ``localhost``, or a
    name ending in ``.local`` (mDNS, as a Mac or a phone names itself)."""
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    if host.endswith(".local") and host != ".local":
        return True
    try:
        address = ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return any(address in network for network in NETWORKS)


class LocalNetworkHosts(str):
    """An ``ALLOWED_HOSTS`` entry equal to every local host (``is_local_host``).

    ``validate_host`` tries ``pattern == "*"`` and ``is_same_domain(host, pattern)``, which
    lowercases the pattern and compares it with the host: both end in ``__eq__`` here.
    """

    def __new__(cls) -> LocalNetworkHosts:
        return super().__new__(cls, "<local network>")

    def lower(self) -> LocalNetworkHosts:
        return self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LocalNetworkHosts):
            return True
        return isinstance(other, str) and is_local_host(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return str.__hash__(self)

    def __reduce__(self) -> Any:
        return (LocalNetworkHosts, ())


PRIVATE_NETWORK = LocalNetworkHosts()
