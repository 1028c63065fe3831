"""Migration 0021: free text stored before the text policy is tidied so that it passes it."""

from __future__ import annotations

import datetime
import importlib
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from hypothesis import given
from hypothesis import strategies as st

from games.errors import ServiceError
from games.models import DeviceToken, Group, Payment, Player, Session
from games.services import texts
from games.services.sessions import start_session

migration = importlib.import_module("games.migrations.0021_tidy_free_text")

pytestmark = pytest.mark.django_db


def test_stored_notes_reasons_and_devices_are_tidied_and_clean_ones_left(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    cy, di = players["Cy"], players["Di"]
    day = datetime.date(2026, 11, 6)
    paid = {"group": group, "payer": cy, "payee": di, "amount": Decimal(1), "date": day}
    # As notes were written before the policy: straight to the tables.
    broken = Payment.objects.create(**paid, note="Cy paid\nDi \u202ecash")
    fine = Payment.objects.create(**paid, note="cash")
    night = start_session(group, [cy, di], ann_user)
    Session.objects.filter(pk=night.pk).update(notes="line one\r\nline\ttwo\u2066")
    token, _ = DeviceToken.issue(ann_user, "Ann's\u202e phone")

    migration.tidy_stored_text(apps, None)

    for row in (broken, fine, night, token):
        row.refresh_from_db()
    assert broken.note == "Cy paid Di cash"
    assert fine.note == "cash"
    assert night.notes == "line one\nline two"
    assert token.device == "Ann's phone"


@given(st.text(max_size=40), st.booleans())
def test_tidied_text_passes_the_policy_and_clean_text_is_unchanged(
    text: str, multiline: bool
) -> None:
    tidied = texts.tidy(text, multiline=multiline)

    assert texts.clean(tidied, "note", multiline=multiline) == tidied
    try:
        cleaned = texts.clean(text, "note", multiline=multiline)
    except ServiceError:
        return
    assert tidied == cleaned
