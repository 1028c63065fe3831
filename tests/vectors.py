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
    """Every case of every vector file, in file order, each with its file's name as `file`."""
    cases: list[Case] = []
    for name in VECTOR_FILES:
        for case in json.loads((VECTORS_DIR / name).read_text(encoding="utf-8")):
            cases.append({**case, "file": name})
    return cases


CASES = load_cases()
SCORED = [case for case in CASES if "expect" in case]
REJECTED = [case for case in CASES if "expect_error" in case]


def case_id(case: Case) -> str:
    return str(case["id"])


def units(value: object) -> Decimal:
    """Units as an exact decimal, whether given as a string or a JSON number."""
    return Decimal(str(value))


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()


def mismatches(expect: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Each way `actual` disagrees with the fields `expect` names; [] when it agrees.

    Players are matched by name, units compared as Decimal, rows by category, and pairs by
    their two players (a pair reported the other way round carries the opposite sign).
    """
    found: list[str] = []

    def check(what: str, want: object, got: object) -> None:
        if got is MISSING or got != want:
            found.append(f"{what}: expected {want!r}, got {got!r}")

    players = {player["name"]: player for player in actual.get("players", [])}
    names = sorted(player["name"] for player in expect["players"])
    check("player names", names, sorted(players))
    for want in expect["players"]:
        name, got = want["name"], players.get(want["name"])
        if got is None:
            continue
        got_units = got.get("units", MISSING)
        check(
            f"{name}.units",
            units(want["units"]),
            got_units if got_units is MISSING else units(got_units),
        )
        for key in PLAYER_FIELDS:
            if key in want:
                check(f"{name}.{key}", want[key], got.get(key, MISSING))
        for row, detail in want.get("rows", {}).items():
            got_row = got.get("rows", {}).get(row, {})
            check(
                f"{name}.rows.{row}.category", detail["category"], got_row.get("category", MISSING)
            )

    won = {tuple(pair["players"]): units(pair["units"]) for pair in actual.get("pairs", [])}
    for pair in expect.get("pairs", []):
        a, b = pair["players"]
        got_pair = won[(a, b)] if (a, b) in won else -won[(b, a)] if (b, a) in won else MISSING
        check(f"pair {a}-{b}.units", units(pair["units"]), got_pair)
    return found


def assert_matches(expect: dict[str, Any], actual: dict[str, Any]) -> None:
    """Assert that a result agrees with a vector's `expect` on every field it names."""
    assert mismatches(expect, actual) == []


def assert_mentions(case: Case, message: str) -> None:
    """Assert that an error message mentions every string the vector lists."""
    missing = [text for text in case["expect_error"]["mentions"] if text not in message]
    assert not missing, f"{message!r} does not mention {missing}"
