"""Export a group's history, import it into an empty group, and get the same reports back."""

import copy
import json
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.models import Deal, DealRevision, Group, LedgerEntry, Session
from games.permissions import NotAllowed
from tests.services.hands import deal


def without_ids(report: Any) -> Any:
    """The report with database ids (which differ between the two groups) left out."""
    if isinstance(report, dict):
        return {k: without_ids(v) for k, v in report.items() if k not in {"id", "session", "group"}}
    if isinstance(report, list):
        return [without_ids(item) for item in report]
    return report


@pytest.fixture
def empty(ann_user: User, bob_user: User) -> Group:
    group = services.create_group(ann_user, "Friday club, restored", "USD", 1, "standard")
    services.add_member(group, bob_user, "member", by=ann_user)
    return group


def test_round_trip_gives_the_same_reports(
    night: Session, next_night: Session, group: Group, empty: Group, ann_user: User
) -> None:
    data = json.loads(json.dumps(services.export_group(group)))  # as a file would carry it

    restored = services.import_group(data, empty, ann_user)

    assert restored.name == "Friday club, restored"
    assert (restored.currency, restored.unit_value) == ("EUR", Decimal("0.5"))
    old = list(group.sessions.order_by("date"))
    new = list(restored.sessions.order_by("date"))
    assert len(new) == 2
    for before, after in zip(old, new, strict=True):
        assert without_ids(reports.session_summary(after)) == without_ids(
            reports.session_summary(before)
        )
        assert without_ids(reports.settlement(after)) == without_ids(reports.settlement(before))
    assert without_ids(reports.group_standings(restored)) == without_ids(
        reports.group_standings(group)
    )
    ann = restored.players.get(name="Ann")
    assert without_ids(reports.opponent_ledger(restored, ann)) == without_ids(
        reports.opponent_ledger(group, group.players.get(name="Ann"))
    )
    # Everything else survives too: the void deal, the edit's revision, stakes, rule versions.
    again = services.export_group(restored)
    for key in ("players", "rule_sets", "stakes"):
        assert strip_times(again[key]) == strip_times(data[key]), key
    assert strip_times(again["sessions"]) == strip_times(data["sessions"])
    assert restored.sessions.get(date=night.date).deals.get(number=9).status == Deal.Status.VOID
    assert DealRevision.objects.filter(deal__session__group=restored).count() == 2
    assert ann.user == ann_user  # players' users are matched among the members


def test_users_who_are_not_members_are_not_linked(
    night: Session, group: Group, ann_user: User
) -> None:
    target = services.create_group(ann_user, "Ann's alone", "EUR", 1, "standard")
    services.import_group(services.export_group(group), target, ann_user)

    assert dict(target.players.values_list("name", "user")) == {
        "Ann": ann_user.pk,
        "Bob": None,
        "Cy": None,
        "Di": None,
    }


def strip_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: strip_times(v)
            for k, v in value.items()
            if not k.endswith("_at") and k not in {"created_by", "changed_by", "closed_by"}
        }
    if isinstance(value, list):
        return [strip_times(item) for item in value]
    return value


def test_import_refuses_a_group_with_players(
    night: Session, group: Group, empty: Group, ann_user: User
) -> None:
    data = services.export_group(group)
    services.import_group(data, empty, ann_user)

    with pytest.raises(services.ImportRefused, match="not empty"):
        services.import_group(data, empty, ann_user)
    with pytest.raises(services.ImportRefused, match="not empty"):
        services.import_group(data, group, ann_user)


def test_import_is_for_owners(night: Session, group: Group, bob_user: User, ann_user: User) -> None:
    target = services.create_group(ann_user, "Empty", "EUR", 1, "standard")
    services.add_member(target, bob_user, "member", by=ann_user)

    with pytest.raises(NotAllowed):
        services.import_group(services.export_group(group), target, bob_user)


def test_a_result_that_does_not_rescore_stores_nothing(
    night: Session, group: Group, empty: Group, ann_user: User
) -> None:
    data = copy.deepcopy(services.export_group(group))
    data["sessions"][0]["deals"][2]["result"]["pairs"][0]["units"] = "5"

    with pytest.raises(services.ImportRefused, match=r"deals\[2\]\.result: scored again"):
        services.import_group(data, empty, ann_user)
    assert not empty.players.exists()
    assert not LedgerEntry.objects.filter(deal__session__group=empty).exists()
    assert list(empty.rule_sets.values_list("spec", flat=True)) == ["standard"]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(format="something else"), "format"),
        (lambda d: d.pop("players"), "players: missing"),
        (lambda d: d["sessions"][0].update(seats=["Nobody"]), r"sessions\[0\]\.seats: "),
        (
            lambda d: d["sessions"][0]["deals"][0]["request"].update(players=[]),
            r"sessions\[0\]\.deals\[0\]\.request\.players: ",
        ),
    ],
)
def test_a_damaged_file_is_refused(
    night: Session, group: Group, empty: Group, ann_user: User, damage: Any, message: str
) -> None:
    data = copy.deepcopy(services.export_group(group))
    damage(data)

    with pytest.raises(services.ImportRefused, match=message):
        services.import_group(data, empty, ann_user)
    assert not empty.sessions.exists()


def test_an_imported_session_numbers_its_next_deal_after_its_last(
    night: Session, next_night: Session, group: Group, empty: Group, ann_user: User
) -> None:
    restored = services.import_group(services.export_group(group), empty, ann_user)
    later = restored.sessions.get(date=next_night.date)
    assert later.is_open and later.deals.count() == 1

    recorded = services.record_deal(later, deal(Ann="B", Bob="A", Cy="C", Di="D"), ann_user)

    assert recorded.number == 2
    assert restored.sessions.get(date=night.date).last_deal_number == 12
