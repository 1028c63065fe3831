"""What the deal in progress says to the table, in each reader's language: why it was
cancelled, or why the last submit could not be scored.

It is kept as a code (``LiveDeal.message_code``: the message and the player whose hand it
names) beside the words of whoever caused it, and said again for each reader: every
follower of the session reads a refusal with the named player's cards hidden ("…"), and
only that player's own seat reads it whole, before the showdown as after.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from games.engine.messages import Message, english
from games.words.refusals import cards_hidden, refusal_text

CANCELLED: Final[Message] = {"code": "live_cancelled", "args": {}}
CLOSED: Final[Message] = {"code": "session_closed", "args": {}}
LIVE_TEXTS: Final[Mapping[str, Promise]] = {
    "live_cancelled": gettext_lazy("the deal in progress was cancelled"),
    "session_closed": gettext_lazy("the session was closed"),
}


def kept(said: Message, player: int | None = None) -> dict[str, Any]:
    """``LiveDeal.message_code`` for ``said``, naming ``player``'s hand (or none)."""
    return {"said": said, "player": player}


def kept_words(said: Message) -> str:
    """``LiveDeal.message`` beside the code: the words anyone may read, in English."""
    if said["code"] in LIVE_TEXTS:
        with translation.override("en"):
            return str(LIVE_TEXTS[said["code"]])
    return english(cards_hidden(said))


def public(code: Mapping[str, Any]) -> Message:
    """The message every follower may read: the refusal with the named hand's cards hidden."""
    said: Message = code["said"]
    return said if said["code"] in LIVE_TEXTS else cards_hidden(said)


def text(said: Message) -> str:
    """A message of the deal in progress in the active language."""
    if said["code"] in LIVE_TEXTS:
        return str(LIVE_TEXTS[said["code"]])
    return refusal_text(said)


def own(code: Mapping[str, Any] | None, viewer: int) -> str | None:
    """The refusal whole, for the seat of the player it names; None for any other."""
    if not code or code.get("player") != viewer:
        return None
    return text(code["said"])
