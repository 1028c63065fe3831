"""Every writer of a free-text field refuses what the one text policy refuses, with the same
words, and stores the same text otherwise: the API, the pages' forms, the admin and the
import. A payment's note is one line; a player's name follows the names' rules.

The policy is restated here on its own (``stored_text_is_clean``), not read from the code
under test: what may be stored is NFC, trimmed, and holds no control, format, separator,
surrogate, private-use or unassigned character, but for a zero-width joiner between emoji.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any, Literal

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.errors import ImportRefused
from games.models import Group, Payment, Player
from games.services import import_values, names
from games.services.transfer_payments import restore_payments
from tests.api.conftest import API, client_for

REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
SKIN_AND_SELECTOR = {"\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))}


def stored_text_is_clean(text: str, *, form: Literal["NFC", "NFKC"] = "NFC") -> bool:
    """Whether ``text`` is what the policy lets a one-line field store."""
    if text != text.strip() or not unicodedata.is_normalized(form, text):
        return False
    for k, char in enumerate(text):
        if unicodedata.category(char) not in REFUSED:
            continue
        before = text[:k].rstrip("".join(SKIN_AND_SELECTOR))
        joins_emoji = (
            char == "\u200d"
            and before
            and k + 1 < len(text)
            and unicodedata.category(before[-1]) == unicodedata.category(text[k + 1]) == "So"
        )
        if not joins_emoji:
            return False
    return True


# Typed text: anything a form can carry (no surrogate), with the characters the policy is
# about much more likely.
TRICKY = "\n\r\t \u00a0\u202e\u202a\u2066\u2069\u200b\u200c\u200d\u00ad\ufeff\u2028\x00"
EMOJI = "\U0001f468\U0001f469\U0001f467\U0001f3fd\ufe0f\u2642\U0001f355"
typed = st.text(
    alphabet=st.one_of(
        st.characters(exclude_categories=["Cs"]),
        st.sampled_from(TRICKY + EMOJI + "Ane\u0301\uff21"),
    ),
    max_size=24,
)

Outcome = tuple[bool, str]  # (stored?, the stored text or the refusal after its field)


def after_field(message: str) -> str:
    return message.partition(": ")[2]


@pytest.fixture
def api(ann_user: User) -> APIClient:
    return client_for(ann_user)


@pytest.fixture
def web(ann_user: User) -> Client:
    client = Client()
    client.force_login(ann_user)
    return client


# --- a payment's note ---------------------------------------------------------------------


def note_by_api(api: APIClient, group: Group, players: dict[str, Player], note: str) -> Outcome:
    answer = api.post(
        f"{API}/groups/{group.pk}/payments/",
        {"payer": players["Cy"].pk, "payee": players["Di"].pk, "amount": "1", "note": note},
        format="json",
    )
    if answer.status_code == 201:
        return True, Payment.objects.get(pk=answer.json()["id"]).note
    assert answer.status_code == 400, answer.content
    assert answer.json()["field"] == "note"
    return False, after_field(answer.json()["error"])


def note_by_web(web: Client, group: Group, players: dict[str, Player], note: str) -> Outcome:
    before = set(Payment.objects.values_list("pk", flat=True))
    answer = web.post(
        reverse("web:payment-new", args=[group.pk]),
        {"payer": players["Cy"].pk, "payee": players["Di"].pk, "amount": "1", "note": note},
    )
    assert answer.status_code == 302
    made = Payment.objects.exclude(pk__in=before)
    if made.exists():
        return True, made.get().note
    shown = [str(m) for m in get_messages(answer.wsgi_request)]  # earlier ones too: the last
    return False, after_field(shown[-1])


def note_by_import(group: Group, players: dict[str, Player], note: str) -> Outcome:
    entry = {"payer": "Cy", "payee": "Di", "amount": "1", "date": "2026-11-06"}
    entry.update(note=note, status="pending")
    try:
        with transaction.atomic():
            restore_payments({"payments": [entry]}, group, players, [], lambda name: None)
    except ImportRefused as refused:
        assert refused.field == "payments[0].note"
        return False, after_field(refused.message)
    return True, Payment.objects.latest("pk").note


@pytest.mark.parametrize(
    ("note", "cause"),
    [
        ("Cy paid\nDi", "a control character (U+000A line break) at position 8"),
        ("Cy paid\r\nDi", "a control character (U+000D line break) at position 8"),
        (
            "\u202eiD diap yC",
            "an invisible character (U+202E RIGHT-TO-LEFT OVERRIDE) at position 1",
        ),
        ("Cy\tpaid", "a control character (U+0009) at position 3"),
    ],
    ids=["line-break", "crlf", "rtl-override", "tab"],
)
def test_a_note_that_breaks_or_hides_is_refused_by_every_writer(
    api: APIClient,
    web: Client,
    group: Group,
    players: dict[str, Player],
    note: str,
    cause: str,
) -> None:
    expected = (False, f"{cause} is not allowed here")

    assert note_by_api(api, group, players, note) == expected
    assert note_by_web(web, group, players, note) == expected
    assert not Payment.objects.exists()


@pytest.mark.parametrize(
    ("note", "stored"),
    [
        ("Cy paid\nDi", "Cy paid Di"),
        ("Cy paid\r\nDi", "Cy paid Di"),
        ("\u202eiD diap yC", "iD diap yC"),
        ("Cy\tpaid\u200b", "Cy paid"),
    ],
    ids=["line-break", "crlf", "rtl-override", "tab-and-zero-width-space"],
)
def test_an_older_export_imports_its_note_tidied(
    group: Group, players: dict[str, Player], note: str, stored: str
) -> None:
    """An export written before the policy imports whole: its note is tidied as the stored
    notes were (a gap for a break, nothing for an invisible character), never refused."""
    assert note_by_import(group, players, note) == (True, stored)


def test_the_admin_writes_no_note(
    group: Group, players: dict[str, Player], ann_user: User, web: Client
) -> None:
    """The admin shows payments read-only: no note gets in through it either."""
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", password="x"))
    paid = note_by_api(client_for(ann_user), group, players, "cash")
    payment = Payment.objects.get()
    fields: dict[str, Any] = {"group": group.pk, "payer": players["Cy"].pk}
    fields.update(payee=players["Di"].pk, amount="1", date="2026-11-06", status="pending")

    changed = admin.post(
        f"/admin/games/payment/{payment.pk}/change/", {**fields, "note": "Cy\n\u202epaid"}
    )
    added = admin.post("/admin/games/payment/add/", {**fields, "note": "Cy\n\u202epaid"})

    assert paid == (True, "cash")
    assert (changed.status_code, added.status_code) == (403, 403)
    assert list(Payment.objects.values_list("note", flat=True)) == ["cash"]


def test_a_note_is_one_line_of_composed_text_trimmed(
    api: APIClient, group: Group, players: dict[str, Player]
) -> None:
    assert note_by_api(api, group, players, "  Cafe\u0301 \n") == (True, "Caf\u00e9")
    # A zero-width joiner that makes one emoji of two is kept; between letters it hides.
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert note_by_api(api, group, players, f"for {family}") == (True, f"for {family}")
    assert note_by_api(api, group, players, "C\u200dy")[0] is False


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(note=typed)
def test_every_writer_of_a_note_stores_clean_text_or_refuses_alike(
    api: APIClient, web: Client, group: Group, players: dict[str, Player], note: str
) -> None:
    with transaction.atomic():
        outcomes = [
            note_by_api(api, group, players, note),
            note_by_web(web, group, players, note),
            note_by_import(group, players, note),
        ]
        transaction.set_rollback(True)

    assert outcomes[0] == outcomes[1]
    stored, text = outcomes[0]
    if stored:
        assert stored_text_is_clean(text) and len(text) <= 200
    # The import tidies what the others refuse, and stores what they store.
    imported, text = outcomes[2]
    assert imported or len(note) > 200
    assert stored_text_is_clean(text) if imported else text.startswith("at most 200")
    if stored:
        assert outcomes[2] == outcomes[0]


# --- a player's name ----------------------------------------------------------------------


def name_by_api(api: APIClient, player: Player, name: str) -> Outcome:
    answer = api.patch(
        f"{API}/groups/{player.group_id}/players/{player.pk}/", {"name": name}, format="json"
    )
    if answer.status_code == 200:
        return True, answer.json()["name"]
    assert answer.status_code == 400, answer.content
    return False, after_field(answer.json()["error"])


def name_by_web(web: Client, player: Player, name: str) -> Outcome:
    answer = web.post(
        reverse("web:group-player", args=[player.group_id, player.pk]),
        {"action": "rename", "name": name},
    )
    if answer.status_code == 302:
        return True, Player.objects.get(pk=player.pk).name
    assert answer.status_code == 400
    return False, after_field(answer.context["manage_error"])


def name_by_admin(player: Player, name: str) -> Outcome:
    from games.admin import PlayerForm  # (here: the form came with this test)

    form = PlayerForm(
        instance=Player.objects.get(pk=player.pk),
        data={"name": name, "group": player.group_id, "user": "", "retired_at": ""},
    )
    if form.is_valid():
        return True, form.save().name
    assert list(form.errors) == ["name"]
    return False, after_field(str(form.errors["name"][0]))


def name_by_import(name: str) -> bool:
    """Whether the import takes ``name`` as written (it takes only names as stored)."""
    try:
        import_values.name(name, "players[2].name", 50)
    except ImportRefused:
        return False
    return True


@pytest.mark.parametrize("name", ["C\u202ey", "C\ny", "\u2066Cy", "x" * 51, "", "ann"])
def test_a_bad_name_is_refused_by_every_writer_alike(
    api: APIClient, web: Client, players: dict[str, Player], name: str
) -> None:
    cy = players["Cy"]

    by_api = name_by_api(api, cy, name)

    assert by_api[0] is False
    assert name_by_web(web, cy, name) == by_api
    assert name_by_admin(cy, name) == by_api
    assert not name_by_import(name) or name == "ann"  # (the import checks clashes later)
    assert Player.objects.get(pk=cy.pk).name == "Cy"


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(name=typed)
def test_every_writer_of_a_name_stores_clean_text_or_refuses_alike(
    api: APIClient, web: Client, players: dict[str, Player], name: str
) -> None:
    cy = players["Cy"]
    outcomes: list[Outcome] = []
    writers: list[Callable[[], Any]] = [
        lambda: name_by_api(api, cy, name),
        lambda: name_by_web(web, cy, name),
        lambda: name_by_admin(cy, name),
    ]
    for write in writers:
        with transaction.atomic():
            outcomes.append(write())
            transaction.set_rollback(True)

    assert outcomes[0] == outcomes[1] == outcomes[2]
    stored, text = outcomes[0]
    if stored:
        assert stored_text_is_clean(text, form="NFKC") and 0 < len(text) <= 50
    typed_as_name = " ".join(unicodedata.normalize("NFKC", name).split())
    if (
        names.same_as(typed_as_name, ["Ann", "Bob", "Di"]) is None
    ):  # the import checks clashes later
        assert name_by_import(name) == (stored and text == name)
