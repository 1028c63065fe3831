"""The engine's words in the active language, from the codes the engine gives beside its
English (``games.engine.messages``): hand names, foul reasons, the review's reasons and
card errors, through gettext, so any catalogue under ``locale/`` reads them. In English
they are the engine's own words."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from games.engine import Rules
from games.engine.cards import RANK_CHARS
from games.engine.games import DESCRIPTORS
from games.engine.messages import Message
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
        game = _GAMES.get(a["game"])
        return _("%(game)s deals are not reviewed") % {
            "game": _(game) if game is not None else a["game"]
        }
    if code == "unknown":  # stored in words no code was found for
        return str(a["text"])
    if code == "hand_not_shown":
        return _("hand not shown")
    if code == "surrendered_without_cards":
        return _("surrendered without cards")
    return _("set card by card")


def card_error_text(error: Message) -> str:
    """Why text typed as cards is not cards, in the active language."""
    code, a = error["code"], error["args"]
    if code == "unknown_rank":
        return _("unknown rank '%(rank)s' in '%(text)s'") % a
    if code == "no_suit":
        return _("'%(card)s' has no suit") % a
    return _("unknown suit '%(suit)s' in '%(text)s'") % a
