"""The season pages: the group's season and a player's, for members only, readable at
360 px, with the range chosen in the query."""

from __future__ import annotations

import datetime
import re

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Player, ReviewLine, Session
from tests.services.hands import deal


def _play(session: Session, user: User) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), user)
    services.record_deal(session, deal(Ann="B", Bob="A", Cy="C", Di="D"), user)
    # Reviews run after the commit, which a test never reaches: one line by hand.
    first = session.deals.get(number=1)
    ReviewLine.objects.create(
        deal=first, player=first.session.players.get(name="Ann"), units_missed=2
    )


def test_the_season_page_shows_the_table_the_charts_and_the_head_to_head(
    as_bob: Client, session: Session, bob: User, group: Group
) -> None:
    _play(session, bob)
    group_page = as_bob.get(f"/groups/{group.pk}/").content.decode()
    assert f'href="/groups/{group.pk}/season/?range=year"' in group_page

    page = as_bob.get(f"/groups/{group.pk}/season/?range=all")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="season-table"' in html and "Scoops given" in html
    # Three server-drawn charts, each drawn for a phone's width.
    assert len(re.findall(r'<svg [^>]*viewBox="0 0 360 ', html)) == 3
    for figure in ("season-money", "season-missed", "season-matrix"):
        assert f'id="{figure}"' in html
    # Each name links to the player's season, keeping the range.
    ann = group.players.get(name="Ann")
    assert f"/groups/{group.pk}/season/players/{ann.pk}/?range=all" in html
    assert f'data-job="/api/v1/groups/{group.pk}/season/pdf/' in html


def test_a_range_without_nights_and_a_bad_date(
    as_bob: Client, session: Session, bob: User, group: Group
) -> None:
    _play(session, bob)
    before = session.date - datetime.timedelta(days=30)
    page = as_bob.get(f"/groups/{group.pk}/season/?range=custom&to={before}")
    html = page.content.decode()
    assert 'id="no-season"' in html and "<svg" not in html
    page = as_bob.get(f"/groups/{group.pk}/season/?range=custom&from=yesterday")
    assert "yesterday is not a date" in page.content.decode()
    assert 'id="season-table"' in page.content.decode()  # the range left open


def test_the_player_page(
    as_bob: Client, session: Session, bob: User, group: Group, players: dict[str, Player]
) -> None:
    _play(session, bob)
    services.record_payment(group, players["Ann"], players["Bob"], "2", bob, confirmed=True)
    page = as_bob.get(f"/groups/{group.pk}/season/players/{players['Ann'].pk}/?range=all")
    assert page.status_code == 200
    html = page.content.decode()
    for part in ("player-facts", "balance-table", "opponents", "extremes", "player-nights"):
        assert f'id="{part}"' in html
    assert "paid Bob" in html
    assert 'viewBox="0 0 360 ' in html


def test_only_members_see_a_season(
    as_mallory: Client, session: Session, bob: User, group: Group, players: dict[str, Player]
) -> None:
    _play(session, bob)
    assert as_mallory.get(f"/groups/{group.pk}/season/").status_code == 404
    player = players["Ann"].pk
    assert as_mallory.get(f"/groups/{group.pk}/season/players/{player}/").status_code == 404


def test_the_season_in_vietnamese(
    as_bob: Client, session: Session, bob: User, group: Group
) -> None:
    _play(session, bob)
    as_bob.post("/language/", {"language": "vi", "next": "/"})
    html = as_bob.get(f"/groups/{group.pk}/season/?range=all").content.decode()
    assert "Mùa giải" in html


def test_a_big_two_season_in_its_own_terms(
    as_bob: Client, bob: User, group: Group, players: dict[str, Player], alice: User
) -> None:
    session = services.start_session(
        group, [players["Ann"], players["Bob"], players["Cy"]], alice, game="big-two"
    )
    services.record_deal(
        session,
        [
            {"name": "Ann", "cards_left": 0},
            {"name": "Bob", "cards_left": 5},
            {"name": "Cy", "cards_left": 3},
        ],
        bob,
    )
    html = as_bob.get(f"/groups/{group.pk}/season/?range=all").content.decode()
    assert "Cards left" in html and "Wins" in html
    assert "Fouls" not in html and "Scoops given" not in html and "Missed per deal" not in html
