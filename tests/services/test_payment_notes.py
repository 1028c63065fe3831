"""The note settling a night writes is stored as a code and read in each reader's language,
with the night's date as the reader's locale writes it; a note typed by hand stays as typed.
Migration 0026 turns the notes stored as text before it into the code."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from games import reports, services
from games.models import Payment, PaymentRevision, Player, Session
from games.reports.opponents_csv import opponent_ledger_csv_stream
from games.sheets import compose
from games.words.notes import payment_note
from tests.pdf.conftest import pdf_text
from tests.services.test_payments import play

FRIDAY = datetime.date(2026, 11, 6)
IN_EACH_LANGUAGE = {
    "en": "settles the night of Nov 6, 2026",
    "vi": "thanh toán đêm 6 thg 11, 2026",
    "zh-hans": "结清 2026年11月6日 那一晚",
    "zh-hant": "結清 2026年11月6日 那一晚",
}


@pytest.fixture
def settled(session: Session, bob_user: User) -> list[Payment]:
    Session.objects.filter(pk=session.pk).update(date=FRIDAY)
    session.refresh_from_db()
    for k in range(3):
        play(session, bob_user, k)
    return services.settle_session(session, bob_user)


def notes_in(language: str, session: Session) -> set[str]:
    with translation.override(language):
        return {p["note"] for p in reports.payment_list(Payment.objects.filter(session=session))}


def test_a_settled_nights_note_reads_in_each_readers_language(
    settled: list[Payment], session: Session
) -> None:
    assert all(p.note == "" and p.note_code == "settles-night" for p in settled)
    for language, sentence in IN_EACH_LANGUAGE.items():
        assert notes_in(language, session) == {sentence}
    with translation.override("vi"):
        assert payment_note("", "settles-night", None) == "thanh toán một đêm"


def test_a_typed_note_stays_as_typed_and_takes_the_written_ones_place(
    settled: list[Payment], session: Session, ann_user: User, players: dict[str, Player]
) -> None:
    typed = services.record_payment(
        session.group,
        players["Cy"],
        players["Di"],
        "2",
        ann_user,
        note="cash, Friday",
        session=session,
    )
    with translation.override("vi"):
        assert reports.payment_data(typed)["note"] == "cash, Friday"
    # A correction without a note (the page's empty field) keeps the note written for
    # each reader; one typed replaces it. The history keeps the code.
    first = services.edit_payment(settled[0], {"amount": "1", "note": ""}, ann_user, "less")
    assert (first.note, first.note_code) == ("", "settles-night")
    first = services.edit_payment(first, {"note": "half now"}, ann_user, "said so")
    assert (first.note, first.note_code) == ("half now", "")
    assert list(first.revisions.values_list("note", "note_code")) == [
        ("", "settles-night"),
        ("", "settles-night"),
    ]
    assert notes_in("zh-hans", session) == {"结清 2026年11月6日 那一晚", "half now", "cash, Friday"}


def test_a_streamed_csv_keeps_the_language_it_was_asked_in(
    settled: list[Payment], session: Session, ann_user: User, players: dict[str, Player]
) -> None:
    for payment in settled:
        services.confirm_payment(payment, ann_user)
    payer = settled[0].payer
    with translation.override("vi"):
        stream = opponent_ledger_csv_stream(session.group, payer)
    text = "".join(stream)  # read after the request's language is gone, as a response is
    assert IN_EACH_LANGUAGE["vi"] in text
    assert "settles the night" not in text


def migrate(*targets: tuple[str, str]) -> None:
    MigrationExecutor(connection).migrate(list(targets))


@pytest.mark.django_db(transaction=True)
def test_migration_0026_turns_the_stored_sentences_into_the_code(
    session: Session, ann_user: User, players: dict[str, Player]
) -> None:
    Session.objects.filter(pk=session.pk).update(date=FRIDAY)
    group = session.group
    stored = {
        "settles the night of 2026-11-06": ("", "settles-night"),
        "thanh toán đêm 2026-11-06": ("", "settles-night"),
        "结清 2026-11-06 那一晚": ("", "settles-night"),
        "結清 2026-11-06 那一晚": ("", "settles-night"),
        # Typed, or of another night: left as they are.
        "settles the night of 2026-11-13": ("settles the night of 2026-11-13", ""),
        "paid in cash": ("paid in cash", ""),
    }
    made = {}
    for note in stored:
        payment = services.record_payment(
            group, players["Cy"], players["Di"], "1", ann_user, note=note, session=session
        )
        made[note] = payment.pk
    vietnamese = Payment.objects.get(pk=made["thanh toán đêm 2026-11-06"])
    services.edit_payment(vietnamese, {"amount": "2"}, ann_user, "more")
    loose = services.record_payment(
        group, players["Cy"], players["Di"], "1", ann_user, note="settles the night of 2026-11-06"
    )
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    migrate(("games", "0026_live_message_code"))
    try:
        migrate(("games", "0027_payment_note_code"))
        after = dict(Payment.objects.values_list("pk", "note"))
        codes = dict(Payment.objects.values_list("pk", "note_code"))
        assert {note: (after[pk], codes[pk]) for note, pk in made.items()} == stored
        # Without a night to read the date from, the sentence stays the text it is.
        assert (after[loose.pk], codes[loose.pk]) == ("settles the night of 2026-11-06", "")
        revision = PaymentRevision.objects.get(payment_id=vietnamese.pk)
        assert (revision.note, revision.note_code) == ("", "settles-night")
        # Back again: the English sentence is written into the coded rows.
        migrate(("games", "0026_live_message_code"))
        back = dict(Payment.objects.values_list("pk", "note"))
        assert back[made["结清 2026-11-06 那一晚"]] == "settles the night of 2026-11-06"
        assert back[made["paid in cash"]] == "paid in cash"
    finally:
        migrate(*latest)


def test_the_settlement_sheet_writes_it_in_the_sheets_language(
    settled: list[Payment], session: Session, settings: Any, tmp_path: Any
) -> None:
    settings.MEDIA_ROOT = tmp_path
    with translation.override("vi"):
        text = " ".join(pdf_text(compose.render("sheet", session)).split())
    assert IN_EACH_LANGUAGE["vi"] in text
    assert "2026-11-06" not in text
