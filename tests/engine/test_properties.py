"""Invariants over random deals and random rule options (hypothesis)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Rules, score_request
from games.engine.cards import DECK, RANK_OF, cards_text
from games.engine.naturals import holds_natural
from games.engine.ranking import five_card_evaluator

NAMES = ("Ann", "Bob", "Cy", "Di")
THIRTEEN_CARD_PRESETS = (
    "standard",
    "classic-1-6",
    "classic-2-4",
    "mau-binh-south",
    "mau-binh-north",
    "mau-binh-saigon",
    "ofc",
    "pineapple",
)

amounts = st.sampled_from(["0", "1", "2", "2.5", "3", "6"])


@st.composite
def rule_specs(draw: st.DrawFn) -> dict[str, Any]:
    preset = draw(st.sampled_from(THIRTEEN_CARD_PRESETS))
    spec: dict[str, Any] = {"preset": preset}
    options = {
        "bonus": st.sampled_from(["1-6", "2-4", "none"]),
        "wheel": st.sampled_from(["low", "second"]),
        "royalty_mode": st.sampled_from(["always", "row_win"]),
        "royalty_best_only": st.booleans(),
        "royalties": st.sampled_from(["none", "baseline", "open-face", "mau-binh"]),
        "foul_penalty": st.one_of(st.just("sweep"), amounts),
        "foul_pays_royalties": st.booleans(),
        "surrender_cost": st.one_of(st.none(), amounts),
        "foul_counts_as_scoop": st.booleans(),
    }
    if preset not in ("ofc", "pineapple"):
        options["middle"] = st.sampled_from(["standard", "standard", "lowball-2-7"])
        options["false_natural_penalty"] = st.one_of(st.none(), amounts)
        options["natural_collects_from_surrendered"] = st.booleans()
        options["naturals"] = st.sampled_from(["none", "baseline", "mau-binh"])
        options["ace_bonus"] = st.one_of(st.none(), amounts)  # Chi Á (RULES 13)
    for name, strategy in options.items():
        if draw(st.booleans()):
            spec[name] = draw(strategy)
    bonus = spec.get("bonus", Rules.from_mapping(preset).bonus)
    if bonus != "1-6":
        spec["scoop_all_multiplier"] = None
    elif draw(st.booleans()):
        spec["scoop_all_multiplier"] = draw(st.sampled_from([None, "3", "4"]))
    return spec


@st.composite
def deals(draw: st.DrawFn, spec: dict[str, Any] | None = None) -> dict[str, Any]:
    """A random legal request: rules, 2-4 players, each 13 cards laid out in rows."""
    if spec is None:
        spec = draw(rule_specs())
    rules = Rules.from_mapping(spec)
    count = draw(st.integers(2, rules.max_players))
    deck = draw(st.permutations(DECK))
    evaluate5 = five_card_evaluator(rules.wheel)
    players = []
    for k in range(count):
        cards = list(deck[13 * k : 13 * k + 13])
        if draw(st.booleans()):  # lay out strong cards at the back: mostly legal hands
            cards.sort(key=lambda c: RANK_OF[c])
        rows = (tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
        player: dict[str, Any] = {
            "name": NAMES[k],
            "front": cards_text(rows[0]),
            "middle": cards_text(rows[1]),
            "back": cards_text(rows[2]),
        }
        if rules.surrender_cost is not None and draw(st.integers(0, 5)) == 0:
            player["surrender"] = True
        elif rules.game == "chinese":
            held = [
                n
                for n, v in rules.naturals.items()
                if v is not None and holds_natural(n, rows, evaluate5)
            ]
            declare: bool = draw(st.booleans())
            if held and declare:
                player["natural"] = draw(st.sampled_from(held))
            elif rules.false_natural_penalty is not None and draw(st.integers(0, 5)) == 0:
                allowed = [n for n, v in rules.naturals.items() if v is not None]
                if allowed:  # declared whether or not the cards make it
                    player["natural"] = draw(st.sampled_from(allowed))
        if rules.game == "open-face" and draw(st.booleans()):
            player["in_fantasyland"] = True
        players.append(player)
    return {"rules": spec, "players": players}


def _units(result: dict[str, Any]) -> dict[str, Decimal]:
    return {p["name"]: Decimal(p["units"]) for p in result["players"]}


def _pairs(result: dict[str, Any]) -> dict[tuple[str, str], Decimal]:
    out = {}
    for pair in result["pairs"]:
        a, b = pair["players"]
        out[a, b] = Decimal(pair["units"])
        out[b, a] = -Decimal(pair["units"])
    return out


common = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(deals())
def test_every_deal_sums_to_zero(request: dict[str, Any]) -> None:
    result = score_request(request)
    assert sum(_units(result).values()) == 0
    pairs = _pairs(result)
    for name, units in _units(result).items():
        assert units == sum(v for (a, _), v in pairs.items() if a == name)


@common
@given(deals())
def test_reversed_pair_is_the_negative(request: dict[str, Any]) -> None:
    forward = score_request(request)
    backward = score_request({**request, "players": request["players"][::-1]})
    for pair in forward["pairs"]:
        a, b = pair["players"]
        mirrored = next(p for p in backward["pairs"] if p["players"] == [b, a])
        assert Decimal(mirrored["units"]) == -Decimal(pair["units"])


@common
@given(deals(), st.randoms(use_true_random=False))
def test_seating_order_changes_nothing(request: dict[str, Any], random: Any) -> None:
    players = list(request["players"])
    random.shuffle(players)
    first = score_request(request)
    second = score_request({**request, "players": players})
    assert _units(first) == _units(second)
    assert _pairs(first) == _pairs(second)


@common
@given(deals())
def test_fouled_opponent_is_never_worth_less_than_a_legal_one(request: dict[str, Any]) -> None:
    rules = {**request["rules"], "foul_penalty": "sweep", "foul_pays_royalties": True}
    rules.pop("ace_bonus", None)  # Chi Á depends on each opponent's aces, not on the foul
    result = score_request({**request, "rules": rules})
    pairs = _pairs(result)
    live = [p["name"] for p in result["players"] if _is_live(p)]
    fouled = [p["name"] for p in result["players"] if p["fouled"] and not p["false_natural"]]
    for name in live:
        against_legal = [pairs[name, other] for other in live if other != name]
        for loser in fouled:
            assert all(pairs[name, loser] >= units for units in against_legal)


def _is_live(player: dict[str, Any]) -> bool:
    return not (player["fouled"] or player["surrendered"] or player["natural"])
