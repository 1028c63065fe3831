"""The engine's words in the reader's language: hand names, foul reasons and the review's
reasons, rendered from the message codes the engine gives (``games.engine.messages``).

The engine says each of them twice: as English text and as a code with its arguments. The
pages, the seat pages, the PDFs and the API render the code here through gettext, so any
catalogue under ``locale/`` reads them; in English the words are the engine's own. A result
stored before the codes existed holds only the English text: its codes are found again
from its cards (``result_codes``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from games.engine import Rules
from games.engine.cards import RANK_CHARS, parse_cards
from games.engine.games import DESCRIPTORS, HANDS_FIELD
from games.engine.hands import Hand, PlayerResult
from games.engine.messages import Message
from games.engine.scoring import score_hands
from games.engine.tables import ROWS
from games.present import natural_name

# A rank as it reads in "Pair of Kings" and "Four of a kind, Nines".
_PLURALS = (
    pgettext_lazy("ranks, as in a pair of", "Twos"),
    pgettext_lazy("ranks, as in a pair of", "Threes"),
    pgettext_lazy("ranks, as in a pair of", "Fours"),
    pgettext_lazy("ranks, as in a pair of", "Fives"),
    pgettext_lazy("ranks, as in a pair of", "Sixes"),
    pgettext_lazy("ranks, as in a pair of", "Sevens"),
    pgettext_lazy("ranks, as in a pair of", "Eights"),
    pgettext_lazy("ranks, as in a pair of", "Nines"),
    pgettext_lazy("ranks, as in a pair of", "Tens"),
    pgettext_lazy("ranks, as in a pair of", "Jacks"),
    pgettext_lazy("ranks, as in a pair of", "Queens"),
    pgettext_lazy("ranks, as in a pair of", "Kings"),
    pgettext_lazy("ranks, as in a pair of", "Aces"),
)
# A rank as it reads in "King high" and "Straight, Nine high".
_NAMES = (
    pgettext_lazy("rank, as in King high", "Two"),
    pgettext_lazy("rank, as in King high", "Three"),
    pgettext_lazy("rank, as in King high", "Four"),
    pgettext_lazy("rank, as in King high", "Five"),
    pgettext_lazy("rank, as in King high", "Six"),
    pgettext_lazy("rank, as in King high", "Seven"),
    pgettext_lazy("rank, as in King high", "Eight"),
    pgettext_lazy("rank, as in King high", "Nine"),
    pgettext_lazy("rank, as in King high", "Ten"),
    pgettext_lazy("rank, as in King high", "Jack"),
    pgettext_lazy("rank, as in King high", "Queen"),
    pgettext_lazy("rank, as in King high", "King"),
    pgettext_lazy("rank, as in King high", "Ace"),
)
_GAMES = {d.key: d.display_name for d in DESCRIPTORS}


def _letter(rank: str) -> str:
    """A rank as a kicker or a flush lists it: "K", and the ten as the language writes it."""
    return pgettext("rank letter", "T") if rank == "T" else rank


def _plural(rank: str) -> str:
    return str(_PLURALS[RANK_CHARS.index(rank)])


def _name(rank: str) -> str:
    return str(_NAMES[RANK_CHARS.index(rank)])


def _letters(ranks: Sequence[str], between: str) -> str:
    return between.join(_letter(r) for r in ranks)


def hand_label(hand: Message) -> str:
    """A hand's name in the active language: "Pair of Kings, Q kicker", "Đôi K, kèm Q"."""
    code, a = hand["code"], hand["args"]
    if code == "royal_flush":
        return _("Royal flush")
    if code == "straight_flush":
        if a["wheel"]:
            return _("Straight flush, %(high)s high (wheel)") % {"high": _name(a["high"])}
        return _("Straight flush, %(high)s high") % {"high": _name(a["high"])}
    if code == "straight":
        if a["wheel"]:
            return _("Straight, %(high)s high (wheel)") % {"high": _name(a["high"])}
        return _("Straight, %(high)s high") % {"high": _name(a["high"])}
    if code == "quads":
        return _("Four of a kind, %(rank)s") % {"rank": _plural(a["rank"])}
    if code == "full_house":
        return _("Full house, %(rank)s over %(over)s") % {
            "rank": _plural(a["rank"]),
            "over": _plural(a["over"]),
        }
    if code == "flush":
        return _("Flush, %(ranks)s") % {"ranks": _letters(a["ranks"], "-")}
    if code == "trips":
        return _("Three of a kind, %(rank)s") % {"rank": _plural(a["rank"])}
    if code == "two_pair":
        return _("Two pair, %(high)s and %(low)s, %(kicker)s kicker") % {
            "high": _plural(a["high"]),
            "low": _plural(a["low"]),
            "kicker": _letter(a["kicker"]),
        }
    if code == "low":
        return _("%(rank)s low, %(ranks)s") % {
            "rank": _name(a["rank"]),
            "ranks": _letters(a["ranks"], "-"),
        }
    kickers = a["kickers"]
    if code == "pair":
        text = ngettext(
            "Pair of %(rank)s, %(kickers)s kicker",
            "Pair of %(rank)s, %(kickers)s kickers",
            len(kickers),
        )
        return text % {"rank": _plural(a["rank"]), "kickers": _letters(kickers, " ")}
    text = ngettext(
        "%(rank)s high, %(kickers)s kicker", "%(rank)s high, %(kickers)s kickers", len(kickers)
    )
    return text % {"rank": _name(a["rank"]), "kickers": _letters(kickers, " ")}


def foul_text(foul: Message, rules: Rules | None = None) -> str:
    """Why a hand fouled, in the active language."""
    code, a = foul["code"], foul["args"]
    if code == "false_natural":
        return _("declared %(natural)s but the cards do not make it") % {
            "natural": natural_name(a["natural"], rules)
        }
    if code == "not_shown":
        return _("the hand was declared fouled without being shown")
    text = _("%(ahead_row)s %(ahead)s beats %(behind_row)s %(behind)s") % {
        "ahead_row": _(a["ahead"]),
        "ahead": hand_label(a["ahead_hand"]),
        "behind_row": _(a["behind"]),
        "behind": hand_label(a["behind_hand"]),
    }
    if a["lowball"]:
        return _("%(reason)s (with a 2-7 middle only the back must beat the front)") % {
            "reason": text
        }
    return text


def review_text(reason: Message) -> str:
    """Why a deal, or one player of it, was not reviewed, in the active language."""
    code, a = reason["code"], reason["args"]
    if code == "not_reviewed_game":
        return _("%(game)s deals are not reviewed") % {"game": _(_GAMES[a["game"]])}
    if code == "hand_not_shown":
        return _("hand not shown")
    if code == "surrendered_without_cards":
        return _("surrendered without cards")
    return _("set card by card")


# --- results stored before the codes ---------------------------------------------------------


def _replayed(hand: Mapping[str, Any], rules: Rules) -> PlayerResult | None:
    """The hand's three rows scored again on their own, or None without three rows."""
    rows = hand.get("rows")
    if not isinstance(rows, Mapping) or any(row not in rows for row in ROWS):
        return None
    cards = tuple(parse_cards(rows[row]["cards"]) for row in ROWS)
    return score_hands(
        [Hand(str(hand.get("name", "")), (cards[0], cards[1], cards[2]))], rules
    ).players[0]


def _hand_codes(hand: dict[str, Any], rules: Rules) -> None:
    rows = hand.get("rows")
    if not isinstance(rows, Mapping):
        return
    missing = "foul_code" not in hand or any("label_code" not in r for r in rows.values())
    played = _replayed(hand, rules) if missing else None
    if played is not None and played.rows is not None:
        for row, found in zip(ROWS, played.rows, strict=True):
            rows[row].setdefault("label_code", found.code(rules.wheel))
    if "foul_code" in hand:
        return
    if hand.get("false_natural"):
        hand["foul_code"] = {"code": "false_natural", "args": {"natural": hand["false_natural"]}}
    elif not hand.get("fouled"):
        hand["foul_code"] = None
    elif played is not None:
        hand["foul_code"] = played.foul_code
    else:
        hand["foul_code"] = {"code": "not_shown", "args": {}}


def _hands(player: dict[str, Any]) -> list[dict[str, Any]]:
    hands = player.get(HANDS_FIELD)
    return list(hands) if isinstance(hands, list) else [player]


def result_codes(result: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """A copy of a result with every row's ``label_code`` and every hand's ``foul_code``:
    as stored, or found again from the cards for a result stored before them."""
    found: dict[str, Any] = copy.deepcopy(dict(result))
    for player in found.get("players", []):
        for hand in _hands(player):
            if "rows" in hand:
                _hand_codes(hand, rules)
    return found


def localized_result(result: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """A copy of a result with its labels and foul reasons in the active language, beside
    their codes (the same in every language)."""
    found = result_codes(result, rules)
    for player in found.get("players", []):
        for hand in _hands(player):
            rows = hand.get("rows")
            if isinstance(rows, Mapping):
                for row in rows.values():
                    if "label_code" in row:
                        row["label"] = hand_label(row["label_code"])
            if hand.get("foul_code") is not None:
                hand["foul_reason"] = foul_text(hand["foul_code"], rules)
    return found


def row_labels(hand: Mapping[str, Any], rules: Rules) -> dict[str, str]:
    """Each stored row's name in the active language, by row."""
    rows = result_codes({"players": [dict(hand)]}, rules)["players"][0].get("rows") or {}
    return {
        name: hand_label(row["label_code"]) if "label_code" in row else str(row.get("label", ""))
        for name, row in rows.items()
    }
