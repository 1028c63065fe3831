"""Game descriptors (engine/games.py): what differs by game, checked against what the engine
does with real requests."""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest

from games.engine import (
    GAMES,
    PRESETS,
    Descriptor,
    Rules,
    ScoreError,
    descriptor_for,
    player_hands,
    score_request,
)
from games.engine.arrangement import arrange_request, review_request
from games.engine.games import BIG_TWO, CHINESE, CRISS_CROSS, DESCRIPTORS, OPEN_FACE
from games.engine.options import GAME_KEYS, OPTIONS_BY_GAME
from games.engine.tables import ROWS, Game

# The ladder of the rule book tests: Ann > Bob > Cy > Di in every row, all 52 cards.
LADDER = {
    "Ann": ("6h 6s Ts", "Tc Td Th 6c 6d", "Ac Ad Ah As 2c"),
    "Bob": ("5h 5s 9s", "9c 9d 9h 5c 5d", "Kc Kd Kh Ks 2d"),
    "Cy": ("4h 4s 8s", "8c 8d 8h 4c 4d", "Qc Qd Qh Qs 2h"),
    "Di": ("3h 3s 7s", "7c 7d 7h 3c 3d", "Jc Jd Jh Js 2s"),
}
CRISS_CROSS_SPEC = {"preset": "mau-binh-south", "criss_cross": True}


def rows(name: str) -> dict[str, str]:
    return dict(zip(ROWS, LADDER[name], strict=True))


def players_for(game: Descriptor, count: int = 2) -> list[dict[str, Any]]:
    """A legal deal of ``count`` players in the shape the game reads."""
    names = list(LADDER)[:count]
    if game.shape == "leftovers":
        return [{"name": n, "cards_left": k * 3} for k, n in enumerate(names)]
    if game.shape == "crossed":
        return [
            {"name": "Ann", "hands": [rows("Ann"), rows("Cy")]},
            {"name": "Bob", "hands": [rows("Bob"), rows("Di")]},
        ][:count]
    return [{"name": n, **rows(n)} for n in names]


def param_id(value: Any) -> str:
    """Test ids: a descriptor by its key, a spec as written, the expectations unnamed."""
    if isinstance(value, Descriptor):
        return value.key
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and "preset" in value:
        return "+".join(f"{k}={v}" for k, v in value.items())
    return ""


def error_of(request: dict[str, Any]) -> ScoreError:
    with pytest.raises(ScoreError) as caught:
        score_request(request)
    return caught.value


# --- the descriptors --------------------------------------------------------------------


HAND = ("front", "middle", "back", "natural", "surrender")
DECLARED = ("fouled", "royalties", "cards")  # RULES 12


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (
            CHINESE,
            {
                "key": "chinese",
                "game": "chinese",
                "display_name": "Chinese poker",
                "default_preset": "standard",
                "shape": "rows",
                "player_fields": {"name", *HAND, *DECLARED},
                "hand_fields": {*HAND, *DECLARED},
                "rows": ROWS,
                "has_naturals": True,
                "has_fantasyland": False,
                "has_discards": False,
                "reviewed": True,
                "hands_per_player": 1,
                "min_players": 2,
                "max_players": 4,
            },
        ),
        (
            OPEN_FACE,
            {
                "key": "open-face",
                "game": "open-face",
                "display_name": "Open-face Chinese poker",
                "default_preset": "ofc",
                "shape": "rows",
                "player_fields": {"name", *HAND, *DECLARED, "in_fantasyland", "discards"},
                "hand_fields": {*HAND, *DECLARED, "in_fantasyland", "discards"},
                "rows": ROWS,
                "has_naturals": False,
                "has_fantasyland": True,
                "has_discards": True,
                "reviewed": False,
                "hands_per_player": 1,
                "min_players": 2,
                "max_players": 4,
            },
        ),
        (
            BIG_TWO,
            {
                "key": "big-two",
                "game": "big-two",
                "display_name": "Big Two",
                "default_preset": "big-two",
                "shape": "leftovers",
                "player_fields": {"name", "cards", "cards_left", "pays_for_all"},
                "hand_fields": set(),
                "rows": (),
                "has_naturals": False,
                "has_fantasyland": False,
                "has_discards": False,
                "reviewed": False,
                "hands_per_player": 0,
                "min_players": 2,
                "max_players": 4,
            },
        ),
        (
            CRISS_CROSS,
            {
                "key": "criss-cross",
                "game": "chinese",
                "display_name": "Criss Cross",
                "default_preset": "standard",
                "shape": "crossed",
                "player_fields": {"name", "hands"},
                "hand_fields": {*HAND, *DECLARED},
                "rows": ROWS,
                "has_naturals": True,
                "has_fantasyland": False,
                "has_discards": False,
                "reviewed": False,
                "hands_per_player": 2,
                "min_players": 2,
                "max_players": 2,
            },
        ),
    ],
    ids=param_id,
)
def test_each_games_descriptor(game: Descriptor, expected: dict[str, Any]) -> None:
    for name, value in expected.items():
        assert getattr(game, name) == value, name
    assert game.options == OPTIONS_BY_GAME[game.game]
    assert hash(game) == hash(game)  # frozen and hashable: usable as a key


def test_games_are_the_rules_games() -> None:
    assert tuple(GAMES) == GAME_KEYS == get_args(Game)
    assert all(GAMES[key].game == key == GAMES[key].key for key in GAMES)
    assert (*GAMES.values(), CRISS_CROSS) == DESCRIPTORS


def test_naturals_go_with_the_naturals_option() -> None:
    for game in DESCRIPTORS:
        assert game.has_naturals == ("naturals" in game.options)
        assert game.has_fantasyland == ("fantasyland_cards" in game.options)


@pytest.mark.parametrize("game", DESCRIPTORS, ids=lambda g: g.key)
def test_default_spec_plays_the_game(game: Descriptor) -> None:
    assert game.default_preset in PRESETS
    rules = Rules.from_mapping(game.default_spec)
    assert descriptor_for(rules) is game
    assert rules.game == game.game


def test_default_specs() -> None:
    assert {key: GAMES[key].default_spec for key in GAMES} == {
        "chinese": "standard",
        "open-face": "ofc",
        "big-two": "big-two",
    }
    assert CRISS_CROSS.default_spec == {"preset": "standard", "criss_cross": True}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("standard", CHINESE),
        ("classic-1-6", CHINESE),
        ("classic-2-4", CHINESE),
        ("mau-binh-south", CHINESE),
        ("mau-binh-north", CHINESE),
        ("ofc", OPEN_FACE),
        ("pineapple", OPEN_FACE),
        ("big-two", BIG_TWO),
        ({"preset": "standard", "criss_cross": True}, CRISS_CROSS),
        (CRISS_CROSS_SPEC, CRISS_CROSS),
        ({"preset": "classic-2-4", "criss_cross": False}, CHINESE),
    ],
    ids=param_id,
)
def test_descriptor_for_rules(spec: Any, expected: Descriptor) -> None:
    assert descriptor_for(Rules.from_mapping(spec)) is expected


def test_every_preset_has_a_descriptor() -> None:
    assert {descriptor_for(Rules.from_mapping(name)).key for name in PRESETS} == set(GAMES)


# --- the descriptors against the engine -------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "seats"),
    [
        ("standard", (2, 4)),
        ("pineapple", (2, 3)),
        ("big-two", (2, 4)),
        ({"preset": "standard", "max_players": 2}, (2, 2)),
        (CRISS_CROSS_SPEC, (2, 2)),
    ],
    ids=param_id,
)
def test_seats_are_what_a_request_may_hold(spec: Any, seats: tuple[int, int]) -> None:
    rules = Rules.from_mapping(spec)
    game = descriptor_for(rules)
    assert game.seats(rules) == seats
    fewest, most = seats
    for count in (fewest, most):
        score_request({"rules": spec, "players": players_for(game, count)})
    message = str(error_of({"rules": spec, "players": players_for(game, 1)}))
    need = f"exactly {most}" if fewest == most else f"{fewest} to {most}"
    assert f"this deal needs {need} players" in message


@pytest.mark.parametrize("game", DESCRIPTORS, ids=lambda g: g.key)
def test_player_fields_are_what_a_request_may_give(game: Descriptor) -> None:
    players = players_for(game)
    players[0]["colour"] = "red"
    message = str(error_of({"rules": game.default_spec, "players": players}))
    allowed = re.search(r"\(allowed: (.*)\)", message)
    assert allowed is not None
    assert allowed.group(1) == ", ".join(sorted(game.player_fields))


def test_criss_cross_hand_fields_are_what_each_hand_may_give() -> None:
    players = players_for(CRISS_CROSS)
    players[0]["hands"][1]["discards"] = "2c"
    message = str(error_of({"rules": CRISS_CROSS_SPEC, "players": players}))
    assert message.endswith(f"(allowed: {', '.join(sorted(CRISS_CROSS.hand_fields))})")


@pytest.mark.parametrize("game", DESCRIPTORS, ids=lambda g: g.key)
def test_results_carry_what_the_game_has(game: Descriptor) -> None:
    result = score_request({"rules": game.default_spec, "players": players_for(game)})
    assert result["game"] == game.game
    for player in result["players"]:
        hands = game.hands(player)
        assert len(hands) == game.hands_per_player
        for hand in hands:
            assert ("fantasyland_next" in hand) == game.has_fantasyland
            assert list(hand["rows"]) == list(game.rows)
        if not game.rows:
            assert "cards_left" in player


@pytest.mark.parametrize("game", DESCRIPTORS, ids=lambda g: g.key)
def test_rows_are_what_arrangement_needs(game: Descriptor) -> None:
    request = {"rules": game.default_spec, "cards": " ".join(LADDER["Ann"])}
    if game.rows:
        assert set(arrange_request(request)) >= set(ROWS)
    else:
        with pytest.raises(ScoreError, match="not set in rows"):
            arrange_request(request)


@pytest.mark.parametrize("game", DESCRIPTORS, ids=lambda g: g.key)
def test_reviewed_games_have_their_players_reviewed(game: Descriptor) -> None:
    review = review_request({"rules": game.default_spec, "players": players_for(game)})
    reviewed = [p["name"] for p in review["players"] if p["reviewed"]]
    assert bool(reviewed) == game.reviewed
    if game.reviewed:
        assert reviewed == ["Ann", "Bob"]


# --- player_hands -----------------------------------------------------------------------


def test_player_hands_of_a_criss_cross_result() -> None:
    result = score_request({"rules": CRISS_CROSS_SPEC, "players": players_for(CRISS_CROSS)})
    ann, bob = result["players"]
    first, second = player_hands(ann)
    assert first["rows"]["back"]["cards"] == "Ac Ad Ah As 2c"
    assert second["rows"]["back"]["cards"] == "Qc Qd Qh Qs 2h"
    assert [h["units"] for h in player_hands(ann)] == [h["units"] for h in ann["hands"]]
    assert player_hands(bob) == CRISS_CROSS.hands(bob) == tuple(bob["hands"])
    # A pair's entry reads the same way: one entry per hand, Ann scooping both.
    (pair,) = result["pairs"]
    assert [h["scoop"] for h in player_hands(pair)] == ["Ann", "Ann"]
    # And the request's own entries.
    request_ann = players_for(CRISS_CROSS)[0]
    assert player_hands(request_ann) == (rows("Ann"), rows("Cy"))


def test_player_hands_of_a_plain_result() -> None:
    result = score_request({"rules": "classic-1-6", "players": players_for(CHINESE, 4)})
    for player in result["players"]:
        assert player_hands(player) == (player,) == CHINESE.hands(player)
        (hand,) = player_hands(player)
        assert set(hand["rows"]) == set(ROWS)
    for pair in result["pairs"]:
        assert player_hands(pair) == (pair,)


def test_big_two_players_have_no_hands_of_rows() -> None:
    result = score_request({"rules": "big-two", "players": players_for(BIG_TWO, 3)})
    for player in result["players"]:
        assert BIG_TWO.hands(player) == ()
        assert player_hands(player) == (player,)
