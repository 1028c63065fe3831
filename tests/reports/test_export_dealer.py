"""A deal's dealer through export and import: written as the seat's name, read back to the
same seat; a file from before dealers (no key) imports with none; a name not seated is
refused naming the field."""

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Deal, Session
from tests.services.hands import deal

FOUR = {"Ann": "A", "Bob": "B", "Cy": "C", "Di": "D"}


def exported(session: Session, ann_user: User) -> Any:
    services.record_deal(session, deal(**FOUR), ann_user)
    services.record_deal(session, deal(**FOUR), ann_user, dealer="Di")
    return json.loads(json.dumps(services.export_group(session.group)))


def test_the_dealer_survives_export_and_import(session: Session, ann_user: User) -> None:
    data = exported(session, ann_user)
    assert [d["dealer"] for d in data["sessions"][0]["deals"]] == ["Ann", "Di"]
    empty = services.create_group(ann_user, "Friday club, restored", "EUR", 1, "standard")

    restored = services.import_group(data, empty, ann_user)

    [after] = restored.sessions.all()
    assert list(after.deals.order_by("number").values_list("dealer", flat=True)) == [1, 4]


def test_a_file_without_dealers_imports_with_none(session: Session, ann_user: User) -> None:
    data = exported(session, ann_user)
    for entry in data["sessions"][0]["deals"]:
        del entry["dealer"]
    empty = services.create_group(ann_user, "Friday club, restored", "EUR", 1, "standard")

    restored = services.import_group(data, empty, ann_user)

    assert set(Deal.objects.filter(session__group=restored).values_list("dealer", flat=True)) == {
        None
    }


def test_a_dealer_not_seated_is_refused(session: Session, ann_user: User) -> None:
    data = exported(session, ann_user)
    data["sessions"][0]["deals"][1]["dealer"] = "Eve"
    empty = services.create_group(ann_user, "Friday club, restored", "EUR", 1, "standard")

    with pytest.raises(services.ImportRefused) as refused:
        services.import_group(data, empty, ann_user)

    assert refused.value.field == "sessions[0].deals[1].dealer"
