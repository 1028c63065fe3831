"""RULES section 13 where sessions keep it: the fantasy-land button (the default dealer of
the next deal, the deal form's and the scoreboard's "next dealer"), and rule sets stored
before a preset gained a rule, which keep what they held: in the database (migration 0022)
and in an export written before (import)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import reports, services
from games.engine import Rules, ScoreError
from games.models import Deal, Group, Player, RuleSet, Session
from games.services.dealers import next_dealer
from tests.services.hands import deal

# Ann's board has queens in front (fantasy land next); Bob's has nothing special.
QUEENS = {"front": "Qc Qd 2h", "middle": "Kc Kd 3h 4h 5s", "back": "Ac Ad 6h 7h 8s"}
PLAIN = {"front": "2c 3c 4d", "middle": "5c 5d 7d 9h Js", "back": "Tc Td Th 9s 8c"}


@pytest.mark.parametrize(
    ("last", "playing", "expected"),
    [
        (None, None, 1),  # the first deal: seat 1, fantasy land or not
        ((1, 1), None, 1),  # deal 1 dealt by seat 1 had fantasy land: seat 1 deals again
        ((7, 4), None, 4),  # no wrapping round: seat 4 again
        ((3, 2), {1, 3, 4}, 3),  # seat 2 stays but sits this deal out: on to seat 3
        ((5, None), None, 1),  # before dealers: deal 5 was seat 1's (from seat 1), again
        ((4, None), None, 4),  # deal 4 was seat 4's
    ],
)
def test_the_button_stays_after_a_fantasy_land_deal(
    last: tuple[int, int | None] | None, playing: set[int] | None, expected: int
) -> None:
    assert next_dealer([1, 2, 3, 4], last, playing, stays=True) == expected


def _open_face(group: Group, players: dict[str, Player], by: User, **options: Any) -> Session:
    seats = [players["Ann"], players["Bob"], players["Cy"]]
    return services.start_session(group, seats, by, rules_override={"preset": "ofc", **options})


def _three_deals(session: Session, by: User) -> list[int | str | None]:
    """Deal 1: Ann earns fantasy land (Ann deals). Deal 2: Ann plays it (Bob deals, the
    button having moved after deal 1). Deal 3: who deals by default."""
    sits_out = {"name": "Cy", "sat_out": True}
    first = services.record_deal(
        session, [{"name": "Ann", **QUEENS}, {"name": "Bob", **PLAIN}, sits_out], by
    )
    second = services.record_deal(
        session, [{"name": "Ann", **PLAIN}, {"name": "Bob", **QUEENS}, sits_out], by
    )
    assert second.request["players"][0]["in_fantasyland"] is True  # Ann played in it
    upcoming = services.upcoming_dealer(session)
    third = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C"), by)
    dealt: list[int | str | None] = [first.dealer, second.dealer, third.dealer, upcoming]
    return dealt


def test_after_a_fantasy_land_deal_its_dealer_deals_again(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    session = _open_face(group, players, ann_user)

    assert _three_deals(session, ann_user) == [1, 2, 2, "Bob"]
    # Bob's queens in deal 2 had him play deal 3 in fantasy land: the button stays again.
    assert reports.session_summary(session)["next_dealer"] == "Bob"


def test_with_the_option_off_the_button_moves_on(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    session = _open_face(group, players, ann_user, button_stays_in_fantasyland=False)

    assert _three_deals(session, ann_user) == [1, 2, 3, "Cy"]
    assert reports.session_summary(session)["next_dealer"] == "Ann"


def test_chinese_poker_never_keeps_the_button(session: Session, ann_user: User) -> None:
    dealers = [
        services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user).dealer
        for _ in range(3)
    ]
    assert dealers == [1, 2, 3]


# --- rule sets stored before a preset gained a rule ------------------------------------------


def _age(mapping: Any) -> Any:
    """A resolved rules mapping as it was written before RULES 13's rules existed."""
    if not isinstance(mapping, dict) or "preset" not in mapping:
        return mapping
    later = ("ace_bonus", "two_bonus", "button_stays_in_fantasyland")
    aged = {k: v for k, v in mapping.items() if k not in later}
    if isinstance(aged.get("naturals"), dict):
        aged["naturals"] = {
            k: v for k, v in aged["naturals"].items() if k != "five_consecutive_pairs"
        }
    return aged


RUN_DEAL = [
    {
        "name": "Ann",
        "natural": "five_consecutive_pairs",
        "cards": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d Ah Tc 5s",
    },
    {"name": "Bob", "front": "Th 9s 2s", "middle": "Jh Js 4s 5h 6s", "back": "Kh Ks Qd Qc As"},
]


@pytest.fixture
def mau_binh(ann_user: User, bob_user: User) -> Group:
    group = services.create_group(
        ann_user, "Saigon nights", "VND", 1000, "mau-binh-south", ["Ann", "Bob"]
    )
    services.add_member(group, bob_user, "member", by=ann_user)
    return group


def _play_a_deal(group: Group, by: User) -> Session:
    seats = list(group.players.order_by("name"))
    session = services.start_session(group, seats, by)
    services.record_deal(
        session,
        [{"name": "Ann", **QUEENS}, {"name": "Bob", **PLAIN}],
        by,
    )
    return session


def test_the_new_natural_is_on_for_rule_sets_made_now(mau_binh: Group, ann_user: User) -> None:
    seats = list(mau_binh.players.order_by("name"))
    session = services.start_session(mau_binh, seats, ann_user)
    recorded = services.record_deal(session, RUN_DEAL, ann_user)
    assert recorded.result["players"][0]["units"] == "6"


def _age_the_database() -> None:
    for rule_set in RuleSet.objects.all():
        RuleSet.objects.filter(pk=rule_set.pk).update(rules=_age(rule_set.rules))
    for session in Session.objects.all():
        Session.objects.filter(pk=session.pk).update(rules=_age(session.rules))
    for stored in Deal.objects.all():
        result = {**stored.result, "rules": _age(stored.result["rules"])}
        Deal.objects.filter(pk=stored.pk).update(rules=_age(stored.rules), result=result)


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_stored_rule_sets_as_they_were(mau_binh: Group, ann_user: User) -> None:
    session = _play_a_deal(mau_binh, ann_user)
    _age_the_database()
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0021_tidy_free_text")])
    try:
        MigrationExecutor(connection).migrate([("games", "0022_rules_keep_what_they_held")])
    finally:
        MigrationExecutor(connection).migrate(latest)

    rule_set = mau_binh.current_rule_set()
    rule_set.refresh_from_db()
    assert rule_set.spec == {
        "preset": "mau-binh-south",
        "naturals": {"five_consecutive_pairs": None},
    }
    assert rule_set.rules == Rules.from_mapping(rule_set.spec).to_mapping()
    session.refresh_from_db()
    assert session.rules["naturals"]["five_consecutive_pairs"] is None
    stored = session.deals.get()
    assert stored.rules == session.rules == stored.result["rules"]
    # A session started now from the group's rules still has no run to declare.
    later = services.start_session(mau_binh, list(mau_binh.players.order_by("name")), ann_user)
    with pytest.raises(ScoreError, match="five_consecutive_pairs"):
        services.record_deal(later, RUN_DEAL, ann_user)


def _aged_export(group: Group) -> dict[str, Any]:
    data = json.loads(json.dumps(services.export_group(group)))
    for rule_set in data["rule_sets"]:
        rule_set["rules"] = _age(rule_set["rules"])
    for session in data["sessions"]:
        session["rules"] = _age(session["rules"])
        for entry in session["deals"]:
            entry["rules"] = _age(entry["rules"])
            entry["result"]["rules"] = _age(entry["result"]["rules"])
            for revision in entry.get("revisions", []):
                revision["result"]["rules"] = _age(revision["result"]["rules"])
    return data


def test_an_older_export_imports_with_the_rules_it_held(
    mau_binh: Group, ann_user: User, bob_user: User
) -> None:
    _play_a_deal(mau_binh, ann_user)
    empty = services.create_group(ann_user, "Saigon nights, restored", "VND", 1000, "standard")

    restored = services.import_group(_aged_export(mau_binh), empty, ann_user)

    rules = Rules.from_mapping(restored.current_rule_set().rules)
    assert rules.preset == "mau-binh-south"
    assert rules.naturals["five_consecutive_pairs"] is None
    assert restored.sessions.get().deals.count() == 1


def test_an_export_written_now_imports_unchanged(mau_binh: Group, ann_user: User) -> None:
    _play_a_deal(mau_binh, ann_user)
    empty = services.create_group(ann_user, "Saigon nights, copied", "VND", 1000, "standard")
    data = json.loads(json.dumps(services.export_group(mau_binh)))

    restored = services.import_group(data, empty, ann_user)

    assert restored.current_rule_set().spec == "mau-binh-south"
    rules = Rules.from_mapping(restored.current_rule_set().rules)
    assert rules.naturals["five_consecutive_pairs"] == 6
