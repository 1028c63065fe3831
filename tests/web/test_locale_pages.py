"""A Vietnamese table playing for dong: amounts without decimals and names in Vietnamese
alphabetical order, on the pages, in the PDF sheet, in the CSV and in the API; English
pages list names as before.

Thảo, Đức, Dũng and An meet on Alice's Saigon group, one unit worth 1,000 VND.
"""

from __future__ import annotations

import csv
import html
import io
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games import reports, services
from games.models import Group, Player, Session
from games.sheets import compose
from tests.api.conftest import API, client_for
from tests.pdf.conftest import pdf_text
from tests.services.hands import deal
from tests.web.conftest import signed_in

SEATED = ("Thảo", "Đức", "Dũng", "An")
VIETNAMESE_ORDER = ["An", "Dũng", "Đức", "Thảo"]  # d before đ, whatever the tones


@pytest.fixture
def saigon(alice: User, bob: User) -> Group:
    group = services.create_group(alice, "Hội Sài Gòn", "VND", Decimal(1000), "mau-binh-south")
    services.add_member(group, bob, "member", by=alice)
    return group


@pytest.fixture
def saigon_players(saigon: Group, alice: User) -> dict[str, Player]:
    return {name: services.add_player(saigon, name, by=alice) for name in SEATED}


@pytest.fixture
def saigon_night(saigon: Group, saigon_players: dict[str, Player], alice: User) -> Session:
    seats = [saigon_players[name] for name in SEATED]
    session = services.start_session(saigon, seats, alice)
    services.record_deal(session, deal(**dict(zip(SEATED, "ABCD", strict=True))), alice)
    services.record_deal(session, deal(**dict(zip(SEATED, "DCBA", strict=True))), alice)
    return session


def _player_names(page: str) -> list[str]:
    listed = re.search(r'<p id="player-names">(.*?)</p>', page, re.S)
    assert listed, page
    # Each name, without its linked user's "(alice)".
    names = re.sub(r'<span class="muted linked">.*?</span>|<[^>]+>', "", listed[1])
    return [html.unescape(name).strip() for name in names.split(", ")]


def _vnd_amounts(text: str) -> list[str]:
    return re.findall(r"([+-]?\d[\d.,]*) VND", text)


def test_the_group_page_lists_players_in_vietnamese_order(
    saigon: Group, saigon_night: Session, bob: User
) -> None:
    page = signed_in(bob).get(f"/groups/{saigon.pk}/", HTTP_ACCEPT_LANGUAGE="vi")
    assert page.status_code == 200
    assert _player_names(page.content.decode()) == VIETNAMESE_ORDER


def test_dong_are_whole_on_the_pages(
    saigon: Group, saigon_night: Session, bob: User, alice: User
) -> None:
    client = signed_in(bob)
    for language, grouping in (("vi", "."), ("en", ",")):
        for url in (f"/groups/{saigon.pk}/", f"/sessions/{saigon_night.pk}/summary/"):
            text = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            amounts = _vnd_amounts(text)
            assert amounts, (url, language)
            # No decimals: only the grouping mark appears, between groups of three digits.
            for amount in amounts:
                assert re.fullmatch(rf"[+-]?\d{{1,3}}(\{grouping}\d{{3}})*", amount), amount
    # A winner's money is the units times the unit (1,000 VND) and reads so.
    standings = reports.group_standings(saigon)["players"]
    top = standings[0]
    with translation.override("vi"):
        page = client.get(f"/groups/{saigon.pk}/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert f"{top['money']:,.0f}".replace(",", ".") in page


def test_the_sheet_writes_dong_without_decimals(saigon_night: Session) -> None:
    with translation.override("vi"):
        vietnamese = pdf_text(compose.render("sheet", saigon_night))
    with translation.override("en"):
        english = pdf_text(compose.render("sheet", saigon_night))
    flat = " ".join(vietnamese.split())
    assert "1.000 VND" in flat  # one unit is worth it
    assert not re.search(r"\d,\d\d\b", vietnamese)  # no "1.000,00"
    assert "1,000 VND" in " ".join(english.split())
    assert not re.search(r"\d\.\d\d\b", english)


def test_the_sheet_of_a_euro_night_keeps_two_decimals(session: Session) -> None:
    with translation.override("en"):
        text = " ".join(pdf_text(compose.render("sheet", session)).split())
    assert "One unit is worth 0.50 EUR." in text


def test_the_csv_writes_dong_whole_under_a_vietnamese_header(
    saigon: Group, saigon_night: Session, saigon_players: dict[str, Player]
) -> None:
    with translation.override("vi"):
        text = reports.opponent_ledger_csv(saigon, saigon_players["Thảo"], session=saigon_night)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["người chơi", "đối thủ", "buổi chơi", "ngày"]
    money = rows[0].index("tiền")
    assert len(rows) > 1
    for row in rows[1:]:
        assert re.fullmatch(r"-?\d+", row[money]), row
        assert Decimal(row[money]) % 1000 == 0
    # The opponents in Vietnamese order too.
    opponents = list(dict.fromkeys(row[1] for row in rows[1:]))
    assert opponents == [name for name in VIETNAMESE_ORDER if name != "Thảo"]


def test_the_api_lists_players_in_the_readers_order(
    saigon: Group, saigon_players: dict[str, Player], alice: User
) -> None:
    client = client_for(alice)
    url = f"{API}/groups/{saigon.pk}/players/"
    vietnamese = client.get(url, HTTP_ACCEPT_LANGUAGE="vi").json()["results"]
    assert [p["name"] for p in vietnamese] == VIETNAMESE_ORDER
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").json()["results"]
    assert [p["name"] for p in english] == ["An", "Đức", "Dũng", "Thảo"]  # đ is a d there


def test_english_pages_list_players_as_before(
    group: Group, players: dict[str, Player], bob: User
) -> None:
    page = signed_in(bob).get(f"/groups/{group.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert _player_names(page.content.decode()) == ["Ann", "Bob", "Cy", "Di"]


def test_a_payments_history_writes_dong_whole(
    saigon: Group, saigon_players: dict[str, Player], alice: User
) -> None:
    payment = services.record_payment(
        saigon, saigon_players["Đức"], saigon_players["An"], Decimal(1300000), alice
    )
    services.edit_payment(payment, {"amount": Decimal(1250000)}, alice, "counted again")
    url = f"/groups/{saigon.pk}/payments/{payment.pk}/edit/"
    page = signed_in(alice).get(url, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "Đức → An 1.300.000 VND" in html.unescape(page)
    assert "1300000.00" not in page
