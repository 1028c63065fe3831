"""The shared rule vectors (../shared/vectors beside the checkout) and how to check a result.

The vectors are the product's rule book in examples: a missing directory is an error, never a
reason to skip.
"""

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

VECTORS_DIR = Path(__file__).resolve().parents[2] / "shared" / "vectors"
VECTOR_FILES = ("chinese_poker.json", "big_two.json")

Case = dict[str, Any]

# The per-player fields compared when the expectation names them.
PLAYER_FIELDS = ("fouled", "surrendered", "natural", "fantasyland_next")


def load_cases() -> list[Case]:
    """Every case of every vector file, in file order."""
    cases: list[Case] = []
    for name in VECTOR_FILES:
        cases.extend(json.loads((VECTORS_DIR / name).read_text(encoding="utf-8")))
    return cases


CASES = load_cases()
SCORED = [case for case in CASES if "expect" in case]
REJECTED = [case for case in CASES if "expect_error" in case]


def case_id(case: Case) -> str:
    return str(case["id"])


def units(value: object) -> Decimal:
    """Units as an exact decimal, whether given as a string or a JSON number."""
    return Decimal(str(value))


def expected_view(expect: dict[str, Any]) -> dict[str, Any]:
    """The expectation with units as Decimal, players keyed by name, pairs by (A, B)."""
    players = {}
    for player in expect["players"]:
        view = {"units": units(player["units"])}
        view |= {key: player[key] for key in PLAYER_FIELDS if key in player}
        if "rows" in player:
            view["rows"] = {row: detail["category"] for row, detail in player["rows"].items()}
        players[player["name"]] = view
    pairs = {tuple(pair["players"]): units(pair["units"]) for pair in expect.get("pairs", [])}
    return {"players": players, "pairs": pairs}


def actual_view(expect: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
    """The result cut down to what `expect` names, in the shape of expected_view()."""
    wanted_players = {player["name"]: player for player in expect["players"]}
    players = {}
    for player in actual["players"]:
        wanted = wanted_players.get(player["name"], {})
        view = {"units": units(player["units"])}
        view |= {key: player[key] for key in PLAYER_FIELDS if key in wanted}
        if "rows" in wanted:
            view["rows"] = {row: player["rows"][row]["category"] for row in wanted["rows"]}
        players[player["name"]] = view
    won = {tuple(pair["players"]): units(pair["units"]) for pair in actual.get("pairs", [])}
    pairs: dict[tuple[str, ...], Decimal | None] = {}
    for pair in expect.get("pairs", []):
        a, b = pair["players"]
        # A pair reported the other way round carries the opposite sign.
        pairs[(a, b)] = won[(a, b)] if (a, b) in won else -won[(b, a)] if (b, a) in won else None
    return {"players": players, "pairs": pairs}


def assert_matches(expect: dict[str, Any], actual: dict[str, Any]) -> None:
    """Assert that a result agrees with a vector's `expect` on every field it names."""
    assert actual_view(expect, actual) == expected_view(expect)


def assert_mentions(case: Case, message: str) -> None:
    """Assert that an error message mentions every string the vector lists."""
    missing = [text for text in case["expect_error"]["mentions"] if text not in message]
    assert not missing, f"{message!r} does not mention {missing}"
