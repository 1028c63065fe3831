"""The reason given for an edit, a void, a restore or a reopen, as it is stored."""

from __future__ import annotations

from games.services import texts

REASON_LENGTH = 200  # what the pages' reason fields take


def checked_reason(reason: object) -> str:
    """A reason as stored: one line of free text (``games.services.texts``), at most
    ``REASON_LENGTH`` characters; ServiceError on ``reason`` otherwise."""
    return texts.clean(reason, "reason", max_length=REASON_LENGTH)
