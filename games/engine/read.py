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
from .cards import Card, CardError, card_text, cards_text, parse_cards
from .declared import declared_not_shown, declared_royalties, rows_from_cards
from .errors import ScoreError
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
        seen: dict[Card, str] = {}
        for cards, who, place, path in self.parts:
            where = f"{who}'s {place}"
            for card in cards:
                first = seen.get(card)
                if first is not None:
                    raise ScoreError(
                        f"card {card_text(card)} appears twice: {first} and {where}",
                        f"{path}.{place}",
                    )
                seen[card] = where


def read_mapping(value: object, what: str, field_path: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object; otherwise ``ScoreError`` naming ``what``."""
    if value.__class__ is not dict and not isinstance(value, Mapping):
        raise ScoreError(f"{what} must be an object", field_path)
    return value


def reject_unknown_keys(
    entry: Mapping[str, Any], allowed: frozenset[str], who: str, path: str
) -> None:
    """``ScoreError`` for the first field of ``entry`` that is not ``allowed``."""
    if allowed.issuperset(entry):
        return
    extra = next(k for k in entry if k not in allowed)
    raise ScoreError(
        f"{who}: unknown field {extra!r} (allowed: {', '.join(sorted(allowed))})",
        f"{path}.{extra}",
    )


def read_names(players: Sequence[Any]) -> tuple[str, ...]:
    """The players' names, in order: each given, not blank, and no two alike."""
    names: list[str] = []
    for k, entry in enumerate(players):
        path = f"players[{k}]"
        name = read_mapping(entry, f"player {k + 1}", path).get("name")
        if name.__class__ is not str or not name.strip():
            raise ScoreError(f"player {k + 1}: a name is required", f"{path}.name")
        name = name.strip()
        if name in names:
            raise ScoreError(f"two players are named {name!r}", f"{path}.name")
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
            raise ScoreError(f"{who}: the {row} row is missing", f"{path}.{row}")
        try:
            cards = parse_cards(text)
        except CardError as error:  # name the place only when it is needed
            raise ScoreError(f"{who}, {row}: {error.reason}", f"{path}.{row}") from None
        if len(cards) != size:
            raise ScoreError(
                f"{who}, {row}: {len(cards)} cards given ({cards_text(cards)}), "
                f"the {row} row needs {size}",
                f"{path}.{row}",
            )
        deck.add(cards, who, row, path)
        rows.append(cards)
    if surrender and rows and len(rows) != 3:
        raise ScoreError(f"{who}: give all three rows or none", path)
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
        raise ScoreError(
            f"{who} declared {natural}, but the cards do not make it", f"{path}.natural"
        )
    declared = declared_royalties(entry, hand_rows, who, path, rules)
    return Hand(who, hand_rows, surrender, natural, in_fantasyland, discards, declared=declared)


def _check_declarations(
    surrender: object, natural: object, who: str, path: str, rules: Rules
) -> None:
    if not isinstance(surrender, bool):
        raise ScoreError(f"{who}: surrender must be true or false", f"{path}.surrender")
    if surrender and rules.surrender_cost is None:
        raise ScoreError(
            f"{who} surrendered, but surrender is not allowed under these rules",
            f"{path}.surrender",
        )
    if natural is not None:
        _check_natural_allowed(natural, who, path, rules, surrender)


def _check_natural_allowed(
    natural: object, who: str, path: str, rules: Rules, surrender: bool
) -> None:
    if not isinstance(natural, str) or natural not in NATURALS:
        raise ScoreError(
            f"{who}: unknown natural {natural!r} (known: {', '.join(NATURALS)})", f"{path}.natural"
        )
    if rules.naturals.get(natural) is None:
        raise ScoreError(
            f"{who} declared {natural}, which these rules do not count as a natural",
            f"{path}.natural",
        )
    if surrender:
        raise ScoreError(f"{who}: cannot both surrender and declare {natural}", f"{path}.natural")


def read_leftover(
    entry: Mapping[str, Any], who: str, path: str, rules: Rules, deck: DealCards
) -> Leftover:
    """A Big Two player's cards left: the cards, their count, or both when they agree."""
    reject_unknown_keys(entry, GAMES[rules.game].player_fields, who, path)
    cards: tuple[Card, ...] | None = None
    if entry.get("cards") is not None:
        cards = parse_cards(entry["cards"], f"{who}, cards", f"{path}.cards")
        deck.add(cards, who, "cards", path)
    count = entry.get("cards_left")
    if count is None:
        if cards is None:
            raise ScoreError(f"{who}: give the cards left or their count", f"{path}.cards_left")
        count = len(cards)
    elif isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ScoreError(f"{who}: cards_left must be a whole number", f"{path}.cards_left")
    elif cards is not None and count != len(cards):
        raise ScoreError(
            f"{who}: cards_left is {count} but {len(cards)} cards are listed", f"{path}.cards_left"
        )
    if count > 13:
        raise ScoreError(
            f"{who} has {count} cards left, but nobody holds more than 13", f"{path}.cards_left"
        )
    for option in ("two_multiplier", "two_bonus"):
        if getattr(rules, option) is not None and cards is None and count > 0:
            raise ScoreError(
                f"{who}: {option} counts the 2s held, so give the cards left, not a count",
                f"{path}.cards",
            )
    pays_for_all = entry.get("pays_for_all", False)
    if not isinstance(pays_for_all, bool):
        raise ScoreError(
            f"{who}: pays_for_all is true or false, got {pays_for_all!r}", f"{path}.pays_for_all"
        )
    return Leftover(who, count, cards, pays_for_all)


def read_stakes(value: object, names: tuple[str, ...]) -> Stakes:
    """The request's ``stakes``: the unit's value and the multiples of some pairs of ``names``."""
    stakes = read_mapping(value, "stakes", "stakes")
    reject_unknown_keys(stakes, frozenset({"unit_value", "pairs"}), "stakes", "stakes")
    unit = _amount(stakes.get("unit_value", 1), "stakes.unit_value")
    multipliers: dict[frozenset[str], Decimal] = {}
    pairs = stakes.get("pairs", [])
    if not isinstance(pairs, list):
        raise ScoreError("stakes.pairs must be a list", "stakes.pairs")
    for k, pair in enumerate(pairs):
        path = f"stakes.pairs[{k}]"
        pair = read_mapping(pair, "a pair's stake", path)
        who = pair.get("players")
        if (
            not isinstance(who, list)
            or len(who) != 2
            or who[0] == who[1]
            or any(name not in names for name in who)
        ):
            raise ScoreError(f"{path}: players must name two players of this deal", path)
        multipliers[frozenset(who)] = _amount(pair.get("multiplier"), f"{path}.multiplier")
    return Stakes(unit, multipliers)


def _amount(value: object, path: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, str, float)):
        raise ScoreError(f"{path}: expected a number, got {value!r}", path)
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        raise ScoreError(f"{path}: expected a number, got {value!r}", path) from None
    if not number.is_finite() or number < 0:
        raise ScoreError(f"{path}: expected a number of at least 0, got {value!r}", path)
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
            raise ScoreError(f"{names[k]}: Criss Cross needs two hands", f"{path}.{HANDS_FIELD}")
        read = []
        for h, hand in enumerate(hands):
            hand_path = f"{path}.{HANDS_FIELD}[{h}]"
            hand = read_mapping(hand, f"{names[k]}'s hand {h + 1}", hand_path)
            reject_unknown_keys(hand, game.hand_fields, f"{names[k]} (hand {h + 1})", hand_path)
            read.append(read_hand(hand, names[k], hand_path, rules, deck))
        per_player.append(read)
    return tuple(tuple(p[h] for p in per_player) for h in range(count))
