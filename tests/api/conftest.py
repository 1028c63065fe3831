"""Alice owns the Friday club, Bob is a member, Mallory belongs to none of it.

At the table: Ann (Alice's player), Bob (Bob's), and two guests, Cy and Di. Each user
has an APIClient logged in with a token, as a phone app would be.
"""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services
from games.models import DeviceToken, Group, Player, Session

API = "/api/v1"


def client_for(user: User) -> APIClient:
    client = APIClient()
    _, key = DeviceToken.issue(user, "test client")
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob")


@pytest.fixture
def mallory(db: None) -> User:
    return User.objects.create_user("mallory")


@pytest.fixture
def as_alice(alice: User) -> APIClient:
    return client_for(alice)


@pytest.fixture
def as_bob(bob: User) -> APIClient:
    return client_for(bob)


@pytest.fixture
def as_mallory(mallory: User) -> APIClient:
    return client_for(mallory)


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
