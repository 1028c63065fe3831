"""scripts/lan_url.py: the address `make run` hands the server as LAN_URL, a private IPv4
address the development server answers, or nothing at all."""

from __future__ import annotations

import ipaddress
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.hosts import is_local_host
from scripts import lan_url

ROOT = Path(__file__).resolve().parents[1]


class FakeSocket:
    """A UDP socket that connects to nothing and says it would send from ``address``;
    anything else (a packet sent) fails the test with an AttributeError."""

    def __init__(self, address: str | OSError) -> None:
        self.address = address
        self.connected: tuple[str, int] | None = None

    def __enter__(self) -> FakeSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def connect(self, target: tuple[str, int]) -> None:
        if isinstance(self.address, OSError):
            raise self.address
        self.connected = target

    def getsockname(self) -> tuple[str, int]:
        assert isinstance(self.address, str)
        return (self.address, 54321)


def found_with(monkeypatch: pytest.MonkeyPatch, address: str | OSError) -> str | None:
    made: list[FakeSocket] = []

    def socket(family: int, kind: int) -> FakeSocket:
        assert (family, kind) == (lan_url.socket.AF_INET, lan_url.socket.SOCK_DGRAM)
        made.append(FakeSocket(address))
        return made[-1]

    monkeypatch.setattr(lan_url.socket, "socket", socket)
    found = lan_url.lan_address()
    assert len(made) == 1
    if made[0].connected is not None:
        assert ipaddress.ip_address(made[0].connected[0]).is_private
    return found


@pytest.mark.parametrize("address", ["192.168.1.20", "10.0.0.7", "172.16.0.9", "172.31.4.2"])
def test_a_private_address_is_found(monkeypatch: pytest.MonkeyPatch, address: str) -> None:
    found = found_with(monkeypatch, address)

    assert found == address
    assert is_local_host(address)  # the development server answers it


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",  # no network: the system picks loopback
        "0.0.0.0",
        "169.254.3.4",  # link-local: no DHCP answered
        "100.64.0.1",  # carrier-grade NAT, a VPN's
        "192.0.2.2",  # documentation range
        "8.8.8.8",
        "not an address",
    ],
)
def test_any_other_address_is_none(monkeypatch: pytest.MonkeyPatch, address: str) -> None:
    assert found_with(monkeypatch, address) is None


def test_no_network_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_with(monkeypatch, OSError(101, "Network is unreachable")) is None


def test_this_computer_gives_a_private_ipv4_address_or_none() -> None:
    found = lan_url.lan_address()

    assert found is None or any(
        ipaddress.ip_address(found) in network for network in lan_url.LAN_NETWORKS
    )


def test_the_url_carries_the_port_or_is_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan_url, "lan_address", lambda: "192.168.1.20")
    assert lan_url.lan_url(8000) == "http://192.168.1.20:8000"
    monkeypatch.setattr(lan_url, "lan_address", lambda: None)
    assert lan_url.lan_url(8000) == ""


def test_the_script_prints_the_url_alone(capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan_url, "lan_address", lambda: "10.1.2.3")

    assert lan_url.main(["8000"]) == 0

    out, err = capsys.readouterr()
    assert out == "http://10.1.2.3:8000\n"
    assert "http://10.1.2.3:8000/" in err


def test_the_script_runs_alone_and_refuses_a_missing_port() -> None:
    script = str(ROOT / "scripts" / "lan_url.py")
    ran = subprocess.run([sys.executable, script, "8000"], capture_output=True, text=True)
    refused = subprocess.run([sys.executable, script], capture_output=True, text=True)

    assert ran.returncode == 0, ran.stderr
    assert re.fullmatch(r"(http://[0-9.]+:8000)?\n", ran.stdout)
    assert refused.returncode == 2 and "usage" in refused.stderr


def make_run(*args: str) -> subprocess.CompletedProcess[str]:
    """`make run` with ``args``, printed rather than run (``-n``), the venv taken as made."""
    return subprocess.run(
        ["make", "-n", "-o", ".venv/.requirements-installed", "run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_make_run_serves_the_port_and_host_asked_for() -> None:
    default = make_run().stdout
    assert "runserver 0.0.0.0:8000" in default
    assert "scripts/lan_url.py 8000" in default

    chosen = make_run("PORT=8123", "HOST=127.0.0.1").stdout
    assert "runserver 127.0.0.1:8123" in chosen
    assert "scripts/lan_url.py 8123" in chosen  # the links phones get carry that port


def test_make_run_refuses_a_port_that_is_not_one() -> None:
    refused = subprocess.run(
        ["make", "-o", ".venv/.requirements-installed", "run", "PORT=80a"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode != 0
    assert "PORT=80a is not a port number" in refused.stderr
