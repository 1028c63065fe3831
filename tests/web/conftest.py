"""Alice owns the Friday club, Bob is a member, Mallory belongs to none of it.

At the table: Ann (Alice's player), Bob (Bob's), and two guests, Cy and Di. Each user has a
Django test client signed in through the pages' own sign-in form where it matters.
"""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Player, Session

PASSWORD = "a long table password"


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def mallory(db: None) -> User:
    return User.objects.create_user("mallory", password=PASSWORD)


@pytest.fixture
def as_alice(alice: User) -> Client:
    return signed_in(alice)


@pytest.fixture
def as_bob(bob: User) -> Client:
    return signed_in(bob)


@pytest.fixture
def as_mallory(mallory: User) -> Client:
    return signed_in(mallory)


@pytest.fixture
def group(alice: User, bob: User) -> Group:
    group = services.create_group(alice, "Friday club", "EUR", Decimal("0.5"), "classic-1-6")
    services.add_member(group, bob, "member", by=alice)
    return group


@pytest.fixture
def players(group: Group, alice: User, bob: User) -> dict[str, Player]:
    return {
        "Ann": services.add_player(group, "Ann", by=alice, user=alice),
        "Bob": services.add_player(group, "Bob", by=alice, user=bob),
        "Cy": services.add_player(group, "Cy", by=bob),
        "Di": services.add_player(group, "Di", by=bob),
    }


@pytest.fixture
def session(group: Group, players: dict[str, Player], alice: User) -> Session:
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    return services.start_session(group, seats, alice, place="Ann's kitchen")
