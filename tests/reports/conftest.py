"""The hand-worked night of tests/services, and a second, shorter night at higher stakes."""

import datetime

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Group, Player, Session
from tests.services import conftest as service_fixtures
from tests.services.hands import deal
from tests.services.test_night import play_the_night

# The four friends and their group, as the service tests set them up.
ann_user = service_fixtures.ann_user
bob_user = service_fixtures.bob_user
stranger = service_fixtures.stranger
group = service_fixtures.group
players = service_fixtures.players
session = service_fixtures.session


@pytest.fixture
def night(session: Session, ann_user: User, bob_user: User) -> Session:
    """Twelve deals at Ann's (deal 9 void): Ann +7.5, Bob -2.5, Cy +9.5, Di -14.5 units."""
    play_the_night(session, ann_user, bob_user)
    return session


@pytest.fixture
def next_night(
    night: Session, group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> Session:
    """The day after, Ann and Bob at four times the unit, one deal: Ann A, Bob B, Cy C, Di D.

    Units: Ann -8, Bob +4, Cy +3, Di +1. Money (0.5 a unit, Ann-Bob x4): Ann-Bob -6 units
    is -12, every other pair half its units: Ann -13, Bob +11, Cy +1.5, Di +0.5.
    """
    services.set_pair_stake(group, players["Bob"], players["Ann"], 4, by=ann_user)
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    later = services.start_session(
        group, seats, ann_user, date=night.date + datetime.timedelta(days=1)
    )
    services.record_deal(later, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)
    return later
