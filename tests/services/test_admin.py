"""The admin shows the ledger but cannot move money: a superuser who submits a change
form (as the browser would, with one value altered) to a ledger row, a deal revision, a
session's status or seat, a pair stake or a rule set is refused, and nothing changes.

Each form is read from the page the admin shows (every input, select and textarea with
its value), so before the admin was made read-only these posts were valid and saved.
"""

from __future__ import annotations

from decimal import Decimal
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Deal, DealRevision, LedgerEntry, Membership, PairStake, Player, Session
from tests.services.hands import deal


class FormReader(HTMLParser):
    """The fields a browser would submit from the admin's change form (``id="..._form"``)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._in_form = False
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form" and a.get("id", "").endswith("_form"):
            self._in_form = True
        if not self._in_form or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields[name] = a.get("value", "on")
            elif kind not in ("submit", "button", "file"):
                self.fields[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select = name
            self.fields.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.fields[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.fields[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.fields[self._textarea] += data


@pytest.fixture
def admin(db: None) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="x"))
    return client


@pytest.fixture
def played(session: Session, ann_user: User) -> Deal:
    """One deal at Ann's kitchen (Ann A, Bob B, Cy C, Di D), then edited once: a revision."""
    first = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)
    return services.edit_deal(
        first, deal(Ann="B", Bob="A", Cy="C", Di="D"), ann_user, reason="hands swapped"
    )


def shown_form(admin: Client, url: str) -> dict[str, str]:
    page = admin.get(url)
    assert page.status_code == 200
    reader = FormReader()
    reader.feed(page.content.decode())
    return reader.fields


def post_changed(admin: Client, url: str, **changes: str) -> Any:
    """Submit the change form at ``url`` as shown, with ``changes``; the answer."""
    return admin.post(url, {**shown_form(admin, url), **changes, "_save": "Save"})


def test_a_ledger_row_cannot_be_changed_added_or_deleted(admin: Client, played: Deal) -> None:
    row = LedgerEntry.objects.filter(deal=played).order_by("pk").first()
    assert row is not None
    before = list(LedgerEntry.objects.order_by("pk").values_list("units", "money"))
    url = f"/admin/games/ledgerentry/{row.pk}/change/"

    changed = post_changed(admin, url, units="100", money="50")
    deleted = admin.post(f"/admin/games/ledgerentry/{row.pk}/delete/", {"post": "yes"})
    added = admin.post(
        "/admin/games/ledgerentry/add/",
        {
            "deal": played.pk,
            "player_a": row.player_a_id,
            "player_b": row.player_b_id,
            "units": "9",
            "money": "4.5",
        },
    )

    assert (changed.status_code, deleted.status_code, added.status_code) == (403, 403, 403)
    assert list(LedgerEntry.objects.order_by("pk").values_list("units", "money")) == before
    assert admin.get("/admin/games/ledgerentry/").status_code == 200  # still browsable
    assert admin.get(url).status_code == 200


def test_a_deals_page_adds_no_ledger_row_and_deletes_no_deal(
    admin: Client, played: Deal, players: dict[str, Player]
) -> None:
    url = f"/admin/games/deal/{played.pk}/change/"
    form = shown_form(admin, url)
    rows = LedgerEntry.objects.filter(deal=played).count()
    extra = {
        "ledger-TOTAL_FORMS": str(rows + 1),
        f"ledger-{rows}-deal": str(played.pk),
        f"ledger-{rows}-player_a": str(players["Ann"].pk),
        f"ledger-{rows}-player_b": str(players["Di"].pk),
        f"ledger-{rows}-units": "40",
        f"ledger-{rows}-money": "20",
    }

    added = admin.post(url, {**form, **extra, "_save": "Save"})
    deleted = admin.post(f"/admin/games/deal/{played.pk}/delete/", {"post": "yes"})

    assert (added.status_code, deleted.status_code) == (403, 403)
    assert LedgerEntry.objects.filter(deal=played).count() == rows
    assert Deal.objects.filter(pk=played.pk).exists()


def test_a_revision_cannot_be_changed_or_deleted(admin: Client, played: Deal) -> None:
    revision = DealRevision.objects.get(deal=played)
    url = f"/admin/games/dealrevision/{revision.pk}/change/"

    changed = post_changed(admin, url, reason="nothing happened", action="void")
    deleted = admin.post(f"/admin/games/dealrevision/{revision.pk}/delete/", {"post": "yes"})

    assert (changed.status_code, deleted.status_code) == (403, 403)
    revision.refresh_from_db()
    assert (revision.reason, revision.action) == ("hands swapped", "edit")


def test_a_sessions_status_cannot_be_changed(admin: Client, played: Deal) -> None:
    session = played.session
    services.close_session(session, session.created_by)  # type: ignore[arg-type]
    url = f"/admin/games/session/{session.pk}/change/"

    answer = post_changed(admin, url, status="open")

    assert answer.status_code == 403
    session.refresh_from_db()
    assert session.status == Session.Status.CLOSED


def test_a_seat_cannot_be_changed_or_deleted(
    admin: Client, session: Session, group: Any, ann_user: User
) -> None:
    eve = services.add_player(group, "Eve", by=ann_user)
    first = session.seats.order_by("seat").first()
    assert first is not None
    seated = (first.player_id, first.name)
    url = f"/admin/games/session/{session.pk}/change/"
    form = shown_form(admin, url)
    k = next(
        key.split("-")[1]
        for key, value in form.items()
        if key.startswith("seats-") and key.endswith("-id") and value == str(first.pk)
    )

    moved = post_changed(admin, url, **{f"seats-{k}-player": str(eve.pk), f"seats-{k}-name": "Eve"})
    dropped = post_changed(admin, url, **{f"seats-{k}-DELETE": "on"})
    deleted = admin.post(f"/admin/games/session/{session.pk}/delete/", {"post": "yes"})

    assert (moved.status_code, dropped.status_code, deleted.status_code) == (403, 403, 403)
    first.refresh_from_db()
    assert (first.player_id, first.name) == seated
    assert session.seats.count() == 4


def test_a_pair_stake_cannot_be_changed_added_or_deleted(
    admin: Client, group: Any, players: dict[str, Player], ann_user: User
) -> None:
    stake = services.set_pair_stake(group, players["Ann"], players["Di"], 2, by=ann_user)
    url = f"/admin/games/pairstake/{stake.pk}/change/"

    changed = post_changed(admin, url, multiplier="10")
    deleted = admin.post(f"/admin/games/pairstake/{stake.pk}/delete/", {"post": "yes"})
    added = admin.post(
        "/admin/games/pairstake/add/",
        {
            "group": group.pk,
            "player_a": players["Bob"].pk,
            "player_b": players["Cy"].pk,
            "multiplier": "5",
        },
    )

    assert (changed.status_code, deleted.status_code, added.status_code) == (403, 403, 403)
    stake.refresh_from_db()
    assert stake.multiplier == Decimal(2)
    assert PairStake.objects.count() == 1
    assert admin.get("/admin/games/pairstake/").status_code == 200


def test_a_rule_set_cannot_be_changed(admin: Client, group: Any) -> None:
    rule_set = group.rule_sets.get()
    url = f"/admin/games/ruleset/{rule_set.pk}/change/"

    changed = post_changed(admin, url, spec='"classic-2-4"')

    assert changed.status_code == 403
    rule_set.refresh_from_db()
    assert rule_set.spec == "classic-1-6"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("\u202eyC", "an invisible character (U+202E RIGHT-TO-LEFT OVERRIDE) at position 1"),
        ("C\ny", "a control character (U+000A line break) at position 2"),
        ("ANN", "Friday club already has a player named &#x27;Ann&#x27;"),
        ("   ", "name: a player needs a name"),
    ],
    ids=["rtl-override", "line-break", "same-as-ann", "blank"],
)
def test_the_player_form_keeps_the_names_rules(
    admin: Client, players: dict[str, Player], name: str, words: str
) -> None:
    cy = players["Cy"]

    answer = post_changed(admin, f"/admin/games/player/{cy.pk}/change/", name=name)

    assert answer.status_code == 200  # the form again, with the name's error
    assert words in answer.content.decode()
    cy.refresh_from_db()
    assert cy.name == "Cy"


def test_a_new_player_in_the_admin_is_named_as_the_api_names_one(
    admin: Client, group: Any, players: dict[str, Player]
) -> None:
    refused = admin.post("/admin/games/player/add/", {"name": "D\u200bi", "group": group.pk})
    full_width = "  \uff25\uff56\uff45 "
    added = admin.post("/admin/games/player/add/", {"name": full_width, "group": group.pk})

    assert refused.status_code == 200 and "U+200B ZERO WIDTH SPACE" in refused.content.decode()
    assert added.status_code == 302
    assert sorted(group.players.values_list("name", flat=True)) == ["Ann", "Bob", "Cy", "Di", "Eve"]


def test_a_player_stays_in_their_group(
    admin: Client, players: dict[str, Player], ann_user: User
) -> None:
    other = services.create_group(ann_user, "Other club", "EUR", Decimal(1), "classic-1-6")
    cy = players["Cy"]
    group = cy.group_id

    answer = post_changed(admin, f"/admin/games/player/{cy.pk}/change/", group=str(other.pk))

    assert answer.status_code == 302
    cy.refresh_from_db()
    assert cy.group_id == group


def test_a_membership_keeps_its_user_and_group_and_changes_its_role(
    admin: Client, group: Any, ann_user: User, bob_user: User
) -> None:
    other = services.create_group(ann_user, "Other club", "EUR", Decimal(1), "classic-1-6")
    bobs = Membership.objects.get(group=group, user=bob_user)
    url = f"/admin/games/membership/{bobs.pk}/change/"

    answer = post_changed(admin, url, group=str(other.pk), user=str(ann_user.pk), role="owner")

    assert answer.status_code == 302
    bobs.refresh_from_db()
    assert (bobs.group_id, bobs.user_id, bobs.role) == (group.pk, bob_user.pk, "owner")


def test_the_admin_links_a_player_only_to_a_member_not_linked_yet(
    admin: Client, players: dict[str, Player], stranger: User, bob_user: User
) -> None:
    cy = players["Cy"]
    url = f"/admin/games/player/{cy.pk}/change/"

    strange = post_changed(admin, url, user=str(stranger.pk))
    twice = post_changed(admin, url, user=str(bob_user.pk))

    assert (strange.status_code, twice.status_code) == (200, 200)
    assert "eve is not a member of Friday club" in strange.content.decode()
    assert "bob is already linked to the player Bob" in twice.content.decode()
    cy.refresh_from_db()
    assert cy.user_id is None


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("name", "Friday\u2066club", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("currency", "E1R", "currency: expected a 3-letter code"),
        ("unit_value", "-1", "unit value: must be more than 0, got &#x27;-1&#x27;"),
    ],
)
def test_the_group_form_checks_as_the_api_does(
    admin: Client, group: Any, field: str, value: str, words: str
) -> None:
    before = (group.name, group.currency, group.unit_value)

    answer = post_changed(admin, f"/admin/games/group/{group.pk}/change/", **{field: value})

    assert answer.status_code == 200 and words in answer.content.decode()
    group.refresh_from_db()
    assert (group.name, group.currency, group.unit_value) == before


def test_the_group_page_adds_or_renames_no_player(
    admin: Client, group: Any, players: dict[str, Player]
) -> None:
    url = f"/admin/games/group/{group.pk}/change/"
    form = shown_form(admin, url)
    k = next(
        key.split("-")[1]
        for key, value in form.items()
        if key.startswith("players-") and key.endswith("-id") and value == str(players["Cy"].pk)
    )

    post_changed(admin, url, **{f"players-{k}-name": "C\u202ey"})

    assert Player.objects.get(pk=players["Cy"].pk).name == "Cy"
