"""The engine's words in the reader's language (``games.words``): in English exactly the
engine's own text, in Vietnamese none of its English, from codes that never change; and a
result stored before the codes renders all the same."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games import words
from games.engine import Rules, score_request
from games.engine.cards import CardError, parse_cards
from games.engine.messages import english_foul, english_hand, english_review
from games.engine.ranking import hand_code, tables

SCORE_URL = "/api/v1/score/"

# Ann fouls (a front pair of kings over a middle pair of kings), Bob plays three good rows.
FOULED_NIGHT: dict[str, Any] = {
    "rules": "mau-binh-south",
    "players": [
        {"name": "Ann", "front": "Kh Kd Qc", "middle": "Ks Kc 2d 3c 4s", "back": "Ah Ad Ac 5d 5c"},
        {"name": "Bob", "front": "2h 3h 4d", "middle": "6h 7h 8c 9d Js", "back": "Qh Qd Qs Td Tc"},
    ],
}
# Words of the engine's English that a Vietnamese reader must never meet.
ENGLISH = re.compile(
    r"Pair of|Two pair|Three of a kind|Straight|Flush|Full house|Four of a kind|Royal|"
    r"\bhigh\b|\blow\b|kicker|beats|front|middle|back|declared"
)


def _every_strength() -> list[tuple[int, int, str, bool]]:
    found = []
    for wheel in ("low", "second", "none"):
        five, three = tables(wheel)
        found += [(v, 5, wheel, low) for v in sorted(set(five.values())) for low in (False, True)]
        found += [(v, 3, wheel, False) for v in sorted(set(three.values()))]
    return found


def test_in_english_every_hand_reads_as_the_engine_names_it() -> None:
    with translation.override("en"):
        for value, size, wheel, low in _every_strength():
            code = hand_code(value, size, wheel, low=low)  # type: ignore[arg-type]
            assert words.hand_label(code) == english_hand(code)


def test_in_vietnamese_no_hand_keeps_an_english_word() -> None:
    with translation.override("vi"):
        for value, size, wheel, low in _every_strength():
            label = words.hand_label(hand_code(value, size, wheel, low=low))  # type: ignore[arg-type]
            assert not ENGLISH.search(label), label


@pytest.mark.parametrize(
    ("cards_code", "english", "vietnamese"),
    [
        (
            {"code": "pair", "args": {"rank": "K", "kickers": ["Q"]}},
            "Pair of Kings, Q kicker",
            "Đôi K, lẻ Q",
        ),
        (
            {"code": "two_pair", "args": {"high": "T", "low": "9", "kicker": "5"}},
            "Two pair, Tens and Nines, 5 kicker",
            "Thú 10 và 9, lẻ 5",
        ),
        ({"code": "quads", "args": {"rank": "9"}}, "Four of a kind, Nines", "Tứ quý 9"),
        (
            {"code": "full_house", "args": {"rank": "7", "over": "A"}},
            "Full house, Sevens over Aces",
            "Cù lũ 7 đôi A",
        ),
        ({"code": "trips", "args": {"rank": "Q"}}, "Three of a kind, Queens", "Sám cô Q"),
    ],
)
def test_a_hand_reads_in_the_active_language(
    cards_code: Any, english: str, vietnamese: str
) -> None:
    with translation.override("en"):
        assert words.hand_label(cards_code) == english
    with translation.override("vi"):
        assert words.hand_label(cards_code) == vietnamese


def test_a_foul_reads_in_the_active_language() -> None:
    result = score_request(FOULED_NIGHT)
    code = result["players"][0]["foul_code"]
    rules = Rules.from_mapping(result["rules"])
    with translation.override("en"):
        assert words.foul_text(code, rules) == english_foul(code)
    with translation.override("vi"):
        text = words.foul_text(code, rules)
    assert text == "chi đầu (Đôi K, lẻ Q) lớn hơn chi giữa (Đôi K, lẻ 4 3 2)"


def test_a_result_stored_without_codes_renders_as_one_with_them() -> None:
    result = score_request(FOULED_NIGHT)
    stored = copy.deepcopy(result)
    for player in stored["players"]:
        del player["foul_code"]
        for row in player["rows"].values():
            del row["label_code"]
    rules = Rules.from_mapping(result["rules"])
    assert words.result_codes(stored, rules) == result
    with translation.override("vi"):
        assert words.localized_result(stored, rules) == words.localized_result(result, rules)


def test_a_hand_not_shown_stored_without_codes_gets_its_code() -> None:
    request = {
        **FOULED_NIGHT,
        "players": [*FOULED_NIGHT["players"], {"name": "Cy", "fouled": True}],
    }
    result = score_request(request)
    stored = copy.deepcopy(result)
    for player in stored["players"]:
        del player["foul_code"]
        for row in (player["rows"] or {}).values():
            del row["label_code"]
    assert result["players"][2]["foul_code"] == {"code": "not_shown", "args": {}}
    assert words.result_codes(stored, Rules.from_mapping(result["rules"])) == result


@pytest.mark.parametrize(
    ("text", "english", "vietnamese"),
    [
        ("2x", "unknown suit 'x' in '2x'", "không có chất “x” trong “2x”"),
        ("Zh", "unknown rank 'Z' in 'Zh'", "không nhận ra “Z” trong “Zh”"),
        ("Kh Q", "'Q' has no suit", "“Q” thiếu chất"),
    ],
)
def test_a_card_error_reads_in_the_active_language(
    text: str, english: str, vietnamese: str
) -> None:
    with pytest.raises(CardError) as error:
        parse_cards(text)
    assert error.value.reason == english
    with translation.override("en"):
        assert words.card_error_text(error.value.card_error) == english
    with translation.override("vi"):
        assert words.card_error_text(error.value.card_error) == vietnamese


def _codes(body: dict[str, Any]) -> list[Any]:
    return [
        (p["foul_code"], {row: r["label_code"] for row, r in p["rows"].items()})
        for p in body["players"]
    ]


def test_the_api_answers_in_the_language_asked_with_the_same_codes(client: Client) -> None:
    english = client.post(SCORE_URL, FOULED_NIGHT, content_type="application/json")
    vietnamese = client.post(
        SCORE_URL, FOULED_NIGHT, content_type="application/json", HTTP_ACCEPT_LANGUAGE="vi"
    )
    assert english.status_code == vietnamese.status_code == 200
    assert english["Content-Language"] == "en" and vietnamese["Content-Language"] == "vi"
    en, vi = english.json(), vietnamese.json()
    assert _codes(en) == _codes(vi)
    assert en["players"][0]["rows"]["front"]["label"] == "Pair of Kings, Q kicker"
    assert vi["players"][0]["rows"]["front"]["label"] == "Đôi K, lẻ Q"
    assert en["players"][0]["foul_reason"].startswith("front Pair of Kings")
    assert vi["players"][0]["foul_reason"].startswith("chi đầu (Đôi K, lẻ Q)")


def test_the_lang_parameter_wins_over_accept_language(client: Client) -> None:
    answer = client.post(
        f"{SCORE_URL}?lang=en",
        FOULED_NIGHT,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    assert answer.json()["players"][0]["rows"]["front"]["label"] == "Pair of Kings, Q kicker"
    answer = client.post(f"{SCORE_URL}?lang=vi", FOULED_NIGHT, content_type="application/json")
    assert answer.json()["players"][0]["rows"]["front"]["label"] == "Đôi K, lẻ Q"


@pytest.mark.parametrize(
    "reason",
    [
        {"code": "not_reviewed_game", "args": {"game": "big-two"}},
        {"code": "not_reviewed_game", "args": {"game": "criss-cross"}},
        {"code": "hand_not_shown", "args": {}},
        {"code": "surrendered_without_cards", "args": {}},
        {"code": "set_card_by_card", "args": {}},
    ],
)
def test_a_review_stored_in_english_reads_as_one_stored_with_its_code(reason: Any) -> None:
    stored = {"reason": english_review(reason)}
    assert words.review_code(stored) == reason
    with translation.override("vi"):
        text = words.review_text(words.review_code(stored))  # type: ignore[arg-type]
    assert text and not ENGLISH.search(text) and "deals" not in text
