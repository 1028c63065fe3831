"""The deal page: the hands, the pairs, and the what-if form with its answer beside the
recorded result; nothing is stored."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Deal, DealRevision, Group, LedgerEntry, Player, Session
from tests.services.hands import deal


def url(session: Session, number: int = 1, query: str = "") -> str:
    return f"/sessions/{session.pk}/deals/{number}/" + (f"?{query}" if query else "")


def test_the_page_answers_the_what_if(as_bob: Client, session: Session, alice: User) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    rows = (Deal.objects.count(), DealRevision.objects.count(), LedgerEntry.objects.count())

    html = as_bob.get(url(session)).content.decode()
    assert 'id="what-if-form"' in html and 'id="what-if-table"' not in html
    assert "bonus (now 1-6)" in html and "foul_penalty (now 3)" in html
    assert "criss_cross" in html  # every option of the table, also those the form leaves out
    assert "multipliers" not in html  # not a Chinese poker option

    # Hands A B C D under 2-4 (one unit a row, +1 to whoever won more rows; a scoop 4):
    # Ann-Bob Bob scoops, 4; Ann-Cy and Ann-Di Ann wins one row of three, -2 each;
    # Bob-Cy, Bob-Di the same, -2 each; Cy-Di Cy wins two, +2. So Ann -8 (as recorded),
    # Bob +4 -2 -2 = 0 (recorded +4), Cy +2 +2 +2 = +6 (+3), Di +2 +2 -2 = +2 (+1).
    html = as_bob.get(url(session, query="option=bonus&value=2-4")).content.decode()
    table = html.split('id="what-if-table"', 1)[1].split("</table>", 1)[0]
    assert "With bonus 2-4 instead of 1-6" in table
    assert '<th scope="row">Bob</th><td class="num">+4</td><td class="num">0</td>' in table
    assert "<strong>-4</strong>" in table and "<strong>+3</strong>" in table
    assert "Nothing was saved." in html
    assert (Deal.objects.count(), DealRevision.objects.count(), LedgerEntry.objects.count()) == rows
    assert Deal.objects.get().version == 1

    # yes / no / true / false, none and numbers are read as on the rules page.
    for query in (
        "option=royalty_best_only&value=yes",
        "option=royalty_best_only&value=true",
        "option=surrender_cost&value=none",
        "option=foul_penalty&value=sweep",
        "option=royalties&value=none",
    ):
        assert as_bob.get(url(session, query=query)).status_code == 200, query


def test_a_bad_value_is_named(as_bob: Client, session: Session, alice: User) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    refused = as_bob.get(url(session, query="option=foul_penalty&value=lots"))
    assert refused.status_code == 400
    assert "rules.foul_penalty: &#x27;lots&#x27; is not a number" in refused.content.decode()
    refused = as_bob.get(url(session, query="option=two_multiplier&value=2"))
    assert refused.status_code == 400
    assert "does not apply to Chinese poker" in refused.content.decode()


def test_members_only_and_linked_from_the_scoreboard(
    as_bob: Client, as_mallory: Client, session: Session, alice: User
) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    assert as_mallory.get(url(session)).status_code == 404
    assert Client().get(url(session)).status_code == 302  # to the sign-in page
    assert as_bob.get(url(session, 2)).status_code == 404
    scoreboard = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert f'href="/sessions/{session.pk}/deals/1/#what-if"' in scoreboard


def test_a_big_two_deal(
    as_alice: Client, group: Group, players: dict[str, Player], alice: User
) -> None:
    session = services.start_session(group, [players["Ann"], players["Bob"]], alice, game="big-two")
    services.record_deal(
        session, [{"name": "Ann", "cards_left": 0}, {"name": "Bob", "cards_left": 10}], alice
    )
    # 10 cards left, x2 from 10: Bob pays 20 instead of 10.
    html = as_alice.get(url(session, query="option=multipliers&value=10:2")).content.decode()
    table = html.split('id="what-if-table"', 1)[1].split("</table>", 1)[0]
    assert "With multipliers 10:2 instead of" in table
    assert "<strong>-10</strong>" in table and "<strong>+10</strong>" in table
