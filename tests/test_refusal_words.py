"""The engine's refusals of bad input in the reader's language (``games.words.refusals``):
in English exactly the engine's own words, in Vietnamese and Chinese a sentence of their
own for every code, with the same code and arguments, on the API too (the pages:
``tests/web/test_refusal_pages.py``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.engine import RuleError, Rules, ScoreError, score_request
from games.engine.errors import REFUSALS, english, message
from games.words import error_text, refusal_text
from games.words.refusals import REFUSAL_TEXTS

SCORE_URL = "/api/v1/score/"
LANGUAGES = ("vi", "zh-hans", "zh-hant")

# Ann's front holds two cards: the scorer refuses the deal, naming her and the row.
SHORT_FRONT: dict[str, Any] = {
    "rules": "mau-binh-south",
    "players": [
        {"name": "Ann", "front": "Ah Kh", "middle": "2c 3c 4c 5c 6c", "back": "7d 8d 9d Td Jd"},
        {"name": "Bob", "front": "2h 3h 4h", "middle": "5h 6h 7h 8h 9h", "back": "2s 3s 4s 5s 6s"},
    ],
}


def _placeholders(code: str) -> dict[str, str]:
    """Arguments for every placeholder of a code's English: each its own name."""
    return {name: f"<{name}>" for name in re.findall(r"\{(\w+)(?:!r)?\}", REFUSALS[code])}


def _refused(request: Any) -> ScoreError:
    with pytest.raises(ScoreError) as caught:
        score_request(request)
    return caught.value


def test_every_code_has_a_sentence_for_the_pages() -> None:
    assert set(REFUSAL_TEXTS) == set(REFUSALS)


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_in_english_every_refusal_reads_as_the_engine_words_it(code: str) -> None:
    said = message(code, **_placeholders(code))
    with translation.override("en"):
        assert refusal_text(said) == english(said)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_has_its_own_words_in_each_language(language: str) -> None:
    """A sentence with words of its own is translated; only a bare "%(part)s: %(reason)s"
    may read as in English."""
    untranslated = []
    for code in REFUSALS:
        said = message(code, **_placeholders(code))
        with translation.override("en"):
            english_text = refusal_text(said)
        with translation.override(language):
            text = refusal_text(said)
        words = re.sub(r"<\w+>|rules\.\w+|[^A-Za-z]", "", english_text)
        if text == english_text and words:
            untranslated.append(code)
    assert untranslated == []


def test_a_short_row_is_refused_in_the_readers_words() -> None:
    refused = _refused(SHORT_FRONT)
    assert refused.message == "Ann, front: 2 cards given (Ah Kh), the front row needs 3"
    assert refused.code is not None and refused.code["code"] == "row_size"
    with translation.override("vi"):
        assert error_text(refused) == "Ann, chi đầu: có 2 lá (Ah Kh), chi đầu cần 3 lá"
    with translation.override("zh-hans"):
        assert error_text(refused) == "Ann，头道：给了 2 张（Ah Kh），头道需要 3 张"
    with translation.override("zh-hant"):
        assert error_text(refused) == "Ann，頭道：給了 2 張（Ah Kh），頭道需要 3 張"


def test_a_card_error_reads_inside_the_refusal_that_places_it() -> None:
    request = {**SHORT_FRONT, "players": [{**SHORT_FRONT["players"][0], "front": "Ah Kh Zh"}]}
    refused = _refused({**request, "players": [*request["players"], SHORT_FRONT["players"][1]]})
    assert refused.message == "Ann, front: unknown rank 'Z' in 'Zh'"
    assert refused.code is not None and refused.code["args"]["reason"]["code"] == "unknown_rank"
    with translation.override("vi"):
        assert error_text(refused) == "Ann, chi đầu: không nhận ra “Z” trong “Zh”"


def test_a_rule_refusal_says_what_was_expected_in_the_readers_words() -> None:
    with pytest.raises(RuleError) as caught:
        Rules.from_mapping({"preset": "mau-binh-south", "bonus": "lots"})
    refused = caught.value
    assert refused.message.startswith("rules.bonus: 'lots' is not one of '1-6'")
    assert refused.code is not None and refused.code["args"]["expected"]["code"] == (
        "expected_one_of"
    )
    with translation.override("vi"):
        assert error_text(refused).startswith("rules.bonus: 'lots' không phải một trong '1-6'")
    with translation.override("zh-hans"):
        assert error_text(refused).startswith("rules.bonus：'lots' 不是'1-6'")


def test_an_error_without_a_code_keeps_its_words() -> None:
    with translation.override("vi"):
        assert error_text(ScoreError("typed elsewhere", "x")) == "typed elsewhere"


def test_the_api_refuses_in_the_language_asked_with_the_same_code(client: Client) -> None:
    english_answer = client.post(SCORE_URL, SHORT_FRONT, content_type="application/json")
    vietnamese = client.post(
        SCORE_URL, SHORT_FRONT, content_type="application/json", HTTP_ACCEPT_LANGUAGE="vi"
    )
    traditional = client.post(
        f"{SCORE_URL}?lang=zh-hant",
        SHORT_FRONT,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    assert english_answer.status_code == vietnamese.status_code == traditional.status_code == 400
    english_body, vi_body, hant_body = (
        english_answer.json(),
        vietnamese.json(),
        traditional.json(),
    )
    assert english_body["error"] == "Ann, front: 2 cards given (Ah Kh), the front row needs 3"
    assert vi_body["error"] == "Ann, chi đầu: có 2 lá (Ah Kh), chi đầu cần 3 lá"
    assert hant_body["error"].startswith("Ann，頭道")
    assert vietnamese["Content-Language"] == "vi"
    assert traditional["Content-Language"] == "zh-hant"
    for body in (english_body, vi_body, hant_body):
        assert body["field"] == "players[0].front"
        assert body["code"] == "row_size"
        assert body["args"] == {
            "who": "Ann",
            "row": "front",
            "count": 2,
            "cards": "Ah Kh",
            "size": 3,
        }


def test_the_api_refuses_rules_in_the_language_asked(client: Client) -> None:
    request = {**SHORT_FRONT, "rules": {"preset": "mau-binh-south", "foul_penalty": "lots"}}
    body = client.post(
        SCORE_URL, request, content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).json()
    assert body["code"] == "option_value"
    assert body["args"]["expected"] == {"code": "expected_number", "args": {}}
    assert body["error"] == "rules.foul_penalty：'lots' 不是数字"
