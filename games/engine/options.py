"""The options of a rule set, one entry each: the single table of what an option is.

Each ``Option`` names a field of ``rules.Rules`` (other than ``preset`` and ``game``), the
kind of value it takes with its bounds or choices, the games it applies to, a short title
and one sentence that explain it to people (and a title for each word of a choice), marked
for translation here (``gettext_noop``) and nowhere else. The engine validates overrides from it
(``validate``), ``OPTIONS_BY_GAME`` is read from it, the owners' rules form
(``games.web.rules_form``) is built from it and the rules text (``games.rules_text``)
quotes it. Defaults are not here: each preset fixes them (``rules.PRESETS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final, Literal, get_args

from .tables import NATURAL_TABLES, ROYALTY_TABLES, Game

# bool: true or false. choice: one of ``choices``. table: the name of a table (``choices``)
# or a mapping that updates the preset's table. number-or-none / number-or-sweep: a number
# of at least ``minimum``, or null / "sweep". int / int-or-none: a whole number within
# ``whole``, or null. multipliers: [cards left, multiplier] pairs, cards left within
# ``whole`` and each multiplier at least ``minimum``.
Kind = Literal[
    "bool",
    "choice",
    "table",
    "number-or-none",
    "number-or-sweep",
    "int",
    "int-or-none",
    "multipliers",
]

GAME_KEYS: Final[tuple[Game, ...]] = get_args(Game)
_ROWS_GAMES: Final[frozenset[Game]] = frozenset({"chinese", "open-face"})
_CHINESE: Final[frozenset[Game]] = frozenset({"chinese"})
_OPEN_FACE: Final[frozenset[Game]] = frozenset({"open-face"})
_BIG_TWO: Final[frozenset[Game]] = frozenset({"big-two"})
_EVERY_GAME: Final[frozenset[Game]] = frozenset(GAME_KEYS)

# The named tables of each ``table`` option.
TABLES: Final[Mapping[str, Mapping[str, Any]]] = {
    "royalties": ROYALTY_TABLES,
    "naturals": NATURAL_TABLES,
}


@dataclass(frozen=True)
class Bounds:
    """How large and how fine a number may be when rules are set: at most ``maximum``,
    with at most ``places`` decimal places. Within them every deal's units are kept
    exactly by the ledger (see ``docs/rules.md``); stored rules are read without them."""

    maximum: Decimal
    places: int


# A rule amount (a penalty, a royalty, a natural's value): 0 to 100 in steps of 0.1.
AMOUNT: Final = Bounds(Decimal(100), 1)


def gettext_noop(message: str) -> str:
    """``message`` itself, marked for the translators: ``makemessages`` collects the
    strings given to a function of this name (the engine has no Django). The pages
    translate them when they show them (``games.rules_text.option_sentence`` and
    ``option_title``)."""
    return message


@dataclass(frozen=True)
class Option:
    """One option of the rule book."""

    name: str
    kind: Kind
    games: frozenset[Game]
    # What people call it (the rules form labels its field with it), in English: translated
    # where it is shown (``games.rules_text.option_title``).
    title: str
    # What it does, for people (the owners' rules form shows it), in English: translated
    # and filled in with ``values`` where it is shown (``games.rules_text``).
    sentence: str
    choices: tuple[str, ...] = ()  # choice: its values; table: the names of its tables
    # choice: what people read for each of ``choices``, in their order (the value stays the
    # key); a table's choices are names, shown as they are.
    choice_titles: tuple[str, ...] = ()
    minimum: Decimal = Decimal(0)  # number kinds, and each multiplier: the least allowed
    whole: tuple[int, int] = (0, 0)  # int kinds, and multipliers' cards left: from, to
    in_form: bool = True  # offered on the owners' rules form
    # Number kinds, each entry of a table and each multiplier: the bounds when set.
    bounds: Bounds | None = None

    def choice_title(self, value: str) -> str | None:
        """The title of one of a choice option's values, in English; None for any other."""
        titles = dict(zip(self.choices, self.choice_titles, strict=False))
        return titles.get(value)

    @property
    def values(self) -> dict[str, object]:
        """What the sentence's placeholders name: the least and the most whole number."""
        return {"least": self.whole[0], "most": self.whole[1]}

    @property
    def text(self) -> str:
        """The sentence in English, filled in."""
        return self.sentence % self.values

    @property
    def form_kind(self) -> str:
        """The kind of field on the rules form: a table is picked by its name there."""
        return "choice" if self.kind == "table" else self.kind


OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        "wheel",
        "choice",
        _ROWS_GAMES,
        gettext_noop("Wheel (A-2-3-4-5)"),
        gettext_noop("A-2-3-4-5 is the lowest straight, or ranks just below T-J-Q-K-A."),
        ("low", "second"),
        choice_titles=(gettext_noop("Lowest straight"), gettext_noop("Second highest straight")),
    ),
    Option(
        "middle",
        "choice",
        _CHINESE,
        gettext_noop("Middle row"),
        gettext_noop("The middle row is a normal hand, or 2-7 lowball where the lowest wins."),
        ("standard", "lowball-2-7"),
        choice_titles=(gettext_noop("Normal hand"), gettext_noop("2-7 lowball")),
    ),
    Option(
        "bonus",
        "choice",
        _ROWS_GAMES,
        gettext_noop("Bonus (1-6 or 2-4)"),
        gettext_noop(
            "1-6 doubles a scoop of all three rows; 2-4 gives +1 to whoever won more rows."
        ),
        ("1-6", "2-4", "none"),
        choice_titles=(
            gettext_noop("1-6 scoring"),
            gettext_noop("2-4 scoring"),
            gettext_noop("No bonus"),
        ),
    ),
    Option(
        "scoop_all_multiplier",
        "number-or-none",
        _ROWS_GAMES,
        gettext_noop("Whole-table scoop multiplier"),
        gettext_noop(
            "With 1-6 at four players, scooping all three opponents multiplies by this"
            " instead of 2."
        ),
        minimum=Decimal(1),
        bounds=Bounds(Decimal(10), 0),
    ),
    Option(
        "foul_counts_as_scoop",
        "bool",
        _ROWS_GAMES,
        gettext_noop("Foul counts as scooped"),
        gettext_noop("Whether a fouled opponent counts as scooped for the multiplier above."),
    ),
    Option(
        "royalties",
        "table",
        _ROWS_GAMES,
        gettext_noop("Royalty table"),
        gettext_noop("Which royalty table pays bonuses for strong rows."),
        tuple(ROYALTY_TABLES),
        bounds=AMOUNT,
    ),
    Option(
        "royalty_mode",
        "choice",
        _ROWS_GAMES,
        gettext_noop("Who pays royalties"),
        gettext_noop(
            "Royalties are paid by every opponent, or a winning row is worth its royalty."
        ),
        ("always", "row_win"),
        choice_titles=(gettext_noop("Every opponent"), gettext_noop("The winning row")),
    ),
    Option(
        "royalty_best_only",
        "bool",
        _ROWS_GAMES,
        gettext_noop("Best royalty only"),
        gettext_noop("Only the best qualifying hand in each row collects its royalty."),
    ),
    Option(
        "foul_penalty",
        "number-or-sweep",
        _ROWS_GAMES,
        gettext_noop("Foul penalty"),
        gettext_noop(
            "A fouled hand pays as if scooped (sweep), or this many units to each live opponent."
        ),
        bounds=AMOUNT,
    ),
    Option(
        "foul_pays_royalties",
        "bool",
        _ROWS_GAMES,
        gettext_noop("Foul pays royalties"),
        gettext_noop("A fouled player also pays opponents their royalties."),
    ),
    Option(
        "fouled_hand",
        "choice",
        _ROWS_GAMES,
        gettext_noop("Fouled hand"),
        gettext_noop(
            "A fouled hand shown is forfeited, or after its penalty still played row by row."
        ),
        ("forfeit", "played"),
        choice_titles=(gettext_noop("Forfeited"), gettext_noop("Played row by row")),
    ),
    Option(
        "royalties_declared",
        "bool",
        _ROWS_GAMES,
        gettext_noop("Royalties declared"),
        gettext_noop("A royalty counts only on the rows the player declared before the reveal."),
    ),
    Option(
        "surrender_cost",
        "number-or-none",
        _ROWS_GAMES,
        gettext_noop("Surrender cost"),
        gettext_noop(
            "Units a surrendering player pays each opponent; none means surrender is not allowed."
        ),
        bounds=AMOUNT,
    ),
    Option(
        "max_players",
        "int",
        _EVERY_GAME,
        gettext_noop("Most players"),
        gettext_noop("The most players at one deal (%(least)s to %(most)s)."),
        whole=(2, 4),
    ),
    Option(
        "naturals",
        "table",
        _CHINESE,
        gettext_noop("Naturals table"),
        gettext_noop("Which naturals (special 13-card hands) count and what they pay."),
        tuple(NATURAL_TABLES),
        bounds=AMOUNT,
    ),
    Option(
        "false_natural_penalty",
        "number-or-none",
        _CHINESE,
        gettext_noop("False natural penalty"),
        gettext_noop(
            "What a false natural declaration pays each opponent; none rejects the declaration."
        ),
        bounds=AMOUNT,
    ),
    Option(
        "natural_collects_from_surrendered",
        "bool",
        _CHINESE,
        gettext_noop("Natural against a surrender"),
        gettext_noop(
            "A natural collects its value from a surrendered player too (else the surrender cost)."
        ),
    ),
    Option(
        "natural_ranking",
        "choice",
        _CHINESE,
        gettext_noop("Two naturals"),
        gettext_noop(
            "Two naturals: the higher value is paid, or the higher kind in the Mau Binh order."
        ),
        ("value", "order"),
        choice_titles=(gettext_noop("Higher value"), gettext_noop("Higher kind")),
    ),
    Option(
        "ace_bonus",
        "number-or-none",
        _CHINESE,
        gettext_noop("Ace bonus (Chi Á)"),
        gettext_noop(
            "Chi Á: between two players who played rows, the one with more aces collects this"
            " per ace of the difference; none turns it off."
        ),
        bounds=AMOUNT,
    ),
    Option(
        "criss_cross",
        "bool",
        _CHINESE,
        gettext_noop("Criss Cross"),
        gettext_noop("Criss Cross: two players, two hands each; each hand plays the one opposite."),
        in_form=False,
    ),
    Option(
        "fantasyland_cards",
        "int-or-none",
        _OPEN_FACE,
        gettext_noop("Fantasy land cards"),
        gettext_noop(
            "Cards dealt to a player in fantasy land (%(least)s-%(most)s); none turns fantasy land"
            " off."
        ),
        whole=(13, 17),
    ),
    Option(
        "pineapple",
        "bool",
        _OPEN_FACE,
        gettext_noop("Pineapple"),
        gettext_noop(
            "Pineapple: cards come three at a time, one of each three discarded (four a hand)."
        ),
    ),
    Option(
        "progressive",
        "bool",
        _OPEN_FACE,
        gettext_noop("Progressive fantasy land"),
        gettext_noop("Progressive fantasy land: QQ 14, KK 15, AA 16, trips 17 cards."),
    ),
    Option(
        "button_stays_in_fantasyland",
        "bool",
        _OPEN_FACE,
        gettext_noop("Button stays after fantasy land"),
        gettext_noop(
            "The dealer button stays put after a deal in which anyone played in fantasy land."
        ),
    ),
    Option(
        "multipliers",
        "multipliers",
        _BIG_TWO,
        gettext_noop("Cards-left multipliers"),
        gettext_noop("Big Two: many cards left multiply the payment, e.g. 10:2, 13:3."),
        minimum=Decimal(1),
        whole=(1, 13),
        bounds=Bounds(Decimal(5), 1),
    ),
    Option(
        "two_multiplier",
        "number-or-none",
        _BIG_TWO,
        gettext_noop("Multiplier per 2 held"),
        gettext_noop("Big Two: each 2 still held multiplies that payment."),
        minimum=Decimal(1),
        bounds=Bounds(Decimal(3), 0),
    ),
    Option(
        "two_bonus",
        "number-or-none",
        _BIG_TWO,
        gettext_noop("Bonus per 2 held"),
        gettext_noop(
            "Big Two: each 2 still held adds this many units to that payment, after the"
            " multipliers; none turns it off."
        ),
        bounds=AMOUNT,
    ),
    Option(
        "losers_settle",
        "bool",
        _BIG_TWO,
        gettext_noop("Losers settle"),
        gettext_noop("Big Two: losers also settle the difference of their penalties."),
    ),
    Option(
        "target_score",
        "number-or-none",
        _BIG_TWO,
        gettext_noop("Target score"),
        gettext_noop("Big Two: the session ends when a loss reaches this."),
        bounds=Bounds(Decimal(1_000_000), 1),
    ),
)

OPTIONS_BY_NAME: Final[Mapping[str, Option]] = {option.name: option for option in OPTIONS}

OPTIONS_BY_GAME: Final[dict[Game, frozenset[str]]] = {
    game: frozenset(option.name for option in OPTIONS if game in option.games) for game in GAME_KEYS
}
