"""No web form answers 500, whatever is posted to it.

Every URL of ``games.web.urls`` that takes a POST is listed in ``FORMS`` with a valid
form and the names of its fields; hypothesis then posts that form with some fields
replaced by long text, unicode, huge or non-finite numbers, NUL characters, empty values,
repeated fields or unknown fields. A URL that takes a POST but is missing from ``FORMS``
fails the suite, so a new form cannot go unfuzzed.
"""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.engine.options import OPTIONS
from games.models import Group, Player, Session
from games.services.invites import token_for
from games.web.urls import urlpatterns
from tests.web.conftest import PASSWORD
from tests.web.forms import deal_form

ENTRY_FIELDS = ("front", "middle", "back", "cards13", "discards", "cards", "cards_left")
SEAT_FIELDS = (*ENTRY_FIELDS, "surrender", "natural", "sat_out")
DEAL_FIELDS = (
    *(f"p{k}-{f}" for k in range(5) for f in SEAT_FIELDS),
    "idempotency_key",
    "reason",
    "dealer",
    "arrange",
)


class Night:
    """The Friday club at Ann's, with one deal recorded: what the forms' URLs point at."""

    def __init__(self, group: Group, players: dict[str, Player], session: Session, user: User):
        self.group, self.players, self.session, self.user = group, players, session, user
        # A payment of the night, for the forms that confirm, void or correct one.
        self.payment = services.record_payment(group, players["Cy"], players["Ann"], "2", user)
        # An invite of the group, for its page's form and its revoke button.
        self.invite = services.create_invite(group, by=user)

    def kwargs(self, pattern: URLPattern) -> dict[str, int | str]:
        names = set(pattern.pattern.converters)
        values: dict[str, int | str] = {
            "pk": self.session.pk if "sessions/" in str(pattern.pattern) else self.group.pk,
            "number": 1,
            "player_pk": self.players["Ann"].pk,
            "payment_pk": self.payment.pk,
            "invite_pk": self.invite.pk,
            # The invite page's token; the reset link's token (then not valid) too.
            "token": token_for(self.invite),
            "uidb64": urlsafe_base64_encode(force_bytes(self.user.pk)),
        }
        return {name: values[name] for name in names}


# url name -> (a valid form for the night, the fields worth fuzzing)
Form = tuple[Callable[[Night], dict[str, Any]], tuple[str, ...]]
FORMS: dict[str, Form] = {
    "login": (lambda n: {"username": "alice", "password": PASSWORD}, ("username", "password")),
    "signup": (
        lambda n: {"username": "carol", "password1": PASSWORD, "password2": PASSWORD},
        ("username", "password1", "password2", "next"),
    ),
    "password-change": (
        lambda n: {"old_password": PASSWORD, "new_password1": "x", "new_password2": "x"},
        ("old_password", "new_password1", "new_password2"),
    ),
    "password-reset": (lambda n: {"email": "alice@example.org"}, ("email",)),
    "password-reset-confirm": (
        lambda n: {"new_password1": PASSWORD, "new_password2": PASSWORD},
        ("new_password1", "new_password2"),
    ),
    "invite": (lambda n: {"player": n.players["Cy"].pk}, ("player", "new_player")),
    "invite-new": (lambda n: {}, ("next",)),
    "invite-revoke": (lambda n: {}, ("next",)),
    "logout": (lambda n: {}, ("next",)),
    "language": (lambda n: {"language": "vi", "next": "/groups/"}, ("language", "next")),
    "group": (lambda n: {"name": "Eve"}, ("name",)),
    "group-new": (
        lambda n: {
            "name": "Tuesday table",
            "currency": "VND",
            "unit_value": "10000",
            "preset": "mau-binh-south",
            "players": "Ann\nBob\nCy",
        },
        ("name", "currency", "unit_value", "preset", "players"),
    ),
    "rules": (
        lambda n: {"preset": "classic-1-6", "foul_penalty": "3"},
        ("preset", "show", *(option.name for option in OPTIONS)),
    ),
    "stakes": (
        lambda n: {"unit_value": "2", "currency": "EUR"},
        ("unit_value", "currency", "first", "second", "multiplier"),
    ),
    "group-player": (
        lambda n: {"action": "rename", "name": "Ann"},
        ("action", "name", "into"),
    ),
    "session-new": (
        lambda n: {
            "seat1": n.players["Ann"].pk,
            "seat2": n.players["Bob"].pk,
            "rules": "",
            "game": "chinese",
            "date": "2026-12-01",
            "place": "Bob's",
        },
        ("seat1", "seat2", "seat3", "seat4", "rules", "game", "date", "place"),
    ),
    "deal": (lambda n: deal_form(Ann="A", Bob="B", Cy="C", Di="D"), DEAL_FIELDS),
    "deal-preview": (lambda n: deal_form(Ann="A", Bob="B", Cy="C", Di="D"), DEAL_FIELDS),
    "deal-edit": (
        lambda n: {**deal_form(Ann="B", Bob="A", Cy="C", Di="D"), "reason": "swapped"},
        DEAL_FIELDS,
    ),
    "deal-void": (lambda n: {"reason": "dealt twice"}, ("reason",)),
    "deal-restore": (lambda n: {"reason": "voided by mistake"}, ("reason",)),
    "session-close": (lambda n: {}, ("confirm",)),
    "session-reopen": (lambda n: {"reason": "one more deal"}, ("reason",)),
    "session-settle": (lambda n: {"how": "pairs"}, ("how",)),
    "payment-new": (
        lambda n: {
            "payer": n.players["Di"].pk,
            "payee": n.players["Ann"].pk,
            "amount": "12.50",
            "date": "2026-12-01",
            "note": "cash",
            "session": n.session.pk,
            "confirmed": "on",
            "next": f"/sessions/{n.session.pk}/summary/",
        },
        ("payer", "payee", "amount", "date", "note", "session", "confirmed", "next"),
    ),
    "payment-confirm": (lambda n: {"next": "/groups/"}, ("next",)),
    "payment-void": (lambda n: {"reason": "never paid", "next": "/groups/"}, ("reason", "next")),
    "payment-edit": (
        lambda n: {
            "payer": n.players["Cy"].pk,
            "payee": n.players["Ann"].pk,
            "amount": "3",
            "date": "2026-12-01",
            "note": "",
            "reason": "typo",
        },
        ("payer", "payee", "amount", "date", "note", "reason"),
    ),
}

# Values no form expects: long text, unicode, numbers too large, too fine or not finite,
# characters a database refuses, and the empty value.
ODD_TEXT = st.text(
    st.characters(exclude_categories=["Cs"]),  # (a surrogate cannot be sent as UTF-8)
    max_size=600,
)
ODD_NUMBERS = st.sampled_from(
    [
        "1e400",
        "-1e400",
        "9" * 5000,
        "0." + "0" * 40 + "1",
        "NaN",
        "-inf",
        "Infinity",
        "-0",
        "0",
        "-1",
        "1e-400",
        "9999999999.9999",
        "0x10",
        "1_000",
        "١٢",  # Arabic-Indic digits
        "½",
        "\x00",
        "a\x00b",
        " ",
        "",
    ]
)
ODD_VALUES = st.one_of(
    ODD_TEXT,
    ODD_NUMBERS,
    st.integers().map(str),
    st.floats().map(str),
    st.lists(st.one_of(ODD_TEXT, ODD_NUMBERS), min_size=2, max_size=3),  # a repeated field
)


def post_urls(night: Night) -> dict[str, str]:
    """Every URL of the pages, by name, that answers a POST other than 405."""
    client = Client()
    client.force_login(night.user)
    found = {}
    for pattern in urlpatterns:
        assert isinstance(pattern, URLPattern) and pattern.name
        url = reverse(f"web:{pattern.name}", kwargs=night.kwargs(pattern))
        if client.post(url, {}).status_code != 405:
            found[pattern.name] = url
            client.force_login(night.user)  # (the logout form signs out)
    return found


@pytest.fixture
def night(group: Group, players: dict[str, Player], session: Session, alice: User) -> Night:
    services.record_deal(session, deal_players(), alice)
    return Night(group, players, session, alice)


def deal_players() -> list[dict[str, Any]]:
    from tests.services.hands import deal

    return deal(Ann="A", Bob="B", Cy="C", Di="D")


def test_every_form_of_the_pages_is_fuzzed(night: Night) -> None:
    assert set(post_urls(night)) == set(FORMS)


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_form_answers_500(night: Night, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(FORMS)), label="form")
    valid, fields = FORMS[name]
    form: dict[str, Any] = valid(night)
    for field in data.draw(st.lists(st.sampled_from(fields), min_size=1, max_size=4)):
        form[field] = data.draw(ODD_VALUES, label=field)
    if data.draw(st.booleans()):
        form[data.draw(ODD_TEXT.filter(bool), label="unknown field")] = data.draw(ODD_VALUES)
    client = Client()
    client.force_login(night.user)
    pattern = next(p for p in urlpatterns if isinstance(p, URLPattern) and p.name == name)
    url = reverse(f"web:{name}", kwargs=night.kwargs(pattern))

    response = client.post(url, form)

    assert response.status_code < 500


# Each field of each form with the values that used to answer 500 somewhere.
KNOWN_ODD = ("\x00", "x" * 600, "1e400", "9" * 5000)


@pytest.mark.parametrize(
    ("name", "field"), [(name, field) for name, (_, fields) in FORMS.items() for field in fields]
)
def test_each_field_of_each_form_takes_the_known_odd_values(
    night: Night, name: str, field: str
) -> None:
    valid, _ = FORMS[name]
    pattern = next(p for p in urlpatterns if isinstance(p, URLPattern) and p.name == name)
    url = reverse(f"web:{name}", kwargs=night.kwargs(pattern))
    client = Client()
    for value in KNOWN_ODD:
        client.force_login(night.user)

        response = client.post(url, {**valid(night), field: value})

        assert response.status_code < 500, (field, value[:20])
