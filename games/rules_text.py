"""The rules in force, in plain language, for the sheets and the pages.

Everything is read from the engine's ``Rules`` (what ``Rules.to_mapping()`` spells out), so
the description can never disagree with how the deals were scored. Each sentence is one
message of the catalogue, its numbers and names as named placeholders, so that a language
reads it as a whole sentence; an option's own sentence is the engine's, translated here
(``option_sentence``), as are its title and its choices' (``option_title``,
``choice_title``). Mau Binh rule sets read in English get the Vietnamese names of
their hands and terms beside the English ones (in Vietnamese the table's words are the text).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from decimal import Decimal

from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _

from games.engine.cards import RANK_CHARS
from games.engine.foul_cost import foul_cost
from games.engine.games import GAMES
from games.engine.options import OPTIONS_BY_NAME
from games.engine.rules import ROWS, Rules, decimal_text
from games.present import game_name, is_mau_binh, natural_name, units

# Mau Binh words for a scoop, a scoop of the whole table, a foul and an instant win.
VIETNAMESE_TERMS: Mapping[str, str] = {
    "scoop": "sập ba chi",
    "scoop_all": "sập làng",
    "foul": "binh lủng",
    "natural": "mậu binh trắng",
    "aces": "chi Á",
}

RANK_NAMES = {
    "2": gettext_noop("twos"),
    "3": gettext_noop("threes"),
    "4": gettext_noop("fours"),
    "5": gettext_noop("fives"),
    "6": gettext_noop("sixes"),
    "7": gettext_noop("sevens"),
    "8": gettext_noop("eights"),
    "9": gettext_noop("nines"),
    "T": gettext_noop("tens"),
    "J": gettext_noop("jacks"),
    "Q": gettext_noop("queens"),
    "K": gettext_noop("kings"),
    "A": gettext_noop("aces"),
}
assert set(RANK_NAMES) == set(RANK_CHARS)

# The hands a royalty table names, as people call them.
HAND_NAMES = {
    "pair": gettext_noop("pair"),
    "two_pair": gettext_noop("two pair"),
    "trips": gettext_noop("trips"),
    "straight": gettext_noop("straight"),
    "flush": gettext_noop("flush"),
    "full_house": gettext_noop("full house"),
    "quads": gettext_noop("quads"),
    "straight_flush": gettext_noop("straight flush"),
    "royal_flush": gettext_noop("royal flush"),
}


def option_sentence(name: str) -> str:
    """What the option ``name`` does, in the language being rendered: its sentence in the
    engine's table (``games.engine.options``, where it is marked for the translators),
    translated, then filled in with the option's own bounds."""
    option = OPTIONS_BY_NAME[name]
    return _(option.sentence) % option.values


def option_title(name: str) -> str:
    """What people call the option ``name`` ("Scoring bonus"), in the language being
    rendered: its title in the engine's table, translated."""
    return _(OPTIONS_BY_NAME[name].title)


def choice_title(name: str, value: object) -> str | None:
    """One value of a choice option as people read it ("No bonus" for the bonus's "none"),
    in the language being rendered; None when ``value`` is not one of its choices."""
    title = OPTIONS_BY_NAME[name].choice_title(value) if isinstance(value, str) else None
    return _(title) if title is not None else None


def _term(key: str, rules: Rules) -> str:
    """The Mau Binh word beside the English one, " (binh lủng)"; "" in Vietnamese, where the
    sentence already says it, and outside Mau Binh."""
    vietnamese = (get_language() or "").startswith("vi")
    return f" ({VIETNAMESE_TERMS[key]})" if is_mau_binh(rules) and not vietnamese else ""


def hand_name(key: str) -> str:
    """A royalty table key for people: "full_house" is "full house", "pair_Q" "pair of queens"."""
    category, _sep, rank = key.partition("_")
    if rank in RANK_NAMES and category in ("pair", "trips"):
        names = {"pair": _("pair of %(rank)s"), "trips": _("trips of %(rank)s")}
        return names[category] % {"rank": _(RANK_NAMES[rank])}
    if key in HAND_NAMES:
        return _(HAND_NAMES[key])
    if rank in RANK_NAMES and category in HAND_NAMES:
        return f"{_(HAND_NAMES[category])} {rank}"
    return key.replace("_", " ")


def _units(value: Decimal) -> str:
    count = 1 if value == 1 else 2
    return ngettext("%(n)s unit", "%(n)s units", count) % {"n": units(value)}


def _ranked_run(entries: list[tuple[str, Decimal]]) -> str | None:
    """ "pair of sixes 1 up to pair of aces 9" when the entries are one category over
    consecutive ranks, each worth one more than the last; None otherwise."""
    if len(entries) < 3:
        return None
    categories = {key.partition("_")[0] for key, _v in entries}
    ranks = [RANK_CHARS.find(key.partition("_")[2]) for key, _v in entries]
    values = [value for _k, value in entries]
    steps_of_one = all(b - a == 1 for a, b in itertools.pairwise(ranks)) and all(
        b - a == 1 for a, b in itertools.pairwise(values)
    )
    if len(categories) != 1 or min(ranks) < 0 or not steps_of_one:
        return None
    (first, low), (last, high) = entries[0], entries[-1]
    return _("%(first)s %(low)s up to %(last)s %(high)s") % {
        "first": hand_name(first),
        "low": units(low),
        "last": hand_name(last),
        "high": units(high),
    }


def _royalty_entries(entries: Mapping[str, Decimal]) -> str:
    """A row's royalty table, runs of ranked entries (open-face fronts) shortened."""
    plain: list[str] = []
    ranked: dict[str, list[tuple[str, Decimal]]] = {}
    for key, value in entries.items():
        category, _sep, rank = key.partition("_")
        if rank and category in ("pair", "trips"):
            ranked.setdefault(category, []).append((key, value))
        else:
            plain.append(_worth(key, value))
    for run in ranked.values():
        short = _ranked_run(run)
        plain += [short] if short else [_worth(k, v) for k, v in run]
    return ", ".join(plain)


def _worth(key: str, value: Decimal) -> str:
    """A royalty table's entry: "full house 12"."""
    return _("%(hand)s %(value)s") % {"hand": hand_name(key), "value": decimal_text(value)}


def _royalty_rows(rules: Rules) -> list[str]:
    return [
        _("%(row)s %(hands)s") % {"row": _(row), "hands": _royalty_entries(rules.royalties[row])}
        for row in ROWS
        if rules.royalties[row]
    ]


def _scoring(rules: Rules) -> list[str]:
    """How rows are paid, and what a scoop of the whole table is worth."""
    lines = []
    if rules.bonus == "1-6":
        lines.append(
            _(
                "Scoring 1-6: one unit per row won, minus one per row lost; winning all three "
                "rows against an opponent%(term)s doubles it."
            )
            % {"term": _term("scoop", rules)}
        )
    elif rules.bonus == "2-4":
        lines.append(
            _(
                "Scoring 2-4: one unit per row, plus one to whoever won more rows "
                "(two rows of three pay 2, all three pay 4)."
            )
        )
    else:
        lines.append(_("Scoring: one unit per row won, minus one per row lost; no bonus."))
    if rules.scoop_all_multiplier is not None:
        values = {
            "name": VIETNAMESE_TERMS["scoop_all"]
            if is_mau_binh(rules)
            else _("scooping the table"),
            "multiplier": units(rules.scoop_all_multiplier),
        }
        if rules.foul_counts_as_scoop:
            text = _(
                "At a table of four, scooping all three opponents (%(name)s) multiplies each "
                "of them by %(multiplier)s (a fouled opponent counts as scooped)."
            )
        else:
            text = _(
                "At a table of four, scooping all three opponents (%(name)s) multiplies each "
                "of them by %(multiplier)s."
            )
        lines.append(text % values)
    if rules.middle == "lowball-2-7":
        lines.append(
            _(
                "Middle row plays 2-7 lowball: the lowest hand wins, aces high, no straight "
                "A-2-3-4-5; a hand fouls only when the front beats the back."
            )
        )
    if rules.wheel == "low":
        lines.append(_("A-2-3-4-5 is the lowest straight."))
    else:
        lines.append(_("A-2-3-4-5 is the second-highest straight."))
    return lines


def _royalties(rules: Rules, table: list[str]) -> list[str]:
    if not table:
        return [_("No royalties.")]
    values = {"table": "; ".join(table)}
    if rules.royalty_mode == "always":
        lines = [_("Royalties, paid by each opponent whatever the row: %(table)s.") % values]
    else:
        lines = [
            _(
                "A winning row is worth its special value instead of 1 (scoops multiply it "
                "too): %(table)s."
            )
            % values
        ]
    if rules.royalty_best_only:
        lines.append(_("In each row only the best qualifying hand collects its royalty."))
    if rules.royalties_declared:
        lines.append(_("A royalty counts only on the rows its player declared before the reveal."))
    return lines


def _fouls_and_surrender(rules: Rules, table: list[str]) -> list[str]:
    term = _term("foul", rules)
    plus_royalties = bool(table) and rules.foul_pays_royalties and rules.royalty_mode == "always"
    if rules.foul_penalty == "sweep":
        if plus_royalties:
            text = _(
                "A fouled hand%(term)s pays each live opponent as if scooped, plus their royalties."
            )
        else:
            text = _("A fouled hand%(term)s pays each live opponent as if scooped.")
        lines = [text % {"term": term}]
    else:
        if plus_royalties:
            text = _(
                "A fouled hand%(term)s pays %(units)s to each live opponent, plus their royalties."
            )
        else:
            text = _("A fouled hand%(term)s pays %(units)s to each live opponent.")
        lines = [text % {"term": term, "units": _units(rules.foul_penalty)}]
    if rules.fouled_hand == "played":
        lines.append(
            _(
                "After its penalty a fouled hand that was shown is still played row by row: "
                "one unit a row and the scoring bonus, without royalties."
            )
        )
    if rules.ace_bonus is not None:
        lines.append(
            _(
                "Aces%(term)s: between two players who played rows (fouled hands too), the one "
                "holding more aces collects %(units)s per ace of the difference; no scoop "
                "multiplies it."
            )
            % {"term": _term("aces", rules), "units": _units(rules.ace_bonus)}
        )
    if rules.surrender_cost is None:
        lines.append(_("Surrender is not allowed."))
    else:
        lines.append(
            _("Surrender allowed: it costs %(units)s to each opponent who did not surrender.")
            % {"units": _units(rules.surrender_cost)}
        )
    return lines


def _describe_rows_game(rules: Rules) -> list[str]:
    """The options shared by Chinese poker, Mau Binh and open-face."""
    table = _royalty_rows(rules)
    return _scoring(rules) + _royalties(rules, table) + _fouls_and_surrender(rules, table)


def _describe_naturals(rules: Rules) -> list[str]:
    allowed = [(name, value) for name, value in rules.naturals.items() if value is not None]
    if not allowed:
        return [_("No naturals.")]
    listed = ", ".join(f"{natural_name(name, rules)} {decimal_text(v)}" for name, v in allowed)
    lines = [
        _("Naturals%(term)s, declared with the hand and paid by every opponent: %(list)s.")
        % {"term": _term("natural", rules), "list": listed}
    ]
    if rules.false_natural_penalty is None:
        lines.append(_("A natural the cards do not make is refused."))
    else:
        lines.append(
            _("A false declaration fouls the hand and pays %(units)s to each opponent.")
            % {"units": _units(rules.false_natural_penalty)}
        )
    if rules.natural_ranking == "order":
        lines.append(
            _(
                "Two naturals: the one higher in the table above is paid its value, even at "
                "the same value; two of one kind pay nothing."
            )
        )
    else:
        lines.append(_("Two naturals: the higher value is paid; equal values pay nothing."))
    if not rules.natural_collects_from_surrendered and rules.surrender_cost is not None:
        lines.append(_("A surrendered player pays a natural only the surrender cost."))
    return lines


def _describe_fantasyland(rules: Rules) -> list[str]:
    if rules.fantasyland_cards is None:
        return [_("No fantasy land.")]
    if rules.progressive:
        cards = _("progressive: queens 14 cards, kings 15, aces 16, trips 17")
    else:
        cards = _("%(n)s cards") % {"n": rules.fantasyland_cards}
    lines = [
        _(
            "Fantasy land for queens or better in the front without a foul (%(cards)s); "
            "staying in with trips in front, a full house in the middle or quads in the back."
        )
        % {"cards": cards}
    ]
    if rules.button_stays_in_fantasyland:
        lines.append(
            _("The dealer button stays put after a deal in which anyone played in fantasy land.")
        )
    return lines


def _describe_big_two(rules: Rules) -> list[str]:
    lines = [_("Each loser pays the winner one unit per card left in hand.")]
    for threshold, factor in rules.multipliers:
        lines.append(
            _("%(threshold)s or more cards left: x%(factor)s.")
            % {"threshold": threshold, "factor": units(factor)}
        )
    if rules.two_multiplier is not None:
        lines.append(
            _("Each 2 still held multiplies that loser's payment by %(factor)s.")
            % {"factor": units(rules.two_multiplier)}
        )
    if rules.two_bonus is not None:
        lines.append(
            _("Each 2 still held adds %(units)s to that loser's payment, after the multipliers.")
            % {"units": _units(rules.two_bonus)}
        )
    if not rules.losers_settle:  # (pays_for_all is refused with losers_settle)
        lines.append(
            _(
                "A loser who let the winner go out may be marked to pay for all: that loser "
                "pays the winner every loser's payment, and the others pay nothing."
            )
        )
    if rules.losers_settle:
        lines.append(_("Losers also settle the difference of their penalties among themselves."))
    if rules.target_score is not None:
        lines.append(
            _("The session ends when a player's loss reaches %(target)s.")
            % {"target": units(rules.target_score)}
        )
    return lines


def describe_rules(rules: Rules) -> list[str]:
    """The rules in force as short plain sentences, most important first, in the language
    being rendered.

    The first names the game and the preset; then scoring, royalties, fouls, surrender and
    naturals (or fantasy land, or Big Two's payments). Every number is the rule set's own.
    """
    lines = [
        _("%(game)s, preset %(preset)s, up to %(players)s players.")
        % {"game": game_name(rules), "preset": rules.preset, "players": rules.max_players}
    ]
    game = GAMES[rules.game]
    if not game.rows:
        return lines + _describe_big_two(rules)
    lines += _describe_rows_game(rules)
    if game.has_fantasyland:
        lines += _describe_fantasyland(rules)
        if rules.pineapple:
            lines.append(_("Pineapple: each hand discards four cards; fantasy land keeps 13."))
    if game.has_naturals:
        lines += _describe_naturals(rules)
        if rules.criss_cross:
            lines.append(option_sentence("criss_cross"))
    return lines


def foul_warning(rules: Rules) -> str | None:
    """The owner's warning when a fouled hand costs less than a scooped one under these
    rules (the engine scores one of each: ``games.engine.foul_cost``), else None."""
    cost = foul_cost(rules)
    if cost is None or not cost.foul_is_cheaper:
        return None
    return _(
        "Under these rules a fouled hand costs less than a scooped one: heads-up with no"
        " royalties in play, a foul pays %(foul)s and a scoop %(scoop)s, so a player"
        " about to be scooped loses less by fouling on purpose. A foul_penalty of “sweep”"
        " makes a foul cost what a scoop costs."
    ) % {"foul": _units(cost.foul), "scoop": _units(cost.scoop)}
