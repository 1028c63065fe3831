"""Four friends, Ann, Bob, Cy and Di, and their group: Ann owns it, Bob is a member."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Group, Player, Session


@pytest.fixture
def ann_user(db: None) -> User:
    return User.objects.create_user("ann")


@pytest.fixture
def bob_user(db: None) -> User:
    return User.objects.create_user("bob")


@pytest.fixture
def stranger(db: None) -> User:
    return User.objects.create_user("eve")


@pytest.fixture
def group(ann_user: User, bob_user: User) -> Group:
    group = services.create_group(ann_user, "Friday club", "EUR", Decimal("0.5"), "classic-1-6")
    services.add_member(group, bob_user, "member", by=ann_user)
    return group


@pytest.fixture
def players(group: Group, ann_user: User, bob_user: User) -> dict[str, Player]:
    ann = services.add_player(group, "Ann", by=ann_user, user=ann_user)
    bob = services.add_player(group, "Bob", by=ann_user, user=bob_user)
    cy = services.add_player(group, "Cy", by=bob_user)
    di = services.add_player(group, "Di", by=bob_user)
    return {"Ann": ann, "Bob": bob, "Cy": cy, "Di": di}


@pytest.fixture
def session(group: Group, players: dict[str, Player], ann_user: User) -> Session:
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    return services.start_session(group, seats, ann_user, place="Ann's kitchen")
