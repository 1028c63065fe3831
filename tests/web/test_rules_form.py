"""The owners' rules form is built from the engine's table of options (engine/options.py)."""

from __future__ import annotations

import pytest

from games.engine.options import OPTIONS as RULE_OPTIONS
from games.engine.options import OPTIONS_BY_GAME
from games.engine.rules import PRESETS, preset_rules
from games.web import rules_form

# The form's fields as the page has always shown them: name, kind, sentence, choices.
FORM_FIELDS: list[tuple[str, str, str, tuple[str, ...]]] = [
    (
        "wheel",
        "choice",
        "A-2-3-4-5 is the lowest straight, or ranks just below T-J-Q-K-A.",
        ("low", "second"),
    ),
    (
        "middle",
        "choice",
        "The middle row is a normal hand, or 2-7 lowball where the lowest wins.",
        ("standard", "lowball-2-7"),
    ),
    (
        "bonus",
        "choice",
        "1-6 doubles a scoop of all three rows; 2-4 gives +1 to whoever won more rows.",
        ("1-6", "2-4", "none"),
    ),
    (
        "scoop_all_multiplier",
        "number-or-none",
        "With 1-6 at four players, scooping all three opponents multiplies by this instead of 2.",
        (),
    ),
    (
        "foul_counts_as_scoop",
        "bool",
        "Whether a fouled opponent counts as scooped for the multiplier above.",
        (),
    ),
    (
        "royalties",
        "choice",
        "Which royalty table pays bonuses for strong rows.",
        ("none", "baseline", "open-face", "mau-binh"),
    ),
    (
        "royalty_mode",
        "choice",
        "Royalties are paid by every opponent, or a winning row is worth its royalty.",
        ("always", "row_win"),
    ),
    (
        "royalty_best_only",
        "bool",
        "Only the best qualifying hand in each row collects its royalty.",
        (),
    ),
    (
        "foul_penalty",
        "number-or-sweep",
        "A fouled hand pays as if scooped (sweep), or this many units to each live opponent.",
        (),
    ),
    ("foul_pays_royalties", "bool", "A fouled player also pays opponents their royalties.", ()),
    (
        "fouled_hand",
        "choice",
        "A fouled hand shown is forfeited, or after its penalty still played row by row.",
        ("forfeit", "played"),
    ),
    (
        "royalties_declared",
        "bool",
        "A royalty counts only on the rows the player declared before the reveal.",
        (),
    ),
    (
        "surrender_cost",
        "number-or-none",
        "Units a surrendering player pays each opponent; none means surrender is not allowed.",
        (),
    ),
    ("max_players", "int", "The most players at one deal (2 to 4).", ()),
    (
        "naturals",
        "choice",
        "Which naturals (special 13-card hands) count and what they pay.",
        ("none", "baseline", "mau-binh"),
    ),
    (
        "false_natural_penalty",
        "number-or-none",
        "What a false natural declaration pays each opponent; none rejects the declaration.",
        (),
    ),
    (
        "natural_collects_from_surrendered",
        "bool",
        "A natural collects its value from a surrendered player too (else the surrender cost).",
        (),
    ),
    (
        "natural_ranking",
        "choice",
        "Two naturals: the higher value is paid, or the higher kind in the Mau Binh order.",
        ("value", "order"),
    ),
    (
        "fantasyland_cards",
        "int-or-none",
        "Cards dealt to a player in fantasy land (13-17); none turns fantasy land off.",
        (),
    ),
    (
        "pineapple",
        "bool",
        "Pineapple: cards come three at a time, one of each three discarded (four a hand).",
        (),
    ),
    ("progressive", "bool", "Progressive fantasy land: QQ 14, KK 15, AA 16, trips 17 cards.", ()),
    (
        "multipliers",
        "multipliers",
        "Big Two: many cards left multiply the payment, e.g. 10:2, 13:3.",
        (),
    ),
    ("two_multiplier", "number-or-none", "Big Two: each 2 still held multiplies that payment.", ()),
    ("losers_settle", "bool", "Big Two: losers also settle the difference of their penalties.", ()),
    ("target_score", "number-or-none", "Big Two: the session ends when a loss reaches this.", ()),
]


def test_form_fields_are_the_tables() -> None:
    table = [
        (option.name, option.form_kind, option.sentence, option.choices)
        for option in RULE_OPTIONS
        if option.in_form
    ]
    form = [(o.name, o.kind, o.sentence, o.choices) for o in rules_form.OPTIONS]
    assert form == table


def test_form_fields_are_unchanged() -> None:
    assert [(o.name, o.kind, o.sentence, o.choices) for o in rules_form.OPTIONS] == FORM_FIELDS


def test_only_criss_cross_is_left_off_the_form() -> None:
    assert [o.name for o in RULE_OPTIONS if not o.in_form] == ["criss_cross"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_options_for_a_preset_are_its_games(preset: str) -> None:
    allowed = OPTIONS_BY_GAME[preset_rules(preset).game]
    names = [o.name for o in rules_form.options_for(preset)]
    assert names == [o.name for o in RULE_OPTIONS if o.in_form and o.name in allowed]


def test_preset_values_name_their_tables() -> None:
    by_name = {o.name: o for o in rules_form.OPTIONS}
    assert rules_form.preset_value("classic-1-6", by_name["royalties"]) == "baseline"
    assert rules_form.preset_value("mau-binh-south", by_name["naturals"]) == "mau-binh"
    assert rules_form.preset_value("standard", by_name["naturals"]) == "none"
    assert rules_form.preset_value("ofc", by_name["fantasyland_cards"]) == "13"
