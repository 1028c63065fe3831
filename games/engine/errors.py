"""The one exception type the engine raises for bad input, and what it says.

Every refusal is a message: a code ("row_size") and the arguments that fill it (the
player, the row, the numbers). ``REFUSALS`` holds each code's English, the engine's own
words; the pages and the API render the same codes in the reader's language
(``games.words``). An argument may itself be a message (the card error inside "Ann,
front: ..."), rendered the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final, Self, TypedDict


class Message(TypedDict):
    """Words of the engine as a code and its arguments (see ``messages``)."""

    code: str
    args: dict[str, Any]


# Each code's English, filled in with ``str.format`` from its arguments. A value the
# player typed is given as its ``repr`` (``value``, ``field``, ``name``); a list is joined
# with commas. ``who`` is a player's name or, for a part of the request, a ``subject_*``.
REFUSALS: Final[Mapping[str, str]] = {
    # Subjects: what an error is about, when it is not a player.
    "subject_request": "request",
    "subject_the_request": "the request",
    "subject_player_number": "player {number}",
    "subject_stakes": "stakes",
    "subject_pair_stake": "a pair's stake",
    "subject_hand_of": "{who}'s hand {number}",
    "subject_player_hand": "{who} (hand {number})",
    # Cards that cannot be read.
    "unknown_rank": "unknown rank {rank!r} in {text!r}",
    "no_suit": "{card!r} has no suit",
    "unknown_suit": "unknown suit {suit!r} in {text!r}",
    "cards_unreadable": "{part}: {reason}",
    "player_cards_unreadable": "{who}, {part}: {reason}",
    "cards_not_text": "{part}: expected a card string, got {kind}",
    "player_cards_not_text": "{who}, {part}: expected a card string, got {kind}",
    "one_card": "card: expected one card, got {value}",
    "duplicate_card": "card {card} appears twice: {first_who}'s {first_place} and {who}'s {place}",
    # The request and its players.
    "not_object": "{what} must be an object",
    "unknown_field": "{who}: unknown field {field} (allowed: {allowed})",
    "rules_required": "rules: a preset name or {{'preset': ..., options}} is required",
    "players_required": "players: a list of 2 to 4 players is required",
    "players_exactly": (
        "players: this deal needs exactly {most} players under {preset}, got {count}"
    ),
    "players_between": (
        "players: this deal needs {fewest} to {most} players under {preset}, got {count}"
    ),
    "name_required": "player {number}: a name is required",
    "name_twice": "two players are named {name}",
    "stakes_pairs_list": "stakes.pairs must be a list",
    "stakes_pair_players": "{path}: players must name two players of this deal",
    "not_a_number": "{path}: expected a number, got {value}",
    "negative_number": "{path}: expected a number of at least 0, got {value}",
    # A 13-card hand.
    "row_missing": "{who}: the {row} row is missing",
    "row_size": "{who}, {row}: {count} cards given ({cards}), the {row} row needs {size}",
    "rows_all_or_none": "{who}: give all three rows or none",
    "criss_cross_hands": "{who}: Criss Cross needs two hands",
    "natural_not_made": "{who} declared {natural}, but the cards do not make it",
    "natural_not_settable": "{who} declared {natural}, but no setting of the 13 cards makes it",
    "natural_unknown": "{who}: unknown natural {value} (known: {known})",
    "natural_not_counted": "{who} declared {natural}, which these rules do not count as a natural",
    "natural_size": "{who}, cards: {count} cards given ({cards}), a natural needs 13",
    "cards_without_natural": "{who}: the 13 cards without rows are only for declaring a natural",
    "cards_and_rows": "{who}: give the 13 cards or the rows, not both",
    "surrender_not_bool": "{who}: surrender must be true or false",
    "surrender_not_allowed": "{who} surrendered, but surrender is not allowed under these rules",
    "surrender_and_natural": "{who}: cannot both surrender and declare {natural}",
    "fouled_not_bool": "{who}: fouled must be true or false",
    "fouled_shown": (
        "{who}: a hand declared fouled is not shown, so it has no {part}"
        " (give the rows without fouled: true, and the scorer finds any foul)"
    ),
    "fouled_declares": "{who}: a hand declared fouled cannot also declare {key}",
    "royalties_not_declared": "{who}: royalties are declared only under royalties_declared: true",
    "royalties_not_rows": (
        "{who}: royalties must be a list of rows (front, middle, back), got {value}"
    ),
    "royalty_twice": "{who}: a row is declared twice in royalties",
    "royalties_without_rows": "{who}: royalties are declared on rows, and none were given",
    "royalty_none": "{who} declared a royalty on the {row} row, which holds none ({cards})",
    # Open-face: fantasy land and discards.
    "no_fantasyland": "{who}: these rules have no fantasy land",
    "fantasyland_value": "{who}: in_fantasyland must be true, false or the number of cards dealt",
    "fantasyland_deals": "{who}: fantasy land deals {base} cards under these rules, not {value}",
    "fantasyland_deals_between": (
        "{who}: fantasy land deals {base} to {most} cards under these rules, not {value}"
    ),
    "discards_plain": (
        "{who}, discards: {count} given ({cards}), but plain open-face has no discards"
        " (only Pineapple and fantasy land discard)"
    ),
    "discards_pineapple": (
        "{who}, discards: {count} given ({cards}); a Pineapple hand discards {allowed}"
    ),
    "discards_progressive": (
        "{who}, discards: {count} given ({cards}); fantasy land here discards {low} to {high}"
    ),
    "discards_none": (
        "{who}, discards: {count} given ({cards}); fantasy land deals {kept} cards here,"
        " so nothing is discarded"
    ),
    "discards_fantasyland": (
        "{who}, discards: {count} given ({cards}); fantasy land with {dealt} cards"
        " discards {allowed}"
    ),
    # Big Two.
    "leftover_missing": "{who}: give the cards left or their count",
    "cards_left_not_whole": "{who}: cards_left must be a whole number",
    "cards_left_mismatch": "{who}: cards_left is {count} but {listed} cards are listed",
    "cards_left_too_many": "{who} has {count} cards left, but nobody holds more than 13",
    "twos_need_cards": "{who}: {option} counts the 2s held, so give the cards left, not a count",
    "pays_for_all_not_bool": "{who}: pays_for_all is true or false, got {value}",
    "winner_pays_for_all": "{who}: went out, so cannot pay for all (only a loser can)",
    "pays_for_all_losers_settle": (
        "{who}: pays_for_all cannot be played with losers_settle (the losers settle among"
        " themselves there)"
    ),
    "pays_for_all_twice": "{who}: {first} already pays for all; at most one player does",
    "one_goes_out": "exactly one player goes out (has no cards left); got {count}: {names}",
    "none_goes_out": "exactly one player goes out (has no cards left); got none",
    # Rule sets and their options.
    "preset_unknown": "unknown preset {value}; known presets: {known}",
    "rules_not_mapping": "rules: expected a preset name or a mapping with 'preset'",
    "preset_required": "rules.preset: a preset name is required",
    "option_value": "rules.{option}: {value} is not {expected}",
    "option_at_most": "rules.{option}: at most {maximum}, got {value}",
    "option_whole": "rules.{option}: a whole number, got {value}",
    "option_place": "rules.{option}: at most 1 decimal place, got {value}",
    "option_places": "rules.{option}: at most {places} decimal places, got {value}",
    "option_not_of_game": "rules.{option}: {option!r} does not apply to {game}",
    "option_unknown": "rules.{option}: {option!r} is not a known option",
    "royalty_row_unknown": "rules.royalties: unknown row {value} (rows are front, middle, back)",
    "royalty_hand_unknown": (
        "rules.royalties.{row}: unknown hand {value} (use a category such as 'full_house',"
        " or 'pair_Q' / 'trips_7' for a given rank)"
    ),
    "natural_rule_unknown": "rules.naturals: unknown natural {value}; known: {known}",
    "scoop_all_needs_bonus": "rules.scoop_all_multiplier: only applies with bonus '1-6'",
    "criss_cross_two": "rules.criss_cross: needs two players",
    "two_bonus_with_multiplier": (
        "rules.two_bonus: not together with a two_multiplier above 1 (a 2 is paid one way"
        " or the other)"
    ),
    "progressive_needs_fantasyland": "rules.progressive: needs fantasy land (fantasyland_cards)",
    # What an option's value should have been (the ``expected`` of ``option_value``).
    "expected_number": "a number",
    "expected_finite": "a finite number",
    "expected_at_least": "a number of at least {minimum}",
    "expected_one_of": "one of {choices}",
    "expected_bool": "true or false",
    "expected_whole": "a whole number from {low} to {high}",
    "expected_table_or_rows": "a table name or a mapping of rows",
    "expected_hand_units": "a mapping of hands to units",
    "expected_table_or_naturals": "a table name or a mapping of naturals to units",
    "expected_steps": "a list of [cards left, multiplier] pairs",
    "expected_step": "a [cards left, multiplier] pair",
    "expected_steps_once": "a list with each threshold once",
    "expected_preset_game": "{game!r}: the game comes with the preset",
    # The what-if: one option of a stored deal changed.
    "what_if_unknown": "option: {value} is not an option; known: {known}",
    "what_if_not_of_game": "option: {value} does not apply to {game}",
    "what_if_refused": "rules.{option}: {value} cannot be set here: {reason}",
    # Hands set in a batch, and the arranger.
    "batch_size": "hands[{index}]: {size} cards are needed, got {count}",
    "batch_twice": "hands[{index}]: a card is given twice in {hand}",
    "arrange_whole": "{name}: a whole number from {low} to {high}, got {value}",
    "arrange_not_rows": "rules: Big Two hands are not set in rows",
    "arrange_fantasy_most": (
        "cards: at most {most} cards for a fantasy-land hand here, got {count}"
    ),
    "arrange_thirteen": (
        "cards: 13 different cards are needed, got {count} ({different} different): {cards}"
    ),
    "arrange_thirteen_or_fantasy": (
        "cards: 13 different cards are needed, got {count} ({different} different): {cards}"
        " (14 to 17 only for a fantasy-land hand)"
    ),
    "arrange_mode": "mode: 'heuristic' or 'expected', got {value}",
    "arrange_fantasy_deals": (
        "cards: fantasy land deals {base} cards under these rules, got {count}"
    ),
    "arrange_fantasy_deals_between": (
        "cards: fantasy land deals {base} to {most} cards under these rules, got {count}"
    ),
    "anonymous_samples": "{reason}; signed in (an API token) you may ask for up to {most}",
    "anonymous_fantasy": "{reason}; signed in (an API token) you may arrange up to 17 cards",
    "arrange_fantasy_mode": (
        "mode: a fantasy-land hand is set for its royalties only ('heuristic'), got {value}"
    ),
}


def message(code: str, /, **args: Any) -> Message:
    """The message ``code`` with ``args`` (every hand's name is one: kept this cheap)."""
    return {"code": code, "args": args}


def _plain(value: Any) -> Any:
    """An argument as it reads back from JSON the same: a ``Decimal`` as its digits, a
    tuple as a list, a message likewise within."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict) and "code" in value and "args" in value:
        return {"code": value["code"], "args": {k: _plain(v) for k, v in value["args"].items()}}
    return value


def english(said: Message) -> str:
    """A message in the engine's own words."""
    args = {name: _english_arg(value) for name, value in said["args"].items()}
    return REFUSALS[said["code"]].format(**args)


def _english_arg(value: Any) -> Any:
    if isinstance(value, dict) and "code" in value:
        return english(value)  # type: ignore[arg-type]
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return value


class ScoreError(ValueError):
    """Input that cannot be scored.

    ``message`` is meant for people (it names the player, the row and the bad text);
    ``field`` locates the culprit in the request, e.g. ``players[1].middle``. ``code`` is
    the same as a message (``REFUSALS``), for a reader in another language; None for an
    error raised outside the engine in words of its own.
    """

    def __init__(self, message: str, field: str | None = None, code: Message | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code

    @classmethod
    def refused(cls, code: str, field: str | None, /, **args: Any) -> Self:
        """The error whose message is ``code`` filled in with ``args``."""
        said = message(code, **{k: _plain(v) for k, v in args.items()})
        return cls(english(said), field, said)

    def __str__(self) -> str:
        return self.message


class RuleError(ScoreError):
    """A rule set that names an unknown option or gives an option a bad value."""
