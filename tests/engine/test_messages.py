"""Hand names and foul reasons as message codes: the same codes in every language, and
the engine's English text rendered from them."""

from typing import Any

import pytest

from games.engine import score_request
from games.engine.cards import parse_cards
from games.engine.messages import english_hand
from games.engine.ranking import evaluate, hand_code

ANN = {"front": "Kh Kd Qc", "middle": "Ks Kc 2d 3c 4s", "back": "Ah Ad Ac 5d 5c"}
BOB = {"front": "2h 3h 4d", "middle": "6h 7h 8c 9d Js", "back": "Qh Qd Qs Td Tc"}


@pytest.mark.parametrize(
    ("cards", "code", "args"),
    [
        ("Kh Kd Qc", "pair", {"rank": "K", "kickers": ["Q"]}),
        ("Kh Kd 9c 9s 5d", "two_pair", {"high": "K", "low": "9", "kicker": "5"}),
        ("7h 7d 7c 9s 9d", "full_house", {"rank": "7", "over": "9"}),
        ("Ah 2d 3c 4s 5d", "straight", {"high": "5", "wheel": True}),
        ("Ts Js Qs Ks As", "royal_flush", {}),
        ("9s 9d 9c 9h 2d", "quads", {"rank": "9"}),
        ("Ah Jh 9h 5h 3h", "flush", {"ranks": ["A", "J", "9", "5", "3"]}),
        ("Ah Jd 9h 5c 3h", "high_card", {"rank": "A", "kickers": ["J", "9", "5", "3"]}),
    ],
)
def test_a_hand_has_a_code_and_the_ranks_that_name_it(
    cards: str, code: str, args: dict[str, Any]
) -> None:
    hand = parse_cards(cards)
    found = hand_code(evaluate(hand), len(hand))
    assert found == {"code": code, "args": args}


def test_the_result_carries_codes_beside_the_english_text() -> None:
    result = score_request(
        {
            "rules": "standard",
            "players": [
                {"name": "Ann", **ANN},
                {"name": "Bob", **BOB},
            ],
        }
    )
    ann = result["players"][0]
    assert ann["fouled"]
    assert ann["foul_code"] == {
        "code": "row_beats_row",
        "args": {
            "ahead": "front",
            "ahead_hand": {"code": "pair", "args": {"rank": "K", "kickers": ["Q"]}},
            "behind": "middle",
            "behind_hand": {"code": "pair", "args": {"rank": "K", "kickers": ["4", "3", "2"]}},
            "lowball": False,
        },
    }
    assert ann["foul_reason"].startswith("front Pair of Kings, Q kicker beats middle")
    for player in result["players"]:
        for row in player["rows"].values():
            assert english_hand(row["label_code"]) == row["label"]


def test_the_deal_format_doc_lists_every_code_the_engine_gives() -> None:
    """docs/deal-format.md's tables name each code the engine gives: hands, fouls, reviews,
    card errors and every refusal of bad input, with the refusal's English."""
    from pathlib import Path

    from games.engine.messages import (
        CARD_ERROR_CODES,
        FOUL_CODES,
        HAND_CODES,
        REFUSALS,
        REVIEW_CODES,
    )

    doc = (Path(__file__).resolve().parents[2] / "docs" / "deal-format.md").read_text()
    codes = (*HAND_CODES, *FOUL_CODES, *REVIEW_CODES, *CARD_ERROR_CODES, *REFUSALS)
    missing = [c for c in codes if f"`{c}`" not in doc]
    assert missing == []
    refusals = doc[doc.index("## Errors") :]
    for code, english in REFUSALS.items():
        row = next(line for line in refusals.splitlines() if line.startswith(f"| `{code}` |"))
        assert row.endswith(f"| {_as_written(english)} |"), code


def _as_written(english: str) -> str:
    """A refusal's English as the doc's table writes it: a typed value in quotes."""
    import re

    text = english.replace("{{", "{").replace("}}", "}").replace("|", "\\|")
    return re.sub(r"\{(\w+)!r\}", r"'{\1}'", text)
