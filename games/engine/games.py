"""The games the engine scores, one descriptor each: what differs from game to game.

``GAMES`` holds one frozen ``Descriptor`` per value of ``Rules.game``: "chinese" (13-card
Chinese poker and Mau Binh), "open-face" (open-face Chinese poker, Pineapple, fantasy
land) and "big-two". Criss Cross is Chinese poker under the option ``criss_cross``: two
players, each with two 13-card hands given under ``"hands"`` in the request and the
result; it has a descriptor of its own, ``CRISS_CROSS``, and ``descriptor_for(rules)``
picks the one a rule set plays. ``player_hands`` reads each hand of a player's (or a
pair's) entry, whether it is a hand itself or holds Criss Cross's ``"hands"``.

The engine branches on these attributes instead of on game names: reading a request
(``request``, ``read``), which scoring runs (``request.score_deal``), what a result
carries (fantasy land) and which deals are reviewed (``arrange``).

A new game needs:

- its name in ``tables.Game`` and ``options.GAME_KEYS``, and its options marked in
  ``options.OPTIONS`` (each entry's ``games``), with any new option a field of ``Rules``;
- a preset in ``rules.PRESETS`` with ``"game"`` set (its descriptor's ``default_preset``);
- a ``Descriptor`` here, in ``GAMES``;
- its engine module: a reader of a player's entry (as ``read.read_hand`` for rows,
  ``read.read_leftover`` for Big Two), a scorer (as ``scoring.score_hands``,
  ``bigtwo.score_big_two``) and its rendering, dispatched on the descriptor's ``shape``
  in ``request.parse_request``, ``request.score_deal`` and ``request.render``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from .options import OPTIONS_BY_GAME, OPTIONS_BY_NAME, gettext_noop
from .rules import Rules
from .tables import ROWS, Game, Row

# How a player's entry is read: one hand set in rows; two such hands under "hands" (Criss
# Cross); or the cards left in hand at the end (Big Two).
Shape = Literal["rows", "crossed", "leftovers"]

HANDS_FIELD: Final = "hands"  # where a Criss Cross entry (request or result) keeps its hands

_HAND_FIELDS: Final = frozenset(
    {"front", "middle", "back", "natural", "surrender", "fouled", "royalties", "cards"}
)
_OPEN_FACE_FIELDS: Final = frozenset({"in_fantasyland", "discards"})


@dataclass(frozen=True)
class Descriptor:
    """One game: its names, its request's fields, and what the engine does with it."""

    key: str  # "chinese", "open-face", "big-two" or "criss-cross"
    game: Game  # the rules' game (Criss Cross: "chinese")
    display_name: str  # for people: "Open-face Chinese poker" (translated where shown)
    default_preset: str  # the preset a new session of this game starts from
    shape: Shape
    player_fields: frozenset[str]  # the fields a player's entry in a request may have
    hand_fields: frozenset[str]  # the fields of one hand (Criss Cross: of each of "hands")
    rows: tuple[Row, ...]  # the rows a hand is set in; () when hands are not set in rows
    has_naturals: bool  # a hand may be declared a natural, paid by the rules' naturals
    has_fantasyland: bool  # players may be in fantasy land; results say who is next deal
    has_discards: bool  # a player's entry may list the cards they discarded
    reviewed: bool  # deals are reviewed (how each player could have set their cards)
    hands_per_player: int = 1  # hands of rows per player at one deal (Big Two: none)
    min_players: int = 2
    max_players: int = OPTIONS_BY_NAME["max_players"].whole[1]  # the rules may allow fewer
    preset_overrides: tuple[tuple[str, Any], ...] = ()  # options set on default_preset

    @property
    def options(self) -> frozenset[str]:
        """The rule options that apply (``options.OPTIONS_BY_GAME``)."""
        return OPTIONS_BY_GAME[self.game]

    @property
    def default_spec(self) -> str | dict[str, Any]:
        """The rules spec a new session of this game starts from."""
        if not self.preset_overrides:
            return self.default_preset
        return {"preset": self.default_preset, **dict(self.preset_overrides)}

    def seats(self, rules: Rules) -> tuple[int, int]:
        """The fewest and the most players at one deal under ``rules``."""
        return self.min_players, min(self.max_players, rules.max_players)

    def hands(self, entry: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
        """Each hand of rows of a player's entry (request or result): none in Big Two."""
        if self.shape == "leftovers":
            return ()
        if self.shape == "crossed":
            return tuple(entry.get(HANDS_FIELD) or ())
        return (entry,)


CHINESE: Final = Descriptor(
    key="chinese",
    game="chinese",
    display_name=gettext_noop("Chinese poker"),
    default_preset="standard",
    shape="rows",
    player_fields=_HAND_FIELDS | {"name"},
    hand_fields=_HAND_FIELDS,
    rows=ROWS,
    has_naturals=True,
    has_fantasyland=False,
    has_discards=False,
    reviewed=True,
)
OPEN_FACE: Final = Descriptor(
    key="open-face",
    game="open-face",
    display_name=gettext_noop("Open-face Chinese poker"),
    default_preset="ofc",
    shape="rows",
    player_fields=_HAND_FIELDS | _OPEN_FACE_FIELDS | {"name"},
    hand_fields=_HAND_FIELDS | _OPEN_FACE_FIELDS,
    rows=ROWS,
    has_naturals=False,
    has_fantasyland=True,
    has_discards=True,
    reviewed=False,  # rows are placed card by card: there is no setting to review
)
BIG_TWO: Final = Descriptor(
    key="big-two",
    game="big-two",
    display_name=gettext_noop("Big Two"),
    default_preset="big-two",
    shape="leftovers",
    player_fields=frozenset({"name", "cards", "cards_left", "pays_for_all"}),
    hand_fields=frozenset(),
    rows=(),
    has_naturals=False,
    has_fantasyland=False,
    has_discards=False,
    reviewed=False,
    hands_per_player=0,
)
CRISS_CROSS: Final = Descriptor(
    key="criss-cross",
    game="chinese",
    display_name=gettext_noop("Criss Cross"),
    default_preset="standard",
    shape="crossed",
    player_fields=frozenset({"name", HANDS_FIELD}),
    hand_fields=_HAND_FIELDS,
    rows=ROWS,
    has_naturals=True,
    has_fantasyland=False,
    has_discards=False,
    # Not reviewed: arrange.review_request answers that it is not, with its reason.
    reviewed=False,
    hands_per_player=2,
    max_players=2,
    preset_overrides=(("criss_cross", True),),
)

GAMES: Final[Mapping[str, Descriptor]] = {
    "chinese": CHINESE,
    "open-face": OPEN_FACE,
    "big-two": BIG_TWO,
}
DESCRIPTORS: Final[tuple[Descriptor, ...]] = (CHINESE, OPEN_FACE, BIG_TWO, CRISS_CROSS)


def descriptor_for(rules: Rules) -> Descriptor:
    """The game a rule set plays: Criss Cross when its option is on, else its ``game``."""
    return CRISS_CROSS if rules.criss_cross else GAMES[rules.game]


def player_hands(entry: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
    """Each hand of a player's entry, in a request or a result: Criss Cross's ``"hands"``,
    or else the entry itself. A pair's entry in a result reads the same way."""
    hands = entry.get(HANDS_FIELD)
    return tuple(hands) if hands else (entry,)
