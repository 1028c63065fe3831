"""The arrangement analysis as the JSON requests of the API: how to set 13 cards (or a
fantasy-land hand), and how each player of a scored deal could have set theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..cards import Card, cards_text, parse_cards
from ..errors import ScoreError
from ..games import CRISS_CROSS, GAMES, descriptor_for
from ..hands import Hand
from ..messages import Message, english_review, message
from ..request import parse_request
from ..rules import Rules, decimal_text
from .expected import arrange_expected
from .fantasyland import arrange_fantasyland
from .review import review_fantasyland
from .review_batch import review_all
from .splits import Setting, arrange_heuristic

__all__ = ["DEFAULT_SAMPLES", "MAX_SAMPLES", "arrange_request", "review_request"]

_ARRANGE_KEYS: Final = frozenset({"cards", "rules", "mode", "seed", "samples", "top"})
# Expected mode's sampled opponents: the default, and the most a request may ask for.
DEFAULT_SAMPLES: Final = 2000
MAX_SAMPLES: Final = 20_000


def _whole(request: Mapping[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    value = request.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ScoreError.refused(
            "arrange_whole", name, name=name, low=lo, high=hi, value=repr(value)
        )
    return value


def _setting_json(setting: Setting) -> dict[str, str]:
    front, middle, back = setting.text()
    return {"front": front, "middle": middle, "back": back}


def arrange_request(
    request: object, *, max_samples: int = MAX_SAMPLES, max_fantasy_cards: int = 17
) -> dict[str, Any]:
    """``POST /api/v1/arrange/``: how to set 13 cards, as JSON (``ScoreError`` on bad input).

    ``{"cards": "<13 cards>", "rules": <as in a score request>, "mode": "heuristic" |
    "expected", "seed": n, "samples": n, "top": n}``; the answer has the setting's
    ``front``, ``middle`` and ``back``, and in expected mode its ``expected_units``, the
    ``alternatives`` and a ``natural`` worth declaring instead, if any. ``samples`` may
    be at most ``max_samples`` (the API lowers it for anonymous callers), and defaults to
    2000 or ``max_samples`` if that is less. A fantasy-land hand (14 to 17 cards) may hold
    at most ``max_fantasy_cards``: each card more multiplies the settings to try.
    """
    if not isinstance(request, Mapping):
        raise ScoreError.refused("not_object", "request", what=message("subject_the_request"))
    extra = sorted(set(request) - _ARRANGE_KEYS)
    if extra:
        raise ScoreError.refused(
            "unknown_field",
            extra[0],
            who=message("subject_request"),
            field=repr(extra[0]),
            allowed=sorted(_ARRANGE_KEYS),
        )
    if "rules" not in request:
        raise ScoreError.refused("rules_required", "rules")
    rules = Rules.from_mapping(request["rules"])
    if not GAMES[rules.game].rows:
        raise ScoreError.refused("arrange_not_rows", "rules")
    cards = parse_cards(request.get("cards", ""), "cards", "cards")
    if len(set(cards)) == len(cards) and 13 < len(cards) <= 17 and rules.fantasyland_cards:
        if len(cards) > max_fantasy_cards:
            raise ScoreError.refused(
                "arrange_fantasy_most", "cards", most=max_fantasy_cards, count=len(cards)
            )
        return _fantasyland_json(cards, rules, request.get("mode", "heuristic"))
    if len(cards) != 13 or len(set(cards)) != 13:
        raise ScoreError.refused(
            "arrange_thirteen_or_fantasy" if rules.fantasyland_cards else "arrange_thirteen",
            "cards",
            count=len(cards),
            different=len(set(cards)),
            cards=cards_text(cards),
        )
    mode = request.get("mode", "heuristic")
    if mode == "heuristic":
        return {"mode": mode, **_setting_json(arrange_heuristic(cards, rules))}
    if mode != "expected":
        raise ScoreError.refused("arrange_mode", "mode", value=repr(mode))
    found = arrange_expected(
        cards,
        rules,
        samples=_whole(request, "samples", min(DEFAULT_SAMPLES, max_samples), 1, max_samples),
        seed=_whole(request, "seed", 0, 0, 2**32 - 1),
        top=_whole(request, "top", 3, 0, 10),
    )
    return {
        "mode": mode,
        **_setting_json(found.best.setting),
        "expected_units": round(found.best.expected_units, 4),
        "alternatives": [
            {**_setting_json(c.setting), "expected_units": round(c.expected_units, 4)}
            for c in found.alternatives
        ],
        "samples": found.samples,
        "seed": found.seed,
        "natural": found.natural,
        "natural_units": None if found.natural_units is None else decimal_text(found.natural_units),
    }


def _fantasyland_json(cards: tuple[Card, ...], rules: Rules, mode: object) -> dict[str, Any]:
    """A fantasy-land hand: which 13 cards to keep, set how, and what to discard."""
    base = rules.fantasyland_cards or 13
    most = 17 if rules.progressive else base
    if not base <= len(cards) <= most:
        raise ScoreError.refused(
            "arrange_fantasy_deals" if most == base else "arrange_fantasy_deals_between",
            "cards",
            base=base,
            most=most,
            count=len(cards),
        )
    if mode != "heuristic":
        raise ScoreError.refused("arrange_fantasy_mode", "mode", value=repr(mode))
    found = arrange_fantasyland(cards, rules)
    return {
        "mode": "fantasyland",
        **_setting_json(found.setting),
        "discards": cards_text(found.discards),
        "royalties": decimal_text(found.royalties),
    }


def review_request(request: object) -> dict[str, Any]:
    """How each player of a scored deal could have set their cards, as JSON.

    ``request`` is what the deal was scored from (``rules``, ``players``, ``stakes``), so
    the review is exactly as stored deals are scored; bad input raises ``ScoreError`` as
    scoring does. Only the 13-card game is reviewed: open-face rows are placed card by
    card, Big Two is not set at all and Criss Cross (two hands each) is not reviewed. A
    player who surrendered without showing their cards has nothing to review. Units are
    the player's units for the whole deal.
    """
    deal = parse_request(request)
    game = descriptor_for(deal.rules)
    if game.has_fantasyland and any(h.in_fantasyland and h.discards for h in deal.hands):
        return _review_fantasyland(deal.hands, deal.rules)
    if not game.reviewed:
        name = CRISS_CROSS.key if game is CRISS_CROSS else deal.rules.game
        return _not_reviewed(message("not_reviewed_game", game=name))
    players: list[dict[str, Any]] = []
    for hand, found in zip(deal.hands, review_all(deal.hands, deal.rules), strict=True):
        if found is None:
            why = message("hand_not_shown" if hand.not_shown else "surrendered_without_cards")
            players.append(_not_reviewed_player(hand.name, why))
            continue
        players.append(
            {
                "name": hand.name,
                "reviewed": True,
                "actual_units": decimal_text(found.actual_units),
                "best_units": decimal_text(found.best_units),
                "units_missed": decimal_text(found.missed),
                "best": _setting_json(found.best),
                "declare": found.declare,
                "natural": found.natural,
                "nearest_legal": (
                    None if found.nearest_legal is None else _setting_json(found.nearest_legal)
                ),
            }
        )
    return {"reviewed": True, "reason": None, "players": players}


def _review_fantasyland(hands: tuple[Hand, ...], rules: Rules) -> dict[str, Any]:
    """Open-face: only a player in fantasy land who gave the discards set all their cards
    at once; the others placed them card by card and are not reviewed."""
    players: list[dict[str, Any]] = []
    for k, hand in enumerate(hands):
        if not (hand.in_fantasyland and hand.discards and hand.rows is not None):
            players.append(_not_reviewed_player(hand.name, message("set_card_by_card")))
            continue
        found, discards = review_fantasyland(hands, rules, k)
        players.append(
            {
                "name": hand.name,
                "reviewed": True,
                "actual_units": decimal_text(found.actual_units),
                "best_units": decimal_text(found.best_units),
                "units_missed": decimal_text(found.missed),
                "best": _setting_json(found.best),
                "discards": cards_text(discards),
                "declare": None,
                "natural": None,
                "nearest_legal": None,
            }
        )
    return {"reviewed": True, "reason": None, "players": players}


def _not_reviewed(reason: Message) -> dict[str, Any]:
    return {
        "reviewed": False,
        "reason": english_review(reason),
        "reason_code": reason,
        "players": [],
    }


def _not_reviewed_player(name: str, reason: Message) -> dict[str, Any]:
    return {
        "name": name,
        "reviewed": False,
        "reason": english_review(reason),
        "reason_code": reason,
    }
