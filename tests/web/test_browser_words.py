"""A night read in another language (Mau Binh in Vietnamese, 十三水 in Chinese), in headless
Chromium: the scoreboard with its deals and review, a deal's page, the deal form and a
seat's page on a phone, and the PDFs read back with pypdf keep none of the engine's English
(hand names, foul reasons, the review's advice, the sheets' words).

``LANGUAGES`` holds the languages checked and ``ENGLISH_WORDS`` the words none of them may
show, so a further catalogue is checked by adding its code.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import services
from games.languages import LanguagePreference
from games.models import Document, Session
from games.sheets import documents
from tests.pdf.conftest import pdf_text
from tests.services.hands import deal
from tests.web.asgi_server import AsgiServer
from tests.web.browser import PHONE
from tests.web.conftest import PASSWORD
from tests.web.test_browser_live_table import seat_urls, start_deal

LANGUAGES = ("vi", "zh-hans", "zh-hant")
# Each language's night: Mau Binh at a Vietnamese table, 十三水 at a Chinese one.
PRESETS = {"vi": "mau-binh-south", "zh-hans": "classic-1-6", "zh-hant": "classic-1-6"}
# The engine's English and the sheets' words that no page of another language may show.
ENGLISH_WORDS = (
    "Pair of",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
    "High card",
    "kicker",
    "beats",
    "front",
    "middle",
    "back",
    "royalty",
    "Page",
    "owner",
    "pays",
)
# What each language's night must show, by page: the review's advice (Di held six pairs and
# did not declare them), the hands by name, the foul, a rule option by its title.
SHOWN = {
    "vi": {
        "scoreboard": ["báo lục phé bôn"],
        "deal page": ["Tứ quý 9", "Thùng phá sảnh lớn", "Phạt binh lủng"],
        "deal form": ["Binh lủng"],
        "seat page": ["Binh lủng"],
        "sheet PDF": ["Tứ quý 9"],
    },
    "zh-hans": {
        "scoreboard": ["报到六对半"],
        "deal page": ["铁支 9", "皇家同花顺", "一对 K，单张 Q", "相公罚分"],
        "deal form": ["相公：头道"],
        "seat page": ["相公：头道"],
        "sheet PDF": ["铁支 9"],
    },
    "zh-hant": {
        "scoreboard": ["報到六對半"],
        "deal page": ["鐵支 9", "皇家同花順", "一對 K，單張 Q", "相公罰分"],
        "deal form": ["相公：頭道"],
        "seat page": ["相公：頭道"],
        "sheet PDF": ["鐵支 9"],
    },
}
_ENGLISH = re.compile("|".join(rf"\b{re.escape(word)}" for word in ENGLISH_WORDS), re.I)

# Ann sets a royal flush behind four nines behind three sevens (royalties in every row);
# Bob's pair of kings in front outranks his king-high middle: a foul.
ROYAL = {"front": "7c 7d 7h", "middle": "9c 9d 9h 9s 2c", "back": "Ac Kc Qc Jc Tc"}
FOUL = {"front": "Kh Kd Qd", "middle": "Ks 8c 2d 3c 4s", "back": "Ah Ad As 5d 5c"}


def english_in(text: str) -> list[str]:
    return sorted({match.group(0) for match in _ENGLISH.finditer(text)})


@pytest.fixture
def mau_binh_night(transactional_db: None, request: pytest.FixtureRequest) -> Session:
    """Alice's club (its game as ``PRESETS`` says), read in the test's language: a deal
    with royalties and a foul, then one where Di holds six pairs without declaring them
    (the review says so)."""
    alice = User.objects.create_user("alice", password=PASSWORD)
    LanguagePreference.objects.create(user=alice, language=request.param)
    preset = PRESETS[request.param]
    group = services.create_group(alice, "Hội bạn", "VND", Decimal(1000), preset)
    players = [services.add_player(group, name, by=alice) for name in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, players, alice)
    services.record_deal(
        session,
        [{"name": "Ann", **ROYAL}, {"name": "Bob", **FOUL}]
        + [{"name": name, "sat_out": True} for name in ("Cy", "Di")],
        alice,
    )
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    return session


def _sign_in(page: Any, server: AsgiServer) -> None:
    page.goto(f"{server.url}/accounts/login/")
    page.locator("input[name=username]").fill("alice")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit]").last.tap()
    page.wait_for_url("**/groups/")


def _main_text(page: Any) -> str:
    return str(page.locator("main").inner_text())


@pytest.mark.parametrize("mau_binh_night", LANGUAGES, indirect=True)
def test_a_mau_binh_night_keeps_none_of_the_engines_english(
    chromium: Any, asgi_server: AsgiServer, mau_binh_night: Session, tmp_path: Path, settings: Any
) -> None:
    session = mau_binh_night
    language = LanguagePreference.objects.get().language
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale=language)
    page = context.new_page()
    page.set_default_timeout(15_000)
    _sign_in(page, asgi_server)
    seen: dict[str, str] = {"groups": _main_text(page)}
    assert page.locator("html").get_attribute("lang") == language

    # The scoreboard: each deal's hands, the last deal's pairs and its review.
    page.goto(f"{asgi_server.url}/sessions/{session.pk}/")
    expect(page.locator("#review li").first).to_be_visible()
    seen["scoreboard"] = str(page.locator("body").inner_text())
    # The first deal's page: the hands, the pairs and the what-if form, its options by
    # their titles, with what each does opened.
    page.goto(f"{asgi_server.url}/sessions/{session.pk}/deals/1/")
    page.locator("#what-if summary").tap()
    expect(page.locator(".option-help dd").first).to_be_visible()
    seen["deal page"] = _main_text(page)
    page.goto(f"{asgi_server.url}/groups/new/")
    seen["new group"] = _main_text(page)

    # The deal form names each row and the foul as they are typed.
    page.goto(f"{asgi_server.url}/sessions/{session.pk}/deal/")
    for row, cards in FOUL.items():
        page.fill(f"#p0-{row}", cards)
    expect(page.locator("#p0-back-fb .label")).not_to_be_empty()
    expect(page.locator("#p0-foul")).to_be_visible()
    seen["deal form"] = _main_text(page)

    # A seat's page on a phone of its own (no account), reading the same language.
    seat = context.browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale=language
    ).new_page()
    seat.set_default_timeout(15_000)
    seat.goto(seat_urls(asgi_server, session)[1])
    start_deal(seat)
    for row, cards in FOUL.items():
        seat.fill(f"#p0-{row}", cards)
    expect(seat.locator("#p0-back-fb .label")).not_to_be_empty()
    expect(seat.locator("#p0-foul")).to_be_visible()
    seen["seat page"] = str(seat.locator("body").inner_text())
    seat.context.close()
    context.close()
    asgi_server.close_connections()

    # The PDFs, rendered in the language of who asked for them.
    settings.MEDIA_ROOT = tmp_path
    alice = User.objects.get(username="alice")
    for kind in (Document.Kind.SHEET, Document.Kind.LEDGER):
        player = session.group.players.get(name="Ann") if kind == Document.Kind.LEDGER else None
        document, _ = documents.request_document(session, kind, alice, player=player)
        document.refresh_from_db()
        assert (document.language, document.status) == (language, Document.Status.READY)
        seen[f"{kind} PDF"] = pdf_text(document.file.read())

    # What was shown at all: the hands by name, the foul, the review's advice.
    for where, words in SHOWN[language].items():
        for word in words:
            assert word in seen[where], (where, word)
    found = {where: english_in(text) for where, text in seen.items()}
    assert found == {where: [] for where in seen}, found
