"""The rules in force, in plain language, for the sheets and the pages.

Everything is read from the engine's ``Rules`` (what ``Rules.to_mapping()`` spells out), so
the description can never disagree with how the deals were scored. Mau Binh rule sets get
the Vietnamese names of their hands and terms beside the English ones.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from decimal import Decimal

from games.engine.cards import RANK_CHARS
from games.engine.games import GAMES
from games.engine.options import OPTIONS_BY_NAME
from games.engine.rules import ROWS, Rules, decimal_text
from games.present import game_name, is_mau_binh, natural_name

# Mau Binh words for a scoop, a scoop of the whole table, a foul and an instant win.
VIETNAMESE_TERMS: Mapping[str, str] = {
    "scoop": "sập ba chi",
    "scoop_all": "sập làng",
    "foul": "binh lủng",
    "natural": "mậu binh trắng",
}

RANK_NAMES = {
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
    "7": "sevens",
    "8": "eights",
    "9": "nines",
    "T": "tens",
    "J": "jacks",
    "Q": "queens",
    "K": "kings",
    "A": "aces",
}
assert set(RANK_NAMES) == set(RANK_CHARS)


def _term(english: str, key: str, rules: Rules) -> str:
    return f"{english} ({VIETNAMESE_TERMS[key]})" if is_mau_binh(rules) else english


def hand_name(key: str) -> str:
    """A royalty table key for people: "full_house" is "full house", "pair_Q" "pair of queens"."""
    category, _, rank = key.partition("_")
    if rank in RANK_NAMES and category in ("pair", "trips"):
        return f"{category} of {RANK_NAMES[rank]}"
    return key.replace("_", " ")


def _units(value: Decimal) -> str:
    text = decimal_text(value)
    return f"{text} unit" if value == 1 else f"{text} units"


def _ranked_run(entries: list[tuple[str, Decimal]]) -> str | None:
    """ "pair of sixes 1 up to pair of aces 9" when the entries are one category over
    consecutive ranks, each worth one more than the last; None otherwise."""
    if len(entries) < 3:
        return None
    categories = {key.partition("_")[0] for key, _ in entries}
    ranks = [RANK_CHARS.find(key.partition("_")[2]) for key, _ in entries]
    values = [value for _, value in entries]
    steps_of_one = all(b - a == 1 for a, b in itertools.pairwise(ranks)) and all(
        b - a == 1 for a, b in itertools.pairwise(values)
    )
    if len(categories) != 1 or min(ranks) < 0 or not steps_of_one:
        return None
    (first, low), (last, high) = entries[0], entries[-1]
    return f"{hand_name(first)} {decimal_text(low)} up to {hand_name(last)} {decimal_text(high)}"


def _royalty_entries(entries: Mapping[str, Decimal]) -> str:
    """A row's royalty table, runs of ranked entries (open-face fronts) shortened."""
    plain: list[str] = []
    ranked: dict[str, list[tuple[str, Decimal]]] = {}
    for key, value in entries.items():
        category, _, rank = key.partition("_")
        if rank and category in ("pair", "trips"):
            ranked.setdefault(category, []).append((key, value))
        else:
            plain.append(f"{hand_name(key)} {decimal_text(value)}")
    for run in ranked.values():
        short = _ranked_run(run)
        plain += [short] if short else [f"{hand_name(k)} {decimal_text(v)}" for k, v in run]
    return ", ".join(plain)


def _royalty_rows(rules: Rules) -> list[str]:
    return [
        f"{row} {_royalty_entries(rules.royalties[row])}" for row in ROWS if rules.royalties[row]
    ]


def _describe_rows_game(rules: Rules) -> list[str]:
    """The options shared by Chinese poker, Mau Binh and open-face."""
    lines = []
    if rules.bonus == "1-6":
        scoop = f" ({VIETNAMESE_TERMS['scoop']})" if is_mau_binh(rules) else ""
        lines.append(
            "Scoring 1-6: one unit per row won, minus one per row lost; winning all three "
            f"rows against an opponent{scoop} doubles it."
        )
    elif rules.bonus == "2-4":
        lines.append(
            "Scoring 2-4: one unit per row, plus one to whoever won more rows "
            "(two rows of three pay 2, all three pay 4)."
        )
    else:
        lines.append("Scoring: one unit per row won, minus one per row lost; no bonus.")
    if rules.scoop_all_multiplier is not None:
        fouled = " (a fouled opponent counts as scooped)" if rules.foul_counts_as_scoop else ""
        lines.append(
            f"At a table of four, scooping all three opponents "
            f"({VIETNAMESE_TERMS['scoop_all'] if is_mau_binh(rules) else 'scooping the table'})"
            f" multiplies each of them by {decimal_text(rules.scoop_all_multiplier)}{fouled}."
        )
    if rules.middle == "lowball-2-7":
        lines.append(
            "Middle row plays 2-7 lowball: the lowest hand wins, aces high, no straight "
            "A-2-3-4-5; a hand fouls only when the front beats the back."
        )
    wheel = "the lowest straight" if rules.wheel == "low" else "the second-highest straight"
    lines.append(f"A-2-3-4-5 is {wheel}.")

    table = _royalty_rows(rules)
    if not table:
        lines.append("No royalties.")
    elif rules.royalty_mode == "always":
        lines.append("Royalties, paid by each opponent whatever the row: " + "; ".join(table) + ".")
    else:
        lines.append(
            "A winning row is worth its special value instead of 1 (scoops multiply it too): "
            + "; ".join(table)
            + "."
        )
    if table and rules.royalty_best_only:
        lines.append("In each row only the best qualifying hand collects its royalty.")
    if table and rules.royalties_declared:
        lines.append("A royalty counts only on the rows its player declared before the reveal.")

    foul = _term("A fouled hand", "foul", rules)
    if rules.foul_penalty == "sweep":
        penalty = f"{foul} pays each live opponent as if scooped"
    else:
        penalty = f"{foul} pays {_units(rules.foul_penalty)} to each live opponent"
    if table and rules.foul_pays_royalties and rules.royalty_mode == "always":
        penalty += ", plus their royalties"
    lines.append(penalty + ".")
    if rules.fouled_hand == "played":
        lines.append(
            "After its penalty a fouled hand that was shown is still played row by row: one"
            " unit a row and the scoring bonus, without royalties."
        )

    if rules.surrender_cost is None:
        lines.append("Surrender is not allowed.")
    else:
        lines.append(
            f"Surrender allowed: it costs {_units(rules.surrender_cost)} to each opponent "
            "who did not surrender."
        )
    return lines


def _describe_naturals(rules: Rules) -> list[str]:
    allowed = [(name, value) for name, value in rules.naturals.items() if value is not None]
    if not allowed:
        return ["No naturals."]
    listed = ", ".join(f"{natural_name(name, rules)} {decimal_text(v)}" for name, v in allowed)
    heading = _term("Naturals", "natural", rules)
    lines = [f"{heading}, declared with the hand and paid by every opponent: {listed}."]
    if rules.false_natural_penalty is None:
        lines.append("A natural the cards do not make is refused.")
    else:
        lines.append(
            "A false declaration fouls the hand and pays "
            f"{_units(rules.false_natural_penalty)} to each opponent."
        )
    if rules.natural_ranking == "order":
        lines.append(
            "Two naturals: the one higher in the table above is paid its value, even at the"
            " same value; two of one kind pay nothing."
        )
    else:
        lines.append("Two naturals: the higher value is paid; equal values pay nothing.")
    if not rules.natural_collects_from_surrendered and rules.surrender_cost is not None:
        lines.append("A surrendered player pays a natural only the surrender cost.")
    return lines


def _describe_fantasyland(rules: Rules) -> list[str]:
    if rules.fantasyland_cards is None:
        return ["No fantasy land."]
    if rules.progressive:
        cards = "progressive: queens 14 cards, kings 15, aces 16, trips 17"
    else:
        cards = f"{rules.fantasyland_cards} cards"
    return [
        "Fantasy land for queens or better in the front without a foul "
        f"({cards}); staying in with trips in front, a full house in the middle or quads "
        "in the back."
    ]


def _describe_big_two(rules: Rules) -> list[str]:
    lines = ["Each loser pays the winner one unit per card left in hand."]
    for threshold, factor in rules.multipliers:
        lines.append(f"{threshold} or more cards left: x{decimal_text(factor)}.")
    if rules.two_multiplier is not None:
        lines.append(
            f"Each 2 still held multiplies that loser's payment by "
            f"{decimal_text(rules.two_multiplier)}."
        )
    if rules.losers_settle:
        lines.append("Losers also settle the difference of their penalties among themselves.")
    if rules.target_score is not None:
        lines.append(
            f"The session ends when a player's loss reaches {decimal_text(rules.target_score)}."
        )
    return lines


def describe_rules(rules: Rules) -> list[str]:
    """The rules in force as short plain sentences, most important first.

    The first names the game and the preset; then scoring, royalties, fouls, surrender and
    naturals (or fantasy land, or Big Two's payments). Every number is the rule set's own.
    """
    lines = [f"{game_name(rules)}, preset {rules.preset}, up to {rules.max_players} players."]
    game = GAMES[rules.game]
    if not game.rows:
        return lines + _describe_big_two(rules)
    lines += _describe_rows_game(rules)
    if game.has_fantasyland:
        lines += _describe_fantasyland(rules)
        if rules.pineapple:
            lines.append("Pineapple: each hand discards four cards; fantasy land keeps 13.")
    if game.has_naturals:
        lines += _describe_naturals(rules)
        if rules.criss_cross:
            lines.append(OPTIONS_BY_NAME["criss_cross"].sentence)
    return lines
