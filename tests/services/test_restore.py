"""A voided deal restored by an owner: it counts again, and its history says so."""

import json
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.errors import DealNotVoid
from games.models import Deal, DealRevision, Group, Session
from tests.services.hands import deal

D = Decimal


def balances(session: Session) -> dict[str, Decimal]:
    return {name: b.units for name, b in reports.balances(session).items()}


def test_a_restored_deal_counts_again_with_the_void_in_its_history(
    session: Session, ann_user: User
) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)
    counted = balances(session)
    services.void_deal(recorded, ann_user, reason="entered twice")
    assert recorded.ledger.count() == 0

    restored = services.restore_deal(recorded, ann_user, reason="it was not")

    assert restored.status == Deal.Status.ACTIVE and restored.version == 3
    assert restored.ledger.count() == 6
    assert balances(session) == counted == {"Ann": D(-8), "Bob": D(4), "Cy": D(3), "Di": D(1)}
    history = [(r.version, r.action, r.reason) for r in restored.revisions.all()]
    assert history == [(1, "void", "entered twice"), (2, "restore", "it was not")]
    # Voided again, it is voided as any deal is.
    services.void_deal(restored, ann_user)
    assert set(balances(session).values()) == {0}


def test_only_an_owner_restores_and_only_a_void_deal(
    session: Session, ann_user: User, bob_user: User
) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    with pytest.raises(DealNotVoid, match="deal 1 is not void"):
        services.restore_deal(recorded, ann_user)
    services.void_deal(recorded, ann_user)
    with pytest.raises(services.NotAllowed):
        services.restore_deal(recorded, bob_user)
    recorded.refresh_from_db()
    assert recorded.status == Deal.Status.VOID
    assert DealRevision.objects.count() == 1


def test_a_restore_survives_export_and_import(
    session: Session, group: Group, ann_user: User
) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)
    services.void_deal(recorded, ann_user, reason="oops")
    services.restore_deal(recorded, ann_user, reason="not oops")
    data = json.loads(json.dumps(services.export_group(group)))
    empty = services.create_group(ann_user, "Friday club, again", "USD", 1, "standard")

    restored = services.import_group(data, empty, ann_user)

    again = restored.sessions.get().deals.get()
    assert again.status == Deal.Status.ACTIVE
    assert [r.action for r in again.revisions.all()] == ["void", "restore"]
    assert balances(restored.sessions.get()) == balances(session)


def test_an_export_with_a_restore_not_after_a_void_is_refused(
    session: Session, group: Group, ann_user: User
) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)
    services.void_deal(recorded, ann_user)
    services.restore_deal(recorded, ann_user)
    data = json.loads(json.dumps(services.export_group(group)))
    revisions = data["sessions"][0]["deals"][0]["revisions"]
    revisions[0]["action"] = "edit"
    empty = services.create_group(ann_user, "Friday club, again", "USD", 1, "standard")

    with pytest.raises(services.ImportRefused, match="a restore undoes a void"):
        services.import_group(data, empty, ann_user)
