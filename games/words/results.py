"""Results as the pages and the API read them: each row's ``label_code`` and each hand's
``foul_code`` always (a result stored before the codes has them found again from its
cards), and the words in the language asked for."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from games.engine import Rules
from games.engine.cards import parse_cards
from games.engine.games import HANDS_FIELD
from games.engine.hands import Hand, PlayerResult
from games.engine.messages import Message
from games.engine.scoring import score_hands
from games.engine.tables import ROWS
from games.lib.busy import language
from games.words.said import foul_text, hand_label, review_text


def _replayed(hand: Mapping[str, Any], rules: Rules) -> PlayerResult | None:
    """The hand's three rows scored again on their own, or None without three rows."""
    rows = hand.get("rows")
    if not isinstance(rows, Mapping) or any(row not in rows for row in ROWS):
        return None
    cards = tuple(parse_cards(rows[row]["cards"]) for row in ROWS)
    return score_hands(
        [Hand(str(hand.get("name", "")), (cards[0], cards[1], cards[2]))], rules
    ).players[0]


def _missing(hand: Mapping[str, Any]) -> bool:
    """Whether a hand of a result lacks a code (a Big Two player has none to lack)."""
    if "rows" not in hand:
        return False
    rows = hand["rows"] if isinstance(hand["rows"], Mapping) else {}
    return "foul_code" not in hand or any("label_code" not in r for r in rows.values())


def _hand_codes(hand: dict[str, Any], rules: Rules) -> None:
    rows = hand["rows"] if isinstance(hand["rows"], Mapping) else {}
    played = _replayed(hand, rules) if rows else None
    if played is not None and played.rows is not None:
        for row, found in zip(ROWS, played.rows, strict=True):
            rows[row].setdefault("label_code", found.code(rules.wheel))
    if "foul_code" in hand:
        return
    if hand.get("false_natural"):
        hand["foul_code"] = {"code": "false_natural", "args": {"natural": hand["false_natural"]}}
    elif not hand.get("fouled"):
        hand["foul_code"] = None
    elif played is not None:
        hand["foul_code"] = played.foul_code
    else:
        hand["foul_code"] = {"code": "not_shown", "args": {}}


def _hands(player: dict[str, Any]) -> list[dict[str, Any]]:
    hands = player.get(HANDS_FIELD)
    return list(hands) if isinstance(hands, list) else [player]


def result_codes(result: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """A copy of a result with every row's ``label_code`` and every hand's ``foul_code``:
    as stored, or found again from the cards for a result stored before them."""
    found: dict[str, Any] = copy.deepcopy(dict(result))
    for player in found.get("players", []):
        for hand in _hands(player):
            if _missing(hand):
                _hand_codes(hand, rules)
    return found


def _has_codes(result: Mapping[str, Any]) -> bool:
    return not any(_missing(hand) for p in result.get("players", []) for hand in _hands(p))


def answer_language(request: HttpRequest) -> str:
    """The language an API answer's words are in: the ``lang`` query parameter when it
    names one of the site's languages, else the first of ``Accept-Language`` that does,
    else English. The codes beside the words are the same in every language."""
    return language(request.GET.get("lang"), request.headers.get("Accept-Language"))


def result_in(result: Mapping[str, Any], rules: Callable[[], Rules], lang: str) -> Any:
    """A stored result as the API answers it in ``lang``: its codes always, its words in
    that language (``rules`` is called only when the words are rendered again)."""
    if lang == settings.LANGUAGE_CODE and _has_codes(result):
        return result
    with translation.override(lang):
        return localized_result(result, rules())


def localized_result(result: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """A copy of a result with its labels and foul reasons in the active language, beside
    their codes (the same in every language)."""
    found = result_codes(result, rules)
    for player in found.get("players", []):
        for hand in _hands(player):
            rows = hand.get("rows")
            if isinstance(rows, Mapping):
                for row in rows.values():
                    if "label_code" in row:
                        row["label"] = hand_label(row["label_code"])
            if hand.get("foul_code") is not None:
                hand["foul_reason"] = foul_text(hand["foul_code"], rules)
    return found


def row_labels(hand: Mapping[str, Any], rules: Rules) -> dict[str, str]:
    """Each stored row's name in the active language, by row."""
    rows = result_codes({"players": [dict(hand)]}, rules)["players"][0].get("rows") or {}
    return {
        name: hand_label(row["label_code"]) if "label_code" in row else str(row.get("label", ""))
        for name, row in rows.items()
    }


_REVIEW_REASONS = {
    "hand not shown": "hand_not_shown",
    "surrendered without cards": "surrendered_without_cards",
    "set card by card": "set_card_by_card",
}
_NOT_REVIEWED = re.compile(r"(.+) deals are not reviewed")


def review_code(line: Mapping[str, Any]) -> Message | None:
    """Why a stored review (or one player's line of it) says nothing, as a message: its
    ``reason_code``, or for a review stored before the codes, found from its English."""
    code = line.get("reason_code")
    if code is not None or not line.get("reason"):
        return cast(Message | None, code)
    reason = str(line["reason"])
    if reason in _REVIEW_REASONS:
        return {"code": _REVIEW_REASONS[reason], "args": {}}
    game = _NOT_REVIEWED.fullmatch(reason)
    if game is not None:
        return {"code": "not_reviewed_game", "args": {"game": game.group(1).replace(" ", "-")}}
    return {"code": "unknown", "args": {"text": reason}}


def _said_reason(line: Mapping[str, Any], words: bool) -> dict[str, Any]:
    out = dict(line)
    code = review_code(line)
    if code is not None:
        out["reason_code"] = code
        if words:
            out["reason"] = review_text(code)
    return out


def _review_has_codes(review: Mapping[str, Any]) -> bool:
    lines = [review, *review.get("players", ())]
    return all(line.get("reason_code") is not None or not line.get("reason") for line in lines)


def review_in(review: Mapping[str, Any] | None, lang: str) -> Any:
    """A stored review as the API answers it in ``lang``: the deal's ``reason`` and each
    player's beside their ``reason_code`` (found from the English of a review stored
    before the codes), in that language (in English, as the engine wrote them); the rest
    as stored."""
    english = lang == settings.LANGUAGE_CODE
    if review is None or (english and _review_has_codes(review)):
        return review
    with translation.override(lang):
        said = _said_reason(review, not english)
        if isinstance(review.get("players"), list):
            said["players"] = [_said_reason(line, not english) for line in review["players"]]
    return said
