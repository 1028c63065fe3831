"""A seat's page (``/seat/<token>/``) without the browser: who sees what."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Session
from tests.live.helpers import seat_token
from tests.services.conftest import ann_user, bob_user, group, players, session, stranger

__all__ = ["ann_user", "bob_user", "group", "players", "session", "stranger"]

pytestmark = pytest.mark.django_db


def page(session: Session, seat: int, user: User | None = None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    answer = client.get(f"/seat/{seat_token(session, seat)}/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_phone_without_an_account_gets_no_scoreboard_link(session: Session) -> None:
    html = page(session, 3)

    assert "Cy's hand (seat 3)" in html
    assert 'id="live-result-rows"' in html  # the result and the totals are on the page
    assert 'id="live-result-link"' not in html  # the scoreboard would ask it to sign in


def test_a_member_holding_a_seat_link_gets_the_link(session: Session, bob_user: User) -> None:
    assert f'href="/sessions/{session.pk}/"' in page(session, 2, bob_user)


def test_a_user_of_another_group_gets_no_link(session: Session, stranger: User) -> None:
    assert 'id="live-result-link"' not in page(session, 2, stranger)
