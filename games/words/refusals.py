"""The engine's refusals of bad input in the reader's language: each code of
``games.engine.errors.REFUSALS`` as a sentence of the catalogue, its arguments rendered
too (a row's name, a natural's, a game's, a card error inside the message). The deal form,
the rules form, the what-if and the API all show an engine error through ``error_text``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.engine import ScoreError
from games.engine.games import DESCRIPTORS
from games.engine.messages import Message, english
from games.engine.tables import NATURALS, ROWS
from games.present import natural_name

# The English of each sentence is the engine's (a test holds the two tables alike).
REFUSAL_TEXTS: Final[Mapping[str, Promise]] = {
    "subject_request": gettext_lazy("request"),
    "subject_the_request": gettext_lazy("the request"),
    "subject_player_number": gettext_lazy("player %(number)s"),
    "subject_stakes": gettext_lazy("stakes"),
    "subject_pair_stake": gettext_lazy("a pair's stake"),
    "subject_hand_of": gettext_lazy("%(who)s's hand %(number)s"),
    "subject_player_hand": gettext_lazy("%(who)s (hand %(number)s)"),
    "unknown_rank": gettext_lazy("unknown rank '%(rank)s' in '%(text)s'"),
    "no_suit": gettext_lazy("'%(card)s' has no suit"),
    "unknown_suit": gettext_lazy("unknown suit '%(suit)s' in '%(text)s'"),
    "cards_unreadable": gettext_lazy("%(part)s: %(reason)s"),
    "player_cards_unreadable": gettext_lazy("%(who)s, %(part)s: %(reason)s"),
    "cards_not_text": gettext_lazy("%(part)s: expected a card string, got %(kind)s"),
    "player_cards_not_text": gettext_lazy(
        "%(who)s, %(part)s: expected a card string, got %(kind)s"
    ),
    "one_card": gettext_lazy("card: expected one card, got %(value)s"),
    "duplicate_card": gettext_lazy(
        "card %(card)s appears twice: %(first_who)s's %(first_place)s and %(who)s's %(place)s"
    ),
    "not_object": gettext_lazy("%(what)s must be an object"),
    "unknown_field": gettext_lazy("%(who)s: unknown field %(field)s (allowed: %(allowed)s)"),
    "rules_required": gettext_lazy("rules: a preset name or {'preset': ..., options} is required"),
    "players_required": gettext_lazy("players: a list of 2 to 4 players is required"),
    "players_exactly": gettext_lazy(
        "players: this deal needs exactly %(most)s players under %(preset)s, got %(count)s"
    ),
    "players_between": gettext_lazy(
        "players: this deal needs %(fewest)s to %(most)s players under %(preset)s, got %(count)s"
    ),
    "name_required": gettext_lazy("player %(number)s: a name is required"),
    "name_twice": gettext_lazy("two players are named %(name)s"),
    "stakes_pairs_list": gettext_lazy("stakes.pairs must be a list"),
    "stakes_pair_players": gettext_lazy("%(path)s: players must name two players of this deal"),
    "not_a_number": gettext_lazy("%(path)s: expected a number, got %(value)s"),
    "negative_number": gettext_lazy("%(path)s: expected a number of at least 0, got %(value)s"),
    "row_missing": gettext_lazy("%(who)s: the %(row)s row is missing"),
    "row_size": gettext_lazy(
        "%(who)s, %(row)s: %(count)s cards given (%(cards)s), the %(row)s row needs %(size)s"
    ),
    "rows_all_or_none": gettext_lazy("%(who)s: give all three rows or none"),
    "criss_cross_hands": gettext_lazy("%(who)s: Criss Cross needs two hands"),
    "natural_not_made": gettext_lazy("%(who)s declared %(natural)s, but the cards do not make it"),
    "natural_not_settable": gettext_lazy(
        "%(who)s declared %(natural)s, but no setting of the 13 cards makes it"
    ),
    "natural_unknown": gettext_lazy("%(who)s: unknown natural %(value)s (known: %(known)s)"),
    "natural_not_counted": gettext_lazy(
        "%(who)s declared %(natural)s, which these rules do not count as a natural"
    ),
    "natural_size": gettext_lazy(
        "%(who)s, cards: %(count)s cards given (%(cards)s), a natural needs 13"
    ),
    "cards_without_natural": gettext_lazy(
        "%(who)s: the 13 cards without rows are only for declaring a natural"
    ),
    "cards_and_rows": gettext_lazy("%(who)s: give the 13 cards or the rows, not both"),
    "surrender_not_bool": gettext_lazy("%(who)s: surrender must be true or false"),
    "surrender_not_allowed": gettext_lazy(
        "%(who)s surrendered, but surrender is not allowed under these rules"
    ),
    "surrender_and_natural": gettext_lazy("%(who)s: cannot both surrender and declare %(natural)s"),
    "fouled_not_bool": gettext_lazy("%(who)s: fouled must be true or false"),
    "fouled_shown": gettext_lazy(
        "%(who)s: a hand declared fouled is not shown, so it has no %(part)s (give the rows "
        "without fouled: true, and the scorer finds any foul)"
    ),
    "fouled_declares": gettext_lazy("%(who)s: a hand declared fouled cannot also declare %(key)s"),
    "royalties_not_declared": gettext_lazy(
        "%(who)s: royalties are declared only under royalties_declared: true"
    ),
    "royalties_not_rows": gettext_lazy(
        "%(who)s: royalties must be a list of rows (front, middle, back), got %(value)s"
    ),
    "royalty_twice": gettext_lazy("%(who)s: a row is declared twice in royalties"),
    "royalties_without_rows": gettext_lazy(
        "%(who)s: royalties are declared on rows, and none were given"
    ),
    "royalty_none": gettext_lazy(
        "%(who)s declared a royalty on the %(row)s row, which holds none (%(cards)s)"
    ),
    "no_fantasyland": gettext_lazy("%(who)s: these rules have no fantasy land"),
    "fantasyland_value": gettext_lazy(
        "%(who)s: in_fantasyland must be true, false or the number of cards dealt"
    ),
    "fantasyland_deals": gettext_lazy(
        "%(who)s: fantasy land deals %(base)s cards under these rules, not %(value)s"
    ),
    "fantasyland_deals_between": gettext_lazy(
        "%(who)s: fantasy land deals %(base)s to %(most)s cards under these rules, not %(value)s"
    ),
    "discards_plain": gettext_lazy(
        "%(who)s, discards: %(count)s given (%(cards)s), but plain open-face has no discards "
        "(only Pineapple and fantasy land discard)"
    ),
    "discards_pineapple": gettext_lazy(
        "%(who)s, discards: %(count)s given (%(cards)s); a Pineapple hand discards %(allowed)s"
    ),
    "discards_progressive": gettext_lazy(
        "%(who)s, discards: %(count)s given (%(cards)s); fantasy land here discards %(low)s to "
        "%(high)s"
    ),
    "discards_none": gettext_lazy(
        "%(who)s, discards: %(count)s given (%(cards)s); fantasy land deals %(kept)s cards "
        "here, so nothing is discarded"
    ),
    "discards_fantasyland": gettext_lazy(
        "%(who)s, discards: %(count)s given (%(cards)s); fantasy land with %(dealt)s cards "
        "discards %(allowed)s"
    ),
    "leftover_missing": gettext_lazy("%(who)s: give the cards left or their count"),
    "cards_left_not_whole": gettext_lazy("%(who)s: cards_left must be a whole number"),
    "cards_left_mismatch": gettext_lazy(
        "%(who)s: cards_left is %(count)s but %(listed)s cards are listed"
    ),
    "cards_left_too_many": gettext_lazy(
        "%(who)s has %(count)s cards left, but nobody holds more than 13"
    ),
    "twos_need_cards": gettext_lazy(
        "%(who)s: %(option)s counts the 2s held, so give the cards left, not a count"
    ),
    "pays_for_all_not_bool": gettext_lazy("%(who)s: pays_for_all is true or false, got %(value)s"),
    "winner_pays_for_all": gettext_lazy(
        "%(who)s: went out, so cannot pay for all (only a loser can)"
    ),
    "pays_for_all_losers_settle": gettext_lazy(
        "%(who)s: pays_for_all cannot be played with losers_settle (the losers settle among "
        "themselves there)"
    ),
    "pays_for_all_twice": gettext_lazy(
        "%(who)s: %(first)s already pays for all; at most one player does"
    ),
    "one_goes_out": gettext_lazy(
        "exactly one player goes out (has no cards left); got %(count)s: %(names)s"
    ),
    "none_goes_out": gettext_lazy("exactly one player goes out (has no cards left); got none"),
    "preset_unknown": gettext_lazy("unknown preset %(value)s; known presets: %(known)s"),
    "rules_not_mapping": gettext_lazy("rules: expected a preset name or a mapping with 'preset'"),
    "preset_required": gettext_lazy("rules.preset: a preset name is required"),
    "option_value": gettext_lazy("rules.%(option)s: %(value)s is not %(expected)s"),
    "option_at_most": gettext_lazy("rules.%(option)s: at most %(maximum)s, got %(value)s"),
    "option_whole": gettext_lazy("rules.%(option)s: a whole number, got %(value)s"),
    "option_place": gettext_lazy("rules.%(option)s: at most 1 decimal place, got %(value)s"),
    "option_places": gettext_lazy(
        "rules.%(option)s: at most %(places)s decimal places, got %(value)s"
    ),
    "option_not_of_game": gettext_lazy("rules.%(option)s: '%(option)s' does not apply to %(game)s"),
    "option_unknown": gettext_lazy("rules.%(option)s: '%(option)s' is not a known option"),
    "royalty_row_unknown": gettext_lazy(
        "rules.royalties: unknown row %(value)s (rows are front, middle, back)"
    ),
    "royalty_hand_unknown": gettext_lazy(
        "rules.royalties.%(row)s: unknown hand %(value)s (use a category such as 'full_house', "
        "or 'pair_Q' / 'trips_7' for a given rank)"
    ),
    "natural_rule_unknown": gettext_lazy(
        "rules.naturals: unknown natural %(value)s; known: %(known)s"
    ),
    "scoop_all_needs_bonus": gettext_lazy(
        "rules.scoop_all_multiplier: only applies with bonus '1-6'"
    ),
    "criss_cross_two": gettext_lazy("rules.criss_cross: needs two players"),
    "two_bonus_with_multiplier": gettext_lazy(
        "rules.two_bonus: not together with a two_multiplier above 1 (a 2 is paid one way or "
        "the other)"
    ),
    "progressive_needs_fantasyland": gettext_lazy(
        "rules.progressive: needs fantasy land (fantasyland_cards)"
    ),
    "expected_number": gettext_lazy("a number"),
    "expected_finite": gettext_lazy("a finite number"),
    "expected_at_least": gettext_lazy("a number of at least %(minimum)s"),
    "expected_one_of": gettext_lazy("one of %(choices)s"),
    "expected_bool": gettext_lazy("true or false"),
    "expected_whole": gettext_lazy("a whole number from %(low)s to %(high)s"),
    "expected_table_or_rows": gettext_lazy("a table name or a mapping of rows"),
    "expected_hand_units": gettext_lazy("a mapping of hands to units"),
    "expected_table_or_naturals": gettext_lazy("a table name or a mapping of naturals to units"),
    "expected_steps": gettext_lazy("a list of [cards left, multiplier] pairs"),
    "expected_step": gettext_lazy("a [cards left, multiplier] pair"),
    "expected_steps_once": gettext_lazy("a list with each threshold once"),
    "expected_preset_game": gettext_lazy("'%(game)s': the game comes with the preset"),
    "what_if_unknown": gettext_lazy("option: %(value)s is not an option; known: %(known)s"),
    "what_if_not_of_game": gettext_lazy("option: %(value)s does not apply to %(game)s"),
    "what_if_refused": gettext_lazy("rules.%(option)s: %(value)s cannot be set here: %(reason)s"),
    "batch_size": gettext_lazy("hands[%(index)s]: %(size)s cards are needed, got %(count)s"),
    "batch_twice": gettext_lazy("hands[%(index)s]: a card is given twice in %(hand)s"),
    "arrange_whole": gettext_lazy(
        "%(name)s: a whole number from %(low)s to %(high)s, got %(value)s"
    ),
    "arrange_not_rows": gettext_lazy("rules: Big Two hands are not set in rows"),
    "arrange_fantasy_most": gettext_lazy(
        "cards: at most %(most)s cards for a fantasy-land hand here, got %(count)s"
    ),
    "arrange_thirteen": gettext_lazy(
        "cards: 13 different cards are needed, got %(count)s (%(different)s different): %(cards)s"
    ),
    "arrange_thirteen_or_fantasy": gettext_lazy(
        "cards: 13 different cards are needed, got %(count)s (%(different)s different): "
        "%(cards)s (14 to 17 only for a fantasy-land hand)"
    ),
    "arrange_mode": gettext_lazy("mode: 'heuristic' or 'expected', got %(value)s"),
    "arrange_fantasy_deals": gettext_lazy(
        "cards: fantasy land deals %(base)s cards under these rules, got %(count)s"
    ),
    "arrange_fantasy_deals_between": gettext_lazy(
        "cards: fantasy land deals %(base)s to %(most)s cards under these rules, got %(count)s"
    ),
    "anonymous_samples": gettext_lazy(
        "%(reason)s; signed in (an API token) you may ask for up to %(most)s"
    ),
    "anonymous_fantasy": gettext_lazy(
        "%(reason)s; signed in (an API token) you may arrange up to 17 cards"
    ),
    "arrange_fantasy_mode": gettext_lazy(
        "mode: a fantasy-land hand is set for its royalties only ('heuristic'), got %(value)s"
    ),
}

# Parts of a deal an error may name beside the rows.
_PARTS: Final[Mapping[str, Promise]] = {
    "cards": pgettext_lazy("a part of a player's entry", "cards"),
    "discards": pgettext_lazy("a part of a player's entry", "discards"),
}
_GAME_NAMES: Final = {d.key: d.display_name for d in DESCRIPTORS} | {
    d.display_name: d.display_name for d in DESCRIPTORS
}
_PLACES: Final = frozenset({"row", "part", "place", "first_place"})


def _arg(name: str, value: Any) -> Any:
    if isinstance(value, dict) and "code" in value:
        return refusal_text(value)  # type: ignore[arg-type]
    if isinstance(value, list):
        return pgettext("between the items of a list", ", ").join(map(str, value))
    if name in _PLACES and isinstance(value, str):
        if value in ROWS:
            return _(value)
        return str(_PARTS[value]) if value in _PARTS else value
    if name == "natural" and value in NATURALS:
        return natural_name(value)
    if name == "game" and value in _GAME_NAMES:
        return _(_GAME_NAMES[value])
    return value


def refusal_text(said: Message) -> str:
    """A refusal (or a subject or card error of one) in the active language: in English,
    the engine's own words."""
    if (translation.get_language() or "en").startswith("en"):
        return english(said)
    args = {name: _arg(name, value) for name, value in said["args"].items()}
    return str(REFUSAL_TEXTS[said["code"]]) % args


# The arguments of a refusal that may show a player's cards (or what was typed for them).
_CARDS: Final = frozenset({"cards", "text", "card", "rank", "suit", "hand"})


def cards_hidden(said: Message) -> Message:
    """A refusal as anyone but the player it names may read it before the showdown: every
    argument that could show that player's cards replaced by "…"."""
    args = {
        name: "…" if name in _CARDS else cards_hidden(value) if _is_message(value) else value
        for name, value in said["args"].items()
    }
    return {"code": said["code"], "args": args}


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and "code" in value and "args" in value


def error_text(error: Exception) -> str:
    """What an error says to people in the active language: an engine error from its
    code, any other in the words it was raised with."""
    if isinstance(error, ScoreError) and error.code is not None:
        return refusal_text(error.code)
    return str(getattr(error, "message", error))
