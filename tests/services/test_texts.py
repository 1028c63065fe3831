"""The one text policy of free-text fields (``games.services.texts``): composed, trimmed,
no control or invisible character; a line break only where a field is multi-line; a
zero-width joiner only between emoji. The names' rules refuse the same characters."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import services
from games.models import Session
from games.services import names, texts
from tests.services.test_text_writers import stored_text_is_clean, typed

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
SHRUG = "\U0001f937\U0001f3fd\u200d\u2642\ufe0f"  # a shrug, a skin tone, a man's sign


@pytest.mark.parametrize(
    ("typed_text", "multiline", "stored"),
    [
        ("  paid in cash ", False, "paid in cash"),
        ("Cafe\u0301", False, "Caf\u00e9"),  # composed (NFC)
        ("\uff21nn", False, "\uff21nn"),  # full-width kept: only names take NFKC
        ("paid\n", False, "paid"),  # a line break at the end is trimmed, not refused
        (f"thanks {FAMILY}", False, f"thanks {FAMILY}"),
        (SHRUG, False, SHRUG),
        ("first\r\nsecond\rthird", True, "first\nsecond\nthird"),
        ("  \n a night \n\n", True, "a night"),
    ],
)
def test_free_text_is_stored_normalised(typed_text: str, multiline: bool, stored: str) -> None:
    assert texts.clean(typed_text, "note", multiline=multiline) == stored


@pytest.mark.parametrize(
    ("typed_text", "multiline", "words"),
    [
        ("Cy\nDi", False, "a control character (U+000A line break) at position 3"),
        ("Cy\u2028Di", True, "an invisible character (U+2028 LINE SEPARATOR) at position 3"),
        ("Cy\tDi", True, "a control character (U+0009) at position 3"),
        ("\u202epaid", False, "U+202E RIGHT-TO-LEFT OVERRIDE) at position 1"),
        ("pa\u2067id", True, "U+2067 RIGHT-TO-LEFT ISOLATE"),
        ("pa\u200did", False, "U+200D ZERO WIDTH JOINER) at position 3"),  # between letters
        (f"{FAMILY}\u200d", False, "U+200D"),  # a joiner left at the end of an emoji
        ("\u200dx", False, "U+200D"),
        ("pa\u00adid", False, "U+00AD SOFT HYPHEN"),
        ("x\ue000", False, "an invisible character (U+E000) at position 2"),  # private use
        ("x\ud800", False, "an invisible character (U+D800) at position 2"),  # half a pair
        ("x" * 201, False, "at most 200 characters, got 201"),
    ],
)
def test_free_text_that_hides_or_breaks_is_refused(
    typed_text: str, multiline: bool, words: str
) -> None:
    with pytest.raises(services.ServiceError) as refused:
        texts.clean(typed_text, "note", max_length=200, multiline=multiline)

    assert refused.value.field == "note"
    assert refused.value.message.startswith("note: ")
    assert words in refused.value.message


def test_free_text_must_be_text() -> None:
    with pytest.raises(services.ServiceError, match="reason: expected text, got NoneType"):
        texts.clean(None, "reason")


@given(typed)
def test_stored_free_text_is_clean_and_stable(text: str) -> None:
    try:
        stored = texts.clean(text, "note", max_length=30)
    except services.ServiceError:
        return
    assert stored_text_is_clean(stored) and len(stored) <= 30
    assert texts.clean(stored, "note", max_length=30) == stored


@given(st.lists(typed, max_size=3))
def test_multiline_text_keeps_only_line_breaks(lines: list[str]) -> None:
    typed_text = "\r\n".join(lines)
    try:
        stored = texts.clean(typed_text, "notes", multiline=True)
    except services.ServiceError:
        return
    assert "\r" not in stored
    assert all(stored_text_is_clean(line.strip()) for line in stored.split("\n"))
    assert texts.clean(stored, "notes", multiline=True) == stored


@given(typed)
def test_a_name_and_a_note_refuse_the_same_characters(text: str) -> None:
    """Names (NFKC, spaces made one) refuse a character exactly when a note refuses it."""

    def refused(check: object) -> bool:
        try:
            check(text)  # type: ignore[operator]
        except services.ServiceError as error:
            return "at position" in error.message
        return False

    assert refused(lambda t: names.clean(t, max_length=99, required=False)) == refused(
        lambda t: texts.clean(t, "note")
    )


def test_a_nights_notes_keep_their_lines(session: Session) -> None:
    services.update_session(session, session.created_by, notes="Ann hosts\r\nBob brings cards")  # type: ignore[arg-type]

    session.refresh_from_db()
    assert session.notes == "Ann hosts\nBob brings cards"
    with pytest.raises(services.ServiceError, match=r"U\+202E"):
        services.update_session(session, session.created_by, notes="Ann\u202e hosts")  # type: ignore[arg-type]
