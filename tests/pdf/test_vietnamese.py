"""A Mau Binh night's settlement sheet in Vietnamese, asked for by a user who reads it.

The document row carries the language of whoever asked (their stored choice, else the
request's), and the task renders it in that language whatever the worker's own is.
"""

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.utils import translation

from games import services
from games.languages import LanguagePreference
from games.models import Document, Group, Player, Session
from games.sheets import compose, documents
from tests.api.conftest import API, client_for
from tests.pdf.conftest import pdf_text
from tests.services.hands import deal

Capture = Callable[..., Any]


def mau_binh_night(group: Group, players: dict[str, Player], ann: User, bob: User) -> Session:
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, seats, ann, rules_override="mau-binh-south")
    natural = deal(Ann="A", Bob="B", Cy="C", Di="D")
    natural[3]["natural"] = "six_pairs"  # hand D holds six pairs
    services.record_deal(session, natural, bob)
    return session


def test_the_sheet_reads_in_vietnamese_with_its_diacritics(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    session = mau_binh_night(group, players, ann_user, bob_user)

    with translation.override("vi"):
        text = pdf_text(compose.render("sheet", session))

    assert f"{group.name}: bảng thanh toán" in text
    for heading in ("Luật áp dụng", "Tổng cộng", "Ai trả cho ai", "Từng ván (chi)"):
        assert heading in text
    assert "Người chơi" in text and "Binh lủng" in text and "Mậu binh trắng" in text
    assert "Di: lục phé bôn" in text  # the natural by its table name
    assert "sập làng" in text and "binh lủng" in text  # the rules text's Mau Binh terms
    assert "Mậu Binh" in text
    assert "settlement sheet" not in text and "Who pays whom" not in text
    assert "Trang 1/" in text and "Page 1 of" not in text  # the footer


def test_a_document_is_rendered_in_the_language_of_who_asked(
    group: Group,
    players: dict[str, Player],
    ann_user: User,
    bob_user: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    session = mau_binh_night(group, players, ann_user, bob_user)
    LanguagePreference.objects.create(user=bob_user, language="vi")

    # Bob asks over the API with an English browser: his stored choice wins.
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(bob_user).post(
            f"{API}/sessions/{session.pk}/sheets/", {}, format="json", HTTP_ACCEPT_LANGUAGE="en"
        )
    assert response.status_code == 202
    bob_sheet = Document.objects.get(requested_by=bob_user)
    assert (bob_sheet.language, bob_sheet.status) == ("vi", Document.Status.READY)
    assert "Ai trả cho ai" in pdf_text(bob_sheet.file.read())

    # Ann has no choice stored: her request's language (English) is used, and Bob's
    # Vietnamese sheet is not handed to her as the same document.
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        ann_sheet, created = documents.request_document(session, Document.Kind.SHEET, ann_user)
    ann_sheet.refresh_from_db()
    assert created and ann_sheet.language == "en"
    text = pdf_text(ann_sheet.file.read())
    assert "Who pays whom" in text and "Ai trả cho ai" not in text
