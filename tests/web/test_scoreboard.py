"""The scoreboard of a long session: one page of deals at a time, totals and the chart from
sums, and the same number of queries for a short night as for a long one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import reports
from games.models import Session
from games.present import money_in, signed
from games.reports import ledger
from games.web.scoreboard import CHART_POINTS, DEALS_PER_PAGE
from tests.reports.big_group import build_group
from tests.web.conftest import signed_in

pytestmark = pytest.mark.django_db


def long_night(owner: User, deals: int, seed: int = 1) -> Session:
    session: Session = build_group(owner, deals, seed=seed, name=f"Club {seed}").sessions.get()
    return session


def shown_deals(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tbody class="\w+" id="deal-(\d+)">', html)]


def link(html: str, rel: str) -> str | None:
    found = re.search(rf'<a href="([^"]+)" rel="{rel}">', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_the_deals_come_a_page_at_a_time_newest_first(alice: User) -> None:
    session = long_night(alice, 2 * DEALS_PER_PAGE + 30)
    client = signed_in(alice)
    url = f"/sessions/{session.pk}/"

    first = client.get(url).content.decode()
    assert shown_deals(first) == list(range(130, 80, -1))
    assert link(first, "prev") is None
    older = link(first, "next")
    assert older == f"{url}?before=81#deals"

    second = client.get(older).content.decode()
    assert shown_deals(second) == list(range(80, 30, -1))
    assert link(second, "prev") == f"{url}#deals"
    third_url = link(second, "next")
    assert third_url == f"{url}?before=31#deals"

    third = client.get(third_url).content.decode()
    assert shown_deals(third) == list(range(30, 0, -1))
    assert link(third, "next") is None
    assert link(third, "prev") == f"{url}?before=81#deals"
    # The void deal 50 keeps its history on its page.
    assert 'id="deal-50"' in second and "History (1)" in second
    # Anything but a deal number shows the newest page.
    assert shown_deals(client.get(f"{url}?before=x").content.decode()) == shown_deals(first)


def test_totals_and_chart_come_from_the_ledger_sums(alice: User) -> None:
    session = long_night(alice, 500)
    html = signed_in(alice).get(f"/sessions/{session.pk}/").content.decode()
    balances = reports.balances(session)
    total = r'<span class="who">(\w+)</span>\s*<span class="units">([^<]+)</span>'
    totals = re.findall(total, html)
    assert totals == [(name, signed(a.units)) for name, a in balances.items()]

    step, points, pairs = ledger.running_points(session, CHART_POINTS)
    assert pairs == ledger.pair_sums(ledger.session_ledger(session))
    assert step == 9 and len(points) <= CHART_POINTS
    # Each point is the running total after its deal, as summed deal by deal.
    every = dict(ledger.running_sums(session, "units"))
    for number, values in points:
        assert values == every[number]
    assert points[-1][1] == [a.units for a in balances.values()]
    rows = re.findall(r"<tr><th scope=\"row\">(\d+)</th>", html.split('class="running"')[1])
    assert [int(n) for n in rows] == [number for number, _ in points]
    assert "after every 9 deals" in html
    assert html.count('class="line p') == 4


def test_a_short_night_shows_every_deal_in_the_table(alice: User) -> None:
    session = long_night(alice, 12)
    html = signed_in(alice).get(f"/sessions/{session.pk}/").content.decode()
    assert "after each deal" in html
    assert link(html, "next") is None and link(html, "prev") is None
    assert shown_deals(html) == list(range(12, 0, -1))


def queries_for(client: Client, session: Session, query: str = "") -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/sessions/{session.pk}/{query}").status_code == 200
    return len(queries.captured_queries)


def test_the_scoreboard_reads_as_much_for_a_long_night_as_a_short_one(alice: User) -> None:
    client = signed_in(alice)
    short = long_night(alice, 60, seed=1)
    long = long_night(alice, 900, seed=2)
    assert queries_for(client, short) == queries_for(client, long)
    # Both pages hold a void deal with its history (deals 50 and 350).
    assert queries_for(client, short, "?before=60") == queries_for(client, long, "?before=400")
    # The page's size no longer grows with the night either.
    small = len(client.get(f"/sessions/{short.pk}/").content)
    large = len(client.get(f"/sessions/{long.pk}/").content)
    assert large < small * 1.5


def test_the_session_end_page_reads_a_fixed_number_of_queries(
    alice: User, django_assert_num_queries: Any
) -> None:
    client = signed_in(alice)
    short = long_night(alice, 60, seed=1)
    long = long_night(alice, 900, seed=2)
    with CaptureQueriesContext(connection) as queries:
        client.get(f"/sessions/{short.pk}/summary/")
    # The sign-in, the session, the role and seats; the pair sums, deal counts, tallies,
    # review lines, settlement and each player against each opponent: no query per player;
    # settling up: the players' names, the night's pair sums, its confirmed and
    # pending payments, the payments listed and the players of the payment form; while
    # deals lack a review, how many have none long after they were stored.
    assert len(queries.captured_queries) <= 20
    # The night's ledger rows are summed once for everything the page shows (the summary,
    # the settlement, each player against each opponent and what is still to settle).
    summed = [
        q["sql"]
        for q in queries.captured_queries
        if 'FROM "games_ledgerentry"' in q["sql"]
        and '"games_deal"."session_id"' in q["sql"]
        and "SUM(" in q["sql"]
    ]
    assert len(summed) == 1, summed
    with django_assert_num_queries(len(queries.captured_queries)):
        answer = client.get(f"/sessions/{long.pk}/summary/")
    assert answer.status_code == 200
    # Each player against each opponent, as the per-opponent ledger report has it.
    html = answer.content.decode()
    group = long.group
    for seat in long.seats.select_related("player"):
        report = reports.opponent_ledger(group, seat.player, session=long)
        for o in report["opponents"]:
            row = (
                f'<tr><th scope="row">{o["name"]}</th><td class="num">{signed(o["units"])}</td>'
                f'<td class="num">{money_in(o["money"], "EUR")}</td>'
                f'<td class="num">{sum(d["kind"] == "deal" for d in o["deals"])}</td></tr>'
            )
            assert row in html
