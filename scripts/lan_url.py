"""This computer's address on the local network, as `make run` hands it to the server.

`make run` passes ``LAN_URL=$(python scripts/lan_url.py 8000)``: the seat and invite links
of a page opened at ``http://127.0.0.1:8000/`` then carry this address, which a phone on
the same Wi-Fi can open. Without a network it prints nothing, and the server runs as before.
Standard library only: it runs before Django starts.
"""

from __future__ import annotations

import ipaddress
import socket
import sys

# Connecting a UDP socket sends nothing: it only asks the system which of its addresses it
# would send from towards this private address, which is the local network's interface.
PROBE = ("10.254.254.254", 9)
# The private ranges a phone on the same Wi-Fi reaches, all answered by the development
# server (scorekeeper/hosts.py).
LAN_NETWORKS = tuple(
    ipaddress.ip_network(net) for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
)


def lan_address() -> str | None:
    """This computer's private IPv4 address on its local network, or None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            found = probe.getsockname()[0]
    except OSError:
        return None
    try:
        address = ipaddress.ip_address(found)
    except ValueError:
        return None
    return found if any(address in network for network in LAN_NETWORKS) else None


def lan_url(port: int) -> str:
    """``http://ADDRESS:PORT`` for this computer on its local network, or "" without one."""
    address = lan_address()
    return f"http://{address}:{port}" if address else ""


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: lan_url.py PORT", file=sys.stderr)
        return 2
    url = lan_url(int(argv[0]))
    print(url)
    if url:
        print(f"Phones on this network open {url}/", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
