"""Bad input, fuzzed (hypothesis): the card parser and the engine raise nothing but
ScoreError, and a deal entered through the API is stored whole or not at all.

The strategies mix well-formed deals (13 distinct cards each, in every notation the parser
reads) with damaged ones (junk text, wrong types, unknown keys, repeated cards) and plain
random JSON, so that both the accepting and the refusing paths are walked.
"""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.engine import PRESETS, ScoreError, score_request
from games.engine.cards import DECK, cards_text, parse_cards
from games.models import Deal, DealRevision, LedgerEntry, Session

NAMES = ("Ann", "Bob", "Cy", "Di")
ROWS = {"front": 3, "middle": 5, "back": 5}
CARD_TEXTS = cards_text(DECK).split()

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

# Text near a card: ranks, suits, symbols, 10, separators and stray characters.
card_like_text = st.text(
    alphabet=st.sampled_from("23456789TJQKAtjqka10cdhsCDHS♣♦♥♠\ufe0f ,;xX-"),
    max_size=30,
)


@st.composite
def seat_hands(draw: st.DrawFn, seats: int, damaged: bool) -> list[dict[str, Any]]:
    """Each seat's 13 distinct cards split into rows; when `damaged`, some rows, keys and
    names are then spoiled."""
    deck = draw(st.permutations(CARD_TEXTS))
    players = []
    for k in range(seats):
        hand = iter(deck[13 * k : 13 * (k + 1)])
        entry: dict[str, Any] = {"name": NAMES[k]}
        for row, size in ROWS.items():
            cards = [next(hand) for _ in range(size)]
            separator = draw(st.sampled_from([" ", ",", ""]))
            forms: dict[str, st.SearchStrategy[Any]] = {
                "text": st.just(separator.join(cards)),
                "list": st.just(cards),
            }
            if damaged:
                forms |= {"junk": card_like_text, "json": json_values}
            entry[row] = draw(st.one_of(*forms.values()))
        if damaged and draw(st.integers(0, 9)) == 0:
            entry[draw(st.sampled_from(["surrender", "natural", "colour", "in_fantasyland"]))] = (
                draw(json_values)
            )
        players.append(entry)
    if damaged and draw(st.booleans()):  # one card held twice
        players[1]["front"] = players[0]["front"]
    if damaged and draw(st.booleans()):  # a stranger or a name repeated
        players[-1]["name"] = draw(st.sampled_from(["Eve", players[0]["name"], "", 7]))
    return players


deal_players = st.one_of(
    st.integers(2, 4).flatmap(lambda seats: seat_hands(seats, damaged=False)),
    st.integers(2, 4).flatmap(lambda seats: seat_hands(seats, damaged=True)),
    st.lists(json_values, max_size=5),
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=40), card_like_text, json_values))
def test_the_card_parser_reads_cards_or_raises_score_error(text: Any) -> None:
    try:
        cards = parse_cards(text, "Ann, front", "players[0].front")
    except ScoreError as error:
        assert error.message.startswith("Ann, front: ")
        assert error.field == "players[0].front"
        return
    assert all(card in DECK for card in cards)
    assert parse_cards(cards_text(cards)) == cards


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)) | json_values,
    deal_players,
    st.none() | st.just({"unit_value": "0.5"}) | json_values,
)
def test_the_engine_scores_or_raises_score_error(rules: Any, players: Any, stakes: Any) -> None:
    request = {"rules": rules, "players": players, "stakes": stakes}
    try:
        result = score_request(request)
    except ScoreError as error:
        assert error.message
        return
    assert sum(float(p["units"]) for p in result["players"]) == pytest.approx(0)


def counts(session: Session) -> tuple[int, int, int]:
    return (
        Deal.objects.filter(session=session).count(),
        LedgerEntry.objects.filter(deal__session=session).count(),
        DealRevision.objects.filter(deal__session=session).count(),
    )


def test_deal_entry_stores_a_whole_deal_or_nothing(session: Session, as_alice: APIClient) -> None:
    url = f"/api/v1/sessions/{session.pk}/deals/"
    outcomes: set[int] = set()

    @settings(
        max_examples=100,
        deadline=None,
        derandomize=True,  # the same examples every run: the last assertion cannot flake
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(deal_players | json_values)
    def enter(players: Any) -> None:
        before = counts(session)

        response = as_alice.post(url, {"players": players}, format="json")

        outcomes.add(response.status_code)
        after = counts(session)
        if response.status_code == 201:
            deals, ledger, revisions = before
            pairs = len(players) * (len(players) - 1) // 2
            assert after == (deals + 1, ledger + pairs, revisions)
            assert response.json()["number"] == deals + 1
        else:
            assert response.status_code == 400, response.content
            assert set(response.json()) - {"code", "args"} == {"error", "field"}
            assert after == before

    enter()
    # Both paths were walked: deals were stored and deals were refused.
    assert outcomes == {201, 400}
