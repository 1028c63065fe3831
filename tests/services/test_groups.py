"""Groups, their versions of the rules, players and members; sessions and their rules."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import services
from games.engine import RuleError, Rules
from games.models import Group, Membership, Player, RuleSet


def test_a_new_group_has_its_owner_and_rules_version_one(group: Group, ann_user: User) -> None:
    rule_set = group.current_rule_set()

    assert group.unit_value == Decimal("0.5")
    assert Membership.objects.get(group=group, user=ann_user).role == "owner"
    assert rule_set.version == 1
    assert rule_set.spec == "classic-1-6"
    assert rule_set.rules == Rules.from_mapping("classic-1-6").to_mapping()


def test_bad_rules_make_no_group(ann_user: User) -> None:
    with pytest.raises(RuleError) as error:
        services.create_group(ann_user, "x", "EUR", 1, {"preset": "classic-1-6", "bonus": "3-3"})

    assert error.value.field == "rules.bonus"
    assert not Group.objects.exists()


def test_changing_rules_makes_a_new_version_and_sessions_keep_theirs(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    seats = [players["Ann"], players["Bob"]]
    before = services.start_session(group, seats, ann_user)
    new = services.set_rules(group, {"preset": "classic-2-4", "surrender_cost": None}, ann_user)
    after = services.start_session(group, seats, bob_user)

    assert new.version == 2
    assert group.current_rule_set() == new
    assert (before.rule_set.version, before.rules["bonus"]) == (1, "1-6")
    assert (after.rule_set.version, after.rules["bonus"]) == (2, "2-4")
    assert after.rules["surrender_cost"] is None
    assert after.rules_override is None


def test_only_owners_change_rules(group: Group, bob_user: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.set_rules(group, "standard", bob_user)
    with pytest.raises(RuleError):
        services.set_rules(group, {"preset": "nope"}, bob_user)
    assert RuleSet.objects.filter(group=group).count() == 1


def test_only_owners_add_members(group: Group, bob_user: User, stranger: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.add_member(group, stranger, "member", by=bob_user)
    with pytest.raises(services.ServiceError, match="already a member"):
        services.add_member(group, bob_user, "owner", by=group.memberships.get(role="owner").user)


def test_player_names_are_unique_in_a_group(
    group: Group, players: dict[str, Player], bob_user: User, stranger: User
) -> None:
    with pytest.raises(services.ServiceError, match="already has a player named 'Cy'"):
        services.add_player(group, " Cy ", bob_user)
    with pytest.raises(services.NotAllowed):
        services.add_player(group, "Eve", stranger)


def test_a_session_may_override_the_rules(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    seats = [players["Ann"], players["Bob"], players["Cy"]]
    tweak = services.start_session(group, seats, ann_user, rules_override={"bonus": "2-4"})
    pineapple = services.start_session(group, seats, ann_user, rules_override="pineapple")
    big_two = services.start_session(group, seats, ann_user, game="big-two", target_score=50)

    assert (tweak.game, tweak.rules["preset"], tweak.rules["bonus"]) == (
        "chinese",
        "classic-1-6",
        "2-4",
    )
    assert tweak.rules_override == {"preset": "classic-1-6", "bonus": "2-4"}
    assert (pineapple.game, pineapple.rules["fantasyland_cards"]) == ("open-face", 14)
    assert (big_two.game, big_two.target_score) == ("big-two", Decimal(50))
    assert big_two.rules["target_score"] == "50"
    assert [seat.player.name for seat in pineapple.seats.order_by("seat")] == ["Ann", "Bob", "Cy"]


def test_a_session_seats_two_to_four_of_the_groups_players(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    with pytest.raises(services.ServiceError, match="2 to 4"):
        services.start_session(group, [players["Ann"]], ann_user)
    with pytest.raises(services.ServiceError, match="only one seat"):
        services.start_session(group, [players["Ann"], players["Ann"]], ann_user)
    with pytest.raises(RuleError):
        services.start_session(group, [players["Ann"], players["Bob"]], ann_user, target_score=5)
