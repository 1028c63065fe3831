"""Links a phone can open: seat links and invite links, with their QR codes, on the pages
and in the API, carry SITE_URL, else the LAN address instead of a loopback one, and the
pages say so to a host browsing at 127.0.0.1 (games.lib.public_url)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.lib.public_url import is_loopback
from games.live import seat_links
from games.models import Group, Session
from games.services.invites import token_for
from games.web.invites import qr_svg
from scorekeeper.hosts import PRIVATE_NETWORK
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

SITE = "https://cards.example.org"
LAN = "http://192.168.1.23:8000"
LAN_NOTE = "these links use its address on the local network instead: " + LAN
WARNING = "Phones cannot open these links"


@pytest.fixture(autouse=True)
def nothing_known(settings: Any) -> Any:
    """No SITE_URL and no LAN_URL unless a test sets one; the development hosts answered
    whatever the environment of the test run says."""
    settings.SITE_URL = None
    settings.LAN_URL = None
    settings.ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1", "[::1]", PRIVATE_NETWORK]
    return settings


class Seen:
    """What Alice (who owns the group and plays Ann) is handed at ``host``: the live page's
    and the group page's HTML, the seat-links API's and the invites API's links."""

    def __init__(self, alice: User, group: Group, session: Session, host: str) -> None:
        services.create_invite(group, by=alice)
        page = Client()
        page.force_login(alice)
        api = client_for(alice)
        self.live = page.get(f"/sessions/{session.pk}/live/", HTTP_HOST=host).content.decode()
        self.group = page.get(f"/groups/{group.pk}/", HTTP_HOST=host).content.decode()
        answer = api.get(f"/api/v1/sessions/{session.pk}/seat-links/", HTTP_HOST=host)
        self.seat_api = [link["url"] for link in answer.json()]
        answer = api.get(f"/api/v1/groups/{group.pk}/invites/", HTTP_HOST=host)
        self.invite_api = [invite["link"] for invite in answer.json()]


def seat_paths(session: Session) -> list[str]:
    return [f"/seat/{seat_links.token_for(link)}/" for link in seat_links.make_links(session)]


def invite_paths(group: Group) -> list[str]:
    return [f"/invites/{token_for(invite)}/" for invite in group.invites.all()]


def shown_links(html: str) -> list[str]:
    return re.findall(r'readonly value="([^"]+)" class="invite-url"', html)


def assert_handed_out(seen: Seen, origin: str, session: Session, group: Group) -> None:
    """Every link, and every QR code drawn from one, carries ``origin``."""
    seats = [origin + path for path in seat_paths(session)]
    invites = [origin + path for path in invite_paths(group)]
    assert len(seats) == 4 and len(invites) == 1
    assert shown_links(seen.live) == seats
    assert shown_links(seen.group) == invites
    assert seen.seat_api == seats
    assert seen.invite_api == invites
    for url in seats:
        assert str(qr_svg(url)) in seen.live
    assert str(qr_svg(invites[0])) in seen.group


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "192.168.1.5:8000", "testserver"])
def test_site_url_is_every_links_origin_and_no_note_is_shown(
    nothing_known: Any, alice: User, group: Group, session: Session, host: str
) -> None:
    nothing_known.SITE_URL = SITE
    nothing_known.LAN_URL = LAN

    seen = Seen(alice, group, session, host)

    assert_handed_out(seen, SITE, session, group)
    assert 'id="links-note"' not in seen.live and 'id="links-note"' not in seen.group


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_at_a_loopback_address_the_links_carry_the_lan_address_and_say_so(
    nothing_known: Any, alice: User, group: Group, session: Session, host: str
) -> None:
    nothing_known.LAN_URL = LAN

    seen = Seen(alice, group, session, host)

    assert_handed_out(seen, LAN, session, group)
    for html in (seen.live, seen.group):
        assert f"You opened this page at {host}, which only this computer can reach" in html
        assert LAN_NOTE in html and WARNING not in html


def test_at_a_loopback_address_with_no_lan_address_the_page_warns(
    alice: User, group: Group, session: Session
) -> None:
    seen = Seen(alice, group, session, "127.0.0.1:8000")

    assert_handed_out(seen, "http://127.0.0.1:8000", session, group)
    for html in (seen.live, seen.group):
        note = re.search(r'<p class="links-warning" id="links-note">(.*?)</p>', html, re.S)
        assert note is not None
        text = " ".join(note.group(1).split())
        assert text.startswith(f"{WARNING}: you opened this page at 127.0.0.1:8000,")
        assert "or set SITE_URL to an address phones can reach" in text


def test_a_lan_address_the_site_would_refuse_is_not_handed_out(
    nothing_known: Any, alice: User, group: Group, session: Session
) -> None:
    nothing_known.LAN_URL = LAN
    nothing_known.ALLOWED_HOSTS = ["testserver", "127.0.0.1"]

    seen = Seen(alice, group, session, "127.0.0.1:8000")

    assert_handed_out(seen, "http://127.0.0.1:8000", session, group)
    assert WARNING in seen.live and LAN not in seen.live


def test_at_a_network_address_the_links_keep_it_and_nothing_is_said(
    nothing_known: Any, alice: User, group: Group, session: Session
) -> None:
    nothing_known.LAN_URL = LAN

    seen = Seen(alice, group, session, "192.168.1.5:8000")

    assert_handed_out(seen, "http://192.168.1.5:8000", session, group)
    for html in (seen.live, seen.group):
        assert 'id="links-note"' not in html and LAN not in html


def test_no_invite_listed_no_note(as_alice: Client, group: Group) -> None:
    html = as_alice.get(f"/groups/{group.pk}/", HTTP_HOST="127.0.0.1:8000").content.decode()

    assert 'id="invite-new"' in html and 'id="links-note"' not in html


def test_the_notes_read_in_vietnamese(
    nothing_known: Any, alice: User, group: Group, session: Session
) -> None:
    client = Client(headers={"accept-language": "vi"})
    client.force_login(alice)
    live = f"/sessions/{session.pk}/live/"

    warning = client.get(live, HTTP_HOST="localhost:8000").content.decode()
    nothing_known.LAN_URL = LAN
    note = client.get(live, HTTP_HOST="localhost:8000").content.decode()

    assert "Điện thoại không mở được các liên kết này" in warning
    assert "Bạn đang mở trang này tại localhost:8000" in note and LAN in note
    assert WARNING not in warning and "You opened this page" not in note


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("localhost", True),
        ("LOCALHOST.", True),
        ("app.localhost", True),
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("[::1]", True),
        ("::1", True),
        ("192.168.1.5", False),
        ("10.0.0.2", False),
        ("[fe80::1]", False),
        ("annas-macbook.local", False),
        ("cards.example.org", False),
        ("localhost.example.org", False),
    ],
)
def test_loopback_names(name: str, expected: bool) -> None:
    assert is_loopback(name) is expected
