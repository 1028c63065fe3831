"""The deal page: the hands, the pairs, and the what-if form with its answer beside the
recorded result; nothing is stored."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.engine.options import OPTIONS
from games.models import Deal, DealRevision, Group, LedgerEntry, Player, Session
from tests.services.hands import deal


def url(session: Session, number: int = 1, query: str = "") -> str:
    return f"/sessions/{session.pk}/deals/{number}/" + (f"?{query}" if query else "")


def test_the_page_answers_the_what_if(as_bob: Client, session: Session, alice: User) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    rows = (Deal.objects.count(), DealRevision.objects.count(), LedgerEntry.objects.count())

    html = as_bob.get(url(session)).content.decode()
    assert 'id="what-if-form"' in html and 'id="what-if-table"' not in html
    # Each option by its title (its key the value sent), with the value the deal was scored
    # under; a choice by its title, its key given in the help below to be typed.
    assert '<option value="bonus">Bonus (1-6 or 2-4) (now 1-6 scoring)</option>' in html
    assert '<option value="foul_penalty">Foul penalty (now 3)</option>' in html
    assert '<code translate="no">second</code> (Second highest straight)' in html
    # Every option of the table, also those the form leaves out; only the game's.
    assert '<option value="criss_cross">Criss Cross (now no)</option>' in html
    assert 'value="multipliers"' not in html and "Cards-left multipliers" not in html

    # Hands A B C D under 2-4 (one unit a row, +1 to whoever won more rows; a scoop 4):
    # Ann-Bob Bob scoops, 4; Ann-Cy and Ann-Di Ann wins one row of three, -2 each;
    # Bob-Cy, Bob-Di the same, -2 each; Cy-Di Cy wins two, +2. So Ann -8 (as recorded),
    # Bob +4 -2 -2 = 0 (recorded +4), Cy +2 +2 +2 = +6 (+3), Di +2 +2 -2 = +2 (+1).
    html = as_bob.get(url(session, query="option=bonus&value=2-4")).content.decode()
    table = html.split('id="what-if-table"', 1)[1].split("</table>", 1)[0]
    assert "With Bonus (1-6 or 2-4): 2-4 scoring instead of 1-6 scoring" in table
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
    assert "With Cards-left multipliers: 10:2 instead of" in table
    assert "<strong>-10</strong>" in table and "<strong>+10</strong>" in table


class _VisibleText(HTMLParser):
    """The text a reader sees on a page: no attributes, no scripts or styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


@pytest.mark.parametrize(
    ("language", "titles", "answer"),
    [
        ("vi", ("Phạt binh lủng", "Sảnh A-2-3-4-5"), "Với Thưởng (1-6 hay 2-4): Tính 2-4 thay cho"),
        (
            "zh-hans",
            ("相公罚分", "A-2-3-4-5 顺子"),
            "计分方式（1-6 或 2-4）改为 2-4 计分（原为 1-6 计分）",
        ),
    ],
)
def test_the_what_if_names_no_option_by_its_key_in_another_language(
    as_bob: Client,
    session: Session,
    alice: User,
    language: str,
    titles: tuple[str, ...],
    answer: str,
) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    response = as_bob.get(
        url(session, query="option=bonus&value=2-4"), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    html = response.content.decode()
    text = visible_text(html)
    keys = {option.name for option in OPTIONS}
    assert not set(re.findall(r"[a-z_]+", text)) & keys
    for title in titles:
        assert title in text
    assert 'value="foul_penalty"' in html  # the key is still what the form sends
    # Still answered: the same table as in English (Bob +4 recorded, 0 under 2-4).
    table = html.split('id="what-if-table"', 1)[1].split("</table>", 1)[0]
    assert answer in table
    assert '<th scope="row">Bob</th><td class="num">+4</td><td class="num">0</td>' in table
