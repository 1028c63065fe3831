"""A realistic random night at the table, recorded through the services.

Each hand is dealt from a shuffled deck and set by the engine's heuristic (strongest back,
then middle), so most hands are legal; now and then a player fouls (middle and back
swapped), surrenders, or declares a natural the cards make. A few deals are voided by the
owner. The same seed gives the same night.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User

from games import services
from games.engine import ScoreError, score_request
from games.engine.arrangement import arrange_heuristic
from games.engine.cards import DECK
from games.engine.rules import Rules
from games.models import Session


def _natural_held(players: list[dict[str, Any]], k: int, rules: Rules) -> str | None:
    """The most valuable natural the rules pay that player k's rows make, or None."""
    allowed = sorted(
        ((value, name) for name, value in rules.naturals.items() if value is not None),
        reverse=True,
    )
    for _, name in allowed:
        trial = [dict(p) for p in players]
        trial[k]["natural"] = name
        try:
            result = score_request({"rules": rules.to_mapping(), "players": trial})
        except ScoreError:  # refused as false
            continue
        if result["players"][k]["natural"] == name:  # not recorded as a false one
            return name
    return None


def random_players(rng: random.Random, names: list[str], rules: Rules) -> list[dict[str, Any]]:
    """One deal's players list: hands set by the heuristic, with occasional mishaps."""
    deck = list(DECK)
    rng.shuffle(deck)
    players: list[dict[str, Any]] = []
    for k, name in enumerate(names):
        setting = arrange_heuristic(deck[13 * k : 13 * k + 13], rules)
        front, middle, back = setting.text()
        players.append({"name": name, "front": front, "middle": middle, "back": back})
    for k, player in enumerate(players):
        natural = _natural_held(players, k, rules) if rules.game == "chinese" else None
        roll = rng.random()
        if natural is not None:
            player["natural"] = natural
        elif roll < 0.03 and rules.surrender_cost is not None:
            players[k] = {"name": player["name"], "surrender": True}
        elif roll > 0.97:
            player["middle"], player["back"] = player["back"], player["middle"]
    return players


def play_random_night(
    session: Session, owner: User, deals: int = 40, seed: int = 2026, void_share: float = 0.03
) -> None:
    """Record ``deals`` random deals at the session (``owner`` owns its group)."""
    rng = random.Random(seed)
    rules = Rules.from_mapping(session.rules)
    names = list(session.seats.order_by("seat").values_list("name", flat=True))
    for _ in range(deals):
        deal = services.record_deal(session, random_players(rng, names, rules), owner)
        if rng.random() < void_share:
            services.void_deal(deal, owner, reason="dealt with a card face up")
