"""The reason given for an edit, a void or a restore, as it is stored."""

from __future__ import annotations

from games.errors import ServiceError

REASON_LENGTH = 200  # what the pages' reason fields take


def checked_reason(reason: str) -> str:
    """A reason for an edit or a void as stored (ServiceError on ``reason`` otherwise)."""
    if len(reason) > REASON_LENGTH:
        raise ServiceError(f"reason: at most {REASON_LENGTH} characters", "reason")
    if "\x00" in reason:
        raise ServiceError("reason: no NUL characters", "reason")
    return reason
