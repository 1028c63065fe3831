"""Big Two (Pusoy Dos): cards left when the first player went out, to units (RULES 10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import NamedTuple

from .cards import RANK_OF, Card
from .errors import ScoreError
from .hands import ZERO, PairKind, PairResult
from .rules import Rules, decimal_text

_DEUCE = 0


class Leftover(NamedTuple):
    """One player's cards left in hand (``cards`` None when only the count was given)."""

    name: str
    cards_left: int
    cards: tuple[Card, ...] | None = None
    pays_for_all: bool = False  # "bao": this loser pays the winner every loser's payment


class BigTwoPlayer(NamedTuple):
    name: str
    units: Decimal
    cards_left: int
    penalty: Decimal  # what this player's cards cost, as usual (0 for the winner)
    cards: tuple[Card, ...] | None
    pays_for_all: bool = False


class BigTwoResult(NamedTuple):
    players: tuple[BigTwoPlayer, ...]
    pairs: tuple[PairResult, ...]


def threshold_factor(rules: Rules, cards_left: int) -> Decimal:
    """The ``multipliers`` factor for so many cards left (1 below every threshold)."""
    for threshold, factor in reversed(rules.multipliers):
        if cards_left >= threshold:
            return factor
    return Decimal(1)


def twos_held(cards: Sequence[Card] | None) -> int:
    """How many 2s are among the cards left (0 when only their count was given)."""
    return 0 if cards is None else sum(1 for c in cards if RANK_OF[c] == _DEUCE)


def penalty(rules: Rules, left: Leftover) -> Decimal:
    """What a loser's cards cost: cards left x threshold multiplier x 2s held, plus
    ``two_bonus`` per 2 held, which no multiplier touches (RULES 10, 13)."""
    units = Decimal(left.cards_left) * threshold_factor(rules, left.cards_left)
    twos = twos_held(left.cards)
    if rules.two_multiplier is not None:
        units *= rules.two_multiplier**twos
    if rules.two_bonus is not None:
        units += rules.two_bonus * twos
    return units


def check_pays_for_all(players: Sequence[Leftover], rules: Rules) -> None:
    """ScoreError naming the player when ``pays_for_all`` cannot stand (RULES 13): on the
    winner, on a second player, or with ``losers_settle``."""
    flagged = [k for k, p in enumerate(players) if p.pays_for_all]
    for k in flagged:
        who, field = players[k].name, f"players[{k}].pays_for_all"
        if players[k].cards_left == 0:
            raise ScoreError.refused("winner_pays_for_all", field, who=who)
        if rules.losers_settle:
            raise ScoreError.refused("pays_for_all_losers_settle", field, who=who)
    if len(flagged) > 1:
        first, second = (players[k].name for k in flagged[:2])
        raise ScoreError.refused(
            "pays_for_all_twice", f"players[{flagged[1]}].pays_for_all", who=second, first=first
        )


def score_big_two(players: Sequence[Leftover], rules: Rules) -> BigTwoResult:
    """Score a validated deal: exactly one player has no cards left."""
    costs = [penalty(rules, p) for p in players]
    winner = next(k for k, p in enumerate(players) if p.cards_left == 0)
    owed = costs
    payer = next((k for k, p in enumerate(players) if p.pays_for_all), None)
    if payer is not None:  # "bao": one loser pays what every loser owes, the others nothing
        owed = [ZERO] * len(players)
        owed[payer] = sum(costs, ZERO)
    units = [ZERO] * len(players)
    pairs: list[PairResult] = []
    for i in range(len(players)):
        for j in range(i + 1, len(players)):
            if i == winner:
                amount = owed[j]
            elif j == winner:
                amount = -owed[i]
            elif rules.losers_settle:
                amount = owed[j] - owed[i]  # the one with the smaller penalty collects
            else:
                amount = ZERO
            units[i] += amount
            units[j] -= amount
            kind: PairKind = "cards" if amount else "none"
            pairs.append(PairResult((players[i].name, players[j].name), amount, kind))
    return BigTwoResult(
        tuple(
            BigTwoPlayer(p.name, units[k], p.cards_left, costs[k], p.cards, p.pays_for_all)
            for k, p in enumerate(players)
        ),
        tuple(pairs),
    )


def target_reached(totals: Mapping[str, Decimal], rules: Rules) -> list[str]:
    """Players whose running loss has reached the session's ``target_score`` (if any)."""
    if rules.target_score is None:
        return []
    return [name for name, total in totals.items() if -total >= rules.target_score]


def target_reason(totals: Mapping[str, Decimal], rules: Rules) -> str | None:
    """Why a session with a target score is over, in words ("Di lost 33, the target is
    30"), or None while no loss has reached the target."""
    losers = target_reached(totals, rules)
    if not losers or rules.target_score is None:
        return None
    lost = [f"{name} lost {decimal_text(-totals[name])}" for name in losers]
    told = lost[0] if len(lost) == 1 else ", ".join(lost[:-1]) + " and " + lost[-1]
    return f"{told}, the target is {decimal_text(rules.target_score)}"
