"""Reading the entries of a scoring request: each player's hand (or Big Two leftover), the
stakes, and every card once; any problem raises ``ScoreError`` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import chain
from typing import Any, Final

from .bigtwo import Leftover
from .cards import Card, card_text, cards_text, parse_cards
from .declared import declared_not_shown, declared_royalties, rows_from_cards
from .errors import Message, ScoreError, message
from .games import GAMES, HANDS_FIELD, descriptor_for
from .hands import Hand
from .naturals import holds_natural
from .openface import read_open_face
from .ranking import five_card_evaluator
from .rules import Rules
from .tables import NATURALS

ROW_SIZES: Final = {"front": 3, "middle": 5, "back": 5}
_ROW_SIZES: Final = tuple(ROW_SIZES.items())


@dataclass(frozen=True)
class Stakes:
    """Money per unit, and per-pair multiples of it (RULES 5)."""

    unit_value: Decimal = Decimal(1)
    pair_multipliers: Mapping[frozenset[str], Decimal] = field(default_factory=dict)

    def pair_value(self, a: str, b: str) -> Decimal:
        return self.unit_value * self.pair_multipliers.get(frozenset((a, b)), Decimal(1))


class DealCards:
    """Every card of a deal, to reject one given twice anywhere."""

    def __init__(self) -> None:
        self.parts: list[tuple[tuple[Card, ...], str, str, str]] = []

    def add(self, cards: tuple[Card, ...], who: str, place: str, path: str) -> None:
        self.parts.append((cards, who, place, path))

    def check(self) -> None:
        hands = [part[0] for part in self.parts]
        if len(set(chain.from_iterable(hands))) == sum(map(len, hands)):
            return
        seen: dict[Card, tuple[str, str]] = {}
        for cards, who, place, path in self.parts:
            for card in cards:
                first = seen.get(card)
                if first is not None:
                    raise ScoreError.refused(
                        "duplicate_card",
                        f"{path}.{place}",
                        card=card_text(card),
                        first_who=first[0],
                        first_place=first[1],
                        who=who,
                        place=place,
                    )
                seen[card] = (who, place)


def read_mapping(value: object, what: Message, field_path: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object; otherwise ``ScoreError`` naming ``what`` (a
    ``subject_*`` message)."""
    if value.__class__ is not dict and not isinstance(value, Mapping):
        raise ScoreError.refused("not_object", field_path, what=what)
    return value


def reject_unknown_keys(
    entry: Mapping[str, Any], allowed: frozenset[str], who: str | Message, path: str
) -> None:
    """``ScoreError`` for the first field of ``entry`` that is not ``allowed``; ``who`` is
    the player's name or a ``subject_*`` message."""
    if allowed.issuperset(entry):
        return
    extra = next(k for k in entry if k not in allowed)
    raise ScoreError.refused(
        "unknown_field", f"{path}.{extra}", who=who, field=repr(extra), allowed=sorted(allowed)
    )


def read_names(players: Sequence[Any]) -> tuple[str, ...]:
    """The players' names, in order: each given, not blank, and no two alike."""
    names: list[str] = []
    for k, entry in enumerate(players):
        path = f"players[{k}]"
        name = read_mapping(entry, message("subject_player_number", number=k + 1), path).get("name")
        if name.__class__ is not str or not name.strip():
            raise ScoreError.refused("name_required", f"{path}.name", number=k + 1)
        name = name.strip()
        if name in names:
            raise ScoreError.refused("name_twice", f"{path}.name", name=repr(name))
        names.append(name)
    return tuple(names)


def read_hand(entry: Mapping[str, Any], who: str, path: str, rules: Rules, deck: DealCards) -> Hand:
    """One 13-card hand: three rows, or a surrender, perhaps a declared natural; or a hand
    declared fouled without rows, or a natural given as its 13 cards (RULES 12)."""
    if declared_not_shown(entry, who, path):
        in_fantasyland = False
        if GAMES[rules.game].has_fantasyland:
            in_fantasyland = read_open_face(entry, who, path, rules).in_fantasyland
        return Hand(who, None, in_fantasyland=in_fantasyland, not_shown=True)
    surrender = entry.get("surrender", False)
    natural = entry.get("natural")
    if surrender is not False or natural is not None:
        _check_declarations(surrender, natural, who, path, rules)
    from_cards = rows_from_cards(entry, natural, who, path, rules)
    if from_cards is not None:
        deck.add(from_cards[1], who, "cards", path)
        return Hand(who, from_cards[0], natural=str(natural))
    rows: list[tuple[Card, ...]] = []
    for row, size in _ROW_SIZES:
        text = entry.get(row)
        if text is None:
            if surrender:
                continue
            raise ScoreError.refused("row_missing", f"{path}.{row}", who=who, row=row)
        cards = parse_cards(text, row, f"{path}.{row}", who)
        if len(cards) != size:
            raise ScoreError.refused(
                "row_size",
                f"{path}.{row}",
                who=who,
                row=row,
                count=len(cards),
                cards=cards_text(cards),
                size=size,
            )
        deck.add(cards, who, row, path)
        rows.append(cards)
    if surrender and rows and len(rows) != 3:
        raise ScoreError.refused("rows_all_or_none", path, who=who)
    in_fantasyland = False
    discards: tuple[Card, ...] = ()
    if GAMES[rules.game].has_fantasyland:
        in_fantasyland, discards = read_open_face(entry, who, path, rules)
        deck.add(discards, who, "discards", path)
    hand_rows = (rows[0], rows[1], rows[2]) if len(rows) == 3 else None
    if (
        natural is not None
        and hand_rows is not None
        and rules.false_natural_penalty is None
        and not holds_natural(natural, hand_rows, five_card_evaluator(rules.wheel))
    ):
        raise ScoreError.refused("natural_not_made", f"{path}.natural", who=who, natural=natural)
    declared = declared_royalties(entry, hand_rows, who, path, rules)
    return Hand(who, hand_rows, surrender, natural, in_fantasyland, discards, declared=declared)


def _check_declarations(
    surrender: object, natural: object, who: str, path: str, rules: Rules
) -> None:
    if not isinstance(surrender, bool):
        raise ScoreError.refused("surrender_not_bool", f"{path}.surrender", who=who)
    if surrender and rules.surrender_cost is None:
        raise ScoreError.refused("surrender_not_allowed", f"{path}.surrender", who=who)
    if natural is not None:
        _check_natural_allowed(natural, who, path, rules, surrender)


def _check_natural_allowed(
    natural: object, who: str, path: str, rules: Rules, surrender: bool
) -> None:
    if not isinstance(natural, str) or natural not in NATURALS:
        raise ScoreError.refused(
            "natural_unknown", f"{path}.natural", who=who, value=repr(natural), known=NATURALS
        )
    if rules.naturals.get(natural) is None:
        raise ScoreError.refused("natural_not_counted", f"{path}.natural", who=who, natural=natural)
    if surrender:
        raise ScoreError.refused(
            "surrender_and_natural", f"{path}.natural", who=who, natural=natural
        )


def read_leftover(
    entry: Mapping[str, Any], who: str, path: str, rules: Rules, deck: DealCards
) -> Leftover:
    """A Big Two player's cards left: the cards, their count, or both when they agree."""
    reject_unknown_keys(entry, GAMES[rules.game].player_fields, who, path)
    cards: tuple[Card, ...] | None = None
    if entry.get("cards") is not None:
        cards = parse_cards(entry["cards"], "cards", f"{path}.cards", who)
        deck.add(cards, who, "cards", path)
    count = entry.get("cards_left")
    if count is None:
        if cards is None:
            raise ScoreError.refused("leftover_missing", f"{path}.cards_left", who=who)
        count = len(cards)
    elif isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ScoreError.refused("cards_left_not_whole", f"{path}.cards_left", who=who)
    elif cards is not None and count != len(cards):
        raise ScoreError.refused(
            "cards_left_mismatch", f"{path}.cards_left", who=who, count=count, listed=len(cards)
        )
    if count > 13:
        raise ScoreError.refused("cards_left_too_many", f"{path}.cards_left", who=who, count=count)
    for option in ("two_multiplier", "two_bonus"):
        if getattr(rules, option) is not None and cards is None and count > 0:
            raise ScoreError.refused("twos_need_cards", f"{path}.cards", who=who, option=option)
    pays_for_all = entry.get("pays_for_all", False)
    if not isinstance(pays_for_all, bool):
        raise ScoreError.refused(
            "pays_for_all_not_bool", f"{path}.pays_for_all", who=who, value=repr(pays_for_all)
        )
    return Leftover(who, count, cards, pays_for_all)


def read_stakes(value: object, names: tuple[str, ...]) -> Stakes:
    """The request's ``stakes``: the unit's value and the multiples of some pairs of ``names``."""
    stakes = read_mapping(value, message("subject_stakes"), "stakes")
    reject_unknown_keys(
        stakes, frozenset({"unit_value", "pairs"}), message("subject_stakes"), "stakes"
    )
    unit = _amount(stakes.get("unit_value", 1), "stakes.unit_value")
    multipliers: dict[frozenset[str], Decimal] = {}
    pairs = stakes.get("pairs", [])
    if not isinstance(pairs, list):
        raise ScoreError.refused("stakes_pairs_list", "stakes.pairs")
    for k, pair in enumerate(pairs):
        path = f"stakes.pairs[{k}]"
        pair = read_mapping(pair, message("subject_pair_stake"), path)
        who = pair.get("players")
        if (
            not isinstance(who, list)
            or len(who) != 2
            or who[0] == who[1]
            or any(name not in names for name in who)
        ):
            raise ScoreError.refused("stakes_pair_players", path, path=path)
        multipliers[frozenset(who)] = _amount(pair.get("multiplier"), f"{path}.multiplier")
    return Stakes(unit, multipliers)


def _amount(value: object, path: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, str, float)):
        raise ScoreError.refused("not_a_number", path, path=path, value=repr(value))
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        raise ScoreError.refused("not_a_number", path, path=path, value=repr(value)) from None
    if not number.is_finite() or number < 0:
        raise ScoreError.refused("negative_number", path, path=path, value=repr(value))
    return number


def read_crossed(
    players: list[Any], names: tuple[str, ...], rules: Rules, deck: DealCards
) -> tuple[tuple[Hand, ...], ...]:
    """Criss Cross: each player's two hands; hand k is played against hand k opposite."""
    game = descriptor_for(rules)
    count = game.hands_per_player
    per_player: list[list[Hand]] = []
    for k, entry in enumerate(players):
        path = f"players[{k}]"
        reject_unknown_keys(entry, game.player_fields, names[k], path)
        hands = entry.get(HANDS_FIELD)
        if not isinstance(hands, list) or len(hands) != count:
            raise ScoreError.refused("criss_cross_hands", f"{path}.{HANDS_FIELD}", who=names[k])
        read = []
        for h, hand in enumerate(hands):
            hand_path = f"{path}.{HANDS_FIELD}[{h}]"
            hand = read_mapping(
                hand, message("subject_hand_of", who=names[k], number=h + 1), hand_path
            )
            subject = message("subject_player_hand", who=names[k], number=h + 1)
            reject_unknown_keys(hand, game.hand_fields, subject, hand_path)
            read.append(read_hand(hand, names[k], hand_path, rules, deck))
        per_player.append(read)
    return tuple(tuple(p[h] for p in per_player) for h in range(count))
