"""What the API would have stored: every value of a group as the services would accept it.

``assert_storable(group)`` reads a group back (after an import, say) and checks each value
against the checks the services run on what the API is sent, every deal and revision
against the engine, the ledger with ``manage.py verify_ledger``'s audit, and that the
group's pages and reports answer.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.engine import Rules
from games.engine.games import GAMES
from games.engine.tally import tally
from games.models import Deal, DealRevision, Group, Session
from games.reports.audit import Audit
from games.services import checks
from games.sitting_out import score_playing


def clean_text(value: str, max_length: int | None = None) -> bool:
    return (
        "\x00" not in value
        and not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
        and (max_length is None or len(value) <= max_length)
    )


def assert_name(name: str, max_length: int = 50) -> None:
    assert name and name == name.strip() and clean_text(name, max_length), repr(name)


def assert_storable(group: Group, viewer: User) -> None:
    group.refresh_from_db()
    assert checks.currency(group.currency) == group.currency
    assert checks.amount(group.unit_value, "unit_value") < 10**10
    versions = list(group.rule_sets.order_by("version"))
    assert [r.version for r in versions] == list(range(1, len(versions) + 1))
    for rule_set in versions:
        assert Rules.from_mapping(rule_set.spec).to_mapping() == rule_set.rules
    for player in group.players.all():
        assert_name(player.name)
    for stake in group.pair_stakes.all():
        assert checks.amount(stake.multiplier, "multiplier") < 10**10
    for session in group.sessions.all():
        assert_session(session)
    assert [str(m) for m in Audit().mismatches([group])] == []
    client = Client()
    client.force_login(viewer)
    for session in group.sessions.all():
        page = client.get(reverse("web:session", kwargs={"pk": session.pk}))
        assert page.status_code == 200, page.content[:300]
        summary = client.get(f"/api/v1/sessions/{session.pk}/summary/")
        assert summary.status_code == 200
    assert client.get(f"/api/v1/groups/{group.pk}/standings/").status_code == 200


def assert_session(session: Session) -> None:
    assert session.status in Session.Status.values
    rules = Rules.from_mapping(session.rules)
    assert rules.to_mapping() == session.rules
    assert session.game in GAMES and session.game == rules.game
    assert session.target_score == rules.target_score
    assert clean_text(session.place, 100) and clean_text(session.notes)
    if session.rules_override is not None:
        assert Rules.from_mapping(session.rules_override).to_mapping() == session.rules
    else:
        assert session.rule_set.rules == session.rules
    seats = session.seat_names()
    assert 2 <= len(seats) <= 4
    for name in seats.values():
        assert_name(name)
    deals = list(session.deals.order_by("number"))
    assert [d.number for d in deals] == list(range(1, len(deals) + 1))
    assert session.last_deal_number == len(deals)
    for deal in deals:
        assert_deal(deal, session, seats.values())


def assert_deal(deal: Deal, session: Session, seats: object) -> None:
    assert deal.status in Deal.Status.values
    assert deal.rules == session.rules
    assert set(deal.request) <= {"players", "stakes"}
    assert score_playing({"rules": deal.rules, **deal.request}) == deal.result
    assert deal.tally == tally(deal.result, deal.request)
    assert deal.idempotency_key is None or 0 < len(deal.idempotency_key) <= 100
    revisions = list(deal.revisions.order_by("version"))
    assert [r.version for r in revisions] == list(range(1, deal.version))
    for k, revision in enumerate(revisions):
        assert revision.action in DealRevision.Action.values
        void = revision.action == DealRevision.Action.VOID
        assert not void or k == len(revisions) - 1
        assert score_playing({"rules": deal.rules, **revision.request}) == revision.result
        assert clean_text(revision.reason)
    voided = bool(revisions) and revisions[-1].action == DealRevision.Action.VOID
    assert voided == (deal.status == Deal.Status.VOID)
