"""What a foul costs beside a scoop under a rule set, found by scoring two sample deals.

A table that makes a fouled hand cheaper than a scooped one pays a player who sees a scoop
coming to foul on purpose. Whether a rule set does is never looked up in a list of
presets: two heads-up deals are scored under the rules, one where Bob's hand is scooped
and one where Bob fouls with rows that lose all three anyway, and what Bob pays in each is
compared. Ann holds the same hand in both, and no row of either player holds anything a
royalty table of the rule book pays for, so the two deals differ only by the foul.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Final, NamedTuple

from .games import descriptor_for
from .read import DealCards, read_hand
from .rules import Rules, rules_from_mapping, rules_to_mapping
from .scoring import score_hands

# Ann: two pair (aces and kings) in the back, queens in the middle, fives in the front:
# beats each of Bob's rows below, and no royalty table pays for any of them.
ANN: Final = {"front": "5h 5c Qh", "middle": "Qs Qd 9s 4s 3d", "back": "As Ad Ks Kd 2c"}
# Bob set legally: jacks, ten high, ten high; scooped by Ann.
BOB_SCOOPED: Final = {"front": "Th 8h 5d", "middle": "Tc 9d 7c 4h 2d", "back": "Jc Jh 8d 6c 3c"}
# Bob fouled (the middle's jacks beat the back's ten high), every row still losing to Ann.
BOB_FOULED: Final = {"front": "Th 8h 5d", "middle": "Jc Jh 8d 6c 3c", "back": "Tc 9d 7c 4h 2d"}
# With a 2-7 lowball middle the lowest middle wins and only back >= front is required, so
# Ann's middle is a seven-low and Bob's foul puts a nine high behind a ten high.
ANN_LOWBALL: Final = {"front": "5h 5c Qh", "middle": "7h 6s 4s 3s 2h", "back": "As Ad Ks Kd 2c"}
BOB_FOULED_LOWBALL: Final = {
    "front": "Th 8h 5d",
    "middle": "Jc Jh 8d 4h Tc",
    "back": "9d 7c 6c 3c 2d",
}


class FoulCost(NamedTuple):
    """What a player pays an opponent heads-up: fouled, and scooped, in units."""

    foul: Decimal
    scoop: Decimal

    @property
    def foul_is_cheaper(self) -> bool:
        return self.foul < self.scoop


def _bob_pays(rules: Rules, ann: dict[str, str], bob: dict[str, str]) -> Decimal:
    deck = DealCards()
    hands = (
        read_hand({"name": "Ann", **ann}, "Ann", "players[0]", rules, deck),
        read_hand({"name": "Bob", **bob}, "Bob", "players[1]", rules, deck),
    )
    deck.check()
    return -score_hands(hands, rules).players[1].units


def foul_cost(rules: Rules) -> FoulCost | None:
    """What a fouled hand and a scooped hand pay an opponent heads-up under ``rules``, or
    None for a game without rows (Big Two). A Criss Cross table is priced hand by hand."""
    if not descriptor_for(rules).rows:
        return None
    if rules.criss_cross:  # each of the two hands scores as a deal of its own
        rules = rules_from_mapping(rules_to_mapping(dataclasses.replace(rules, criss_cross=False)))
    lowball = rules.middle == "lowball-2-7"
    ann = ANN_LOWBALL if lowball else ANN
    fouled = BOB_FOULED_LOWBALL if lowball else BOB_FOULED
    return FoulCost(_bob_pays(rules, ann, fouled), _bob_pays(rules, ann, BOB_SCOOPED))
