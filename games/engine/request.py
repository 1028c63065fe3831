"""Scoring requests and results as JSON-ready mappings (the format of shared/vectors).

``score_request`` is what ``manage.py score`` and ``POST /api/v1/score/`` call;
``parse_request`` and ``score_deal`` are the typed halves for callers that store deals.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Final, NamedTuple

from .bigtwo import BigTwoResult, Leftover, check_pays_for_all, score_big_two
from .cards import cards_text
from .errors import ScoreError, message
from .games import GAMES, HANDS_FIELD, descriptor_for
from .hands import DealResult, Hand, PairResult, PlayerResult
from .read import (
    ROW_SIZES,
    DealCards,
    Stakes,
    read_crossed,
    read_hand,
    read_leftover,
    read_mapping,
    read_names,
    read_stakes,
    reject_unknown_keys,
)
from .rules import Rules, decimal_text
from .scoring import score_hands
from .tables import ROWS

__all__ = [
    "ROW_SIZES",
    "Deal",
    "Result",
    "Stakes",
    "parse_request",
    "render",
    "score_deal",
    "score_request",
]

_REQUEST_KEYS: Final = frozenset({"rules", "players", "stakes"})


class Deal(NamedTuple):
    """A validated request: exactly one of ``hands``, ``crossed`` or ``leftovers`` is set."""

    rules: Rules
    names: tuple[str, ...]
    hands: tuple[Hand, ...] = ()
    crossed: tuple[tuple[Hand, ...], ...] = ()  # Criss Cross: one 13-card deal per hand
    leftovers: tuple[Leftover, ...] = ()
    stakes: Stakes | None = None


Result = DealResult | BigTwoResult | tuple[DealResult, ...]


def parse_request(request: object) -> Deal:
    """Validate a request mapping into a ``Deal``; any problem raises ``ScoreError``."""
    request = read_mapping(request, message("subject_the_request"), "request")
    reject_unknown_keys(request, _REQUEST_KEYS, message("subject_request"), "request")
    if "rules" not in request:
        raise ScoreError.refused("rules_required", "rules")
    rules = Rules.from_mapping(request["rules"])
    players = request.get("players")
    if not isinstance(players, list):
        raise ScoreError.refused("players_required", "players")
    game = descriptor_for(rules)
    fewest, most = game.seats(rules)
    if not fewest <= len(players) <= most:
        raise ScoreError.refused(
            "players_exactly" if fewest == most else "players_between",
            "players",
            fewest=fewest,
            most=most,
            preset=repr(rules.preset),
            count=len(players),
        )
    names = read_names(players)
    stakes = read_stakes(request["stakes"], names) if request.get("stakes") is not None else None
    deck = DealCards()
    if game.shape == "leftovers":
        leftovers = tuple(
            read_leftover(entry, names[k], f"players[{k}]", rules, deck)
            for k, entry in enumerate(players)
        )
        winners = [p.name for p in leftovers if p.cards_left == 0]
        if len(winners) != 1:
            raise ScoreError.refused(
                "one_goes_out" if winners else "none_goes_out",
                "players",
                count=len(winners),
                names=winners,
            )
        check_pays_for_all(leftovers, rules)
        deck.check()
        return Deal(rules, names, leftovers=leftovers, stakes=stakes)
    allowed = game.player_fields
    if game.shape == "crossed":
        crossed = read_crossed(players, names, rules, deck)
        deck.check()
        return Deal(rules, names, crossed=crossed, stakes=stakes)
    hands = []
    for k, entry in enumerate(players):
        reject_unknown_keys(entry, allowed, names[k], f"players[{k}]")
        hands.append(read_hand(entry, names[k], f"players[{k}]", rules, deck))
    deck.check()
    return Deal(rules, names, hands=tuple(hands), stakes=stakes)


def score_deal(deal: Deal) -> Result:
    """Score a parsed deal."""
    shape = descriptor_for(deal.rules).shape
    if shape == "leftovers":
        return score_big_two(deal.leftovers, deal.rules)
    if shape == "crossed":
        return tuple(score_hands(hands, deal.rules) for hands in deal.crossed)
    return score_hands(deal.hands, deal.rules)


def score_request(request: object) -> dict[str, Any]:
    """Validate, score and render one request (``ScoreError`` on bad input)."""
    deal = parse_request(request)
    return render(deal, score_deal(deal))


# --- rendering ---------------------------------------------------------------------------


def _pair_json(pair: PairResult, deal: Deal) -> dict[str, Any]:
    out: dict[str, Any] = {
        "players": list(pair.players),
        "units": decimal_text(pair.units),
        "kind": pair.kind,
        "rows": None if pair.rows is None else dict(zip(ROWS, pair.rows, strict=True)),
        "scoop": pair.scoop,
    }
    if deal.rules.ace_bonus is not None:  # Chi Á: what the aces moved, part of ``units``
        out["aces"] = decimal_text(pair.aces)
    if deal.stakes is not None:
        out["money"] = decimal_text(pair.units * deal.stakes.pair_value(*pair.players))
    return out


def _player_json(player: PlayerResult, deal: Deal) -> dict[str, Any]:
    wheel = deal.rules.wheel
    rows = player.rows
    out: dict[str, Any] = {
        "name": player.name,
        "units": decimal_text(player.units),
        "fouled": player.fouled,
        "foul_reason": player.foul_reason,
        "foul_code": player.foul_code,
        "surrendered": player.surrendered,
        "natural": player.natural,
        "false_natural": player.false_natural,
        "rows": None
        if rows is None
        else {
            row: {
                "cards": cards_text(r.cards),
                "category": r.category,
                "label": r.label(wheel),
                "label_code": r.code(wheel),
                "royalty": decimal_text(r.royalty),
            }
            for row, r in zip(ROWS, rows, strict=True)
        },
    }
    if GAMES[deal.rules.game].has_fantasyland:
        out["fantasyland_next"] = player.fantasyland_next
    return out


def _money(deal: Deal, players: list[dict[str, Any]], pairs: list[dict[str, Any]]) -> None:
    if deal.stakes is None:
        return
    totals = dict.fromkeys(deal.names, Decimal(0))
    for pair in pairs:
        a, b = pair["players"]
        money = Decimal(pair["money"])
        totals[a] += money
        totals[b] -= money
    for player in players:
        player["money"] = decimal_text(totals[player["name"]])


def render(deal: Deal, result: Result) -> dict[str, Any]:
    """The JSON-ready result of a scored deal."""
    rules_json = deal.rules.mapping
    if isinstance(result, BigTwoResult):
        players = [
            {
                "name": p.name,
                "units": decimal_text(p.units),
                "cards_left": p.cards_left,
                "cards": None if p.cards is None else cards_text(p.cards),
                "penalty": decimal_text(p.penalty),
                "winner": p.cards_left == 0,
                # Only on the one loser who paid for all ("bao", RULES 13).
                **({"pays_for_all": True} if p.pays_for_all else {}),
            }
            for p in result.players
        ]
        pairs = [_pair_json(p, deal) for p in result.pairs]
    elif not isinstance(result, DealResult):
        players, pairs = _render_crossed(deal, result)
    else:
        players = [_player_json(p, deal) for p in result.players]
        pairs = [_pair_json(p, deal) for p in result.pairs]
    _money(deal, players, pairs)
    return {"game": deal.rules.game, "rules": rules_json, "players": players, "pairs": pairs}


def _render_crossed(
    deal: Deal, results: tuple[DealResult, ...]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    players = []
    for k, name in enumerate(deal.names):
        hands = [_player_json(r.players[k], deal) for r in results]
        players.append(
            {
                "name": name,
                "units": decimal_text(sum((r.players[k].units for r in results), Decimal(0))),
                "fouled": any(h["fouled"] for h in hands),
                "surrendered": all(h["surrendered"] for h in hands),
                "natural": None,
                HANDS_FIELD: hands,
            }
        )
    pair_hands = [[_pair_json(p, deal) for p in r.pairs] for r in results]
    pairs = []
    for k, first in enumerate(pair_hands[0]):
        units = sum((Decimal(h[k]["units"]) for h in pair_hands), Decimal(0))
        pair: dict[str, Any] = {
            "players": first["players"],
            "units": decimal_text(units),
            "kind": "criss_cross",
            HANDS_FIELD: [h[k] for h in pair_hands],
        }
        if deal.stakes is not None:
            pair["money"] = decimal_text(units * deal.stakes.pair_value(*first["players"]))
        pairs.append(pair)
    return players, pairs
