"""The errors a change to the data may raise, and the one shape every caller shows them in.

Each carries a message for people and, like the engine's ``ScoreError``, the field that
caused it (``players[1].name``). The API answers them as ``{"error", "field"}``
(``error_body``); the pages show the message next to that field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ServiceError(Exception):
    """A change that cannot be made; ``field`` names the culprit as ScoreError's does."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class SessionClosed(ServiceError):
    """The session is closed: its deals are read-only."""


class SessionOpen(ServiceError):
    """The session is open already: there is nothing to reopen."""


class DealNotActive(ServiceError):
    """The deal is void: it can be neither edited nor voided again."""


class DealNotVoid(ServiceError):
    """The deal counts already: there is no void to undo."""


class HasHistory(ServiceError):
    """The object carries recorded history (seats, deals), so it is not deleted."""


class IdempotencyConflict(ServiceError):
    """The idempotency key already recorded other players in this session: deal ``number``."""

    def __init__(self, message: str, field: str | None = None, number: int | None = None) -> None:
        super().__init__(message, field)
        self.number = number


class PaymentNotPending(ServiceError):
    """The payment is confirmed already: there is nothing to confirm."""


class PaymentVoid(ServiceError):
    """The payment is void: it can be neither corrected, confirmed nor voided again."""


class LastOwner(ServiceError):
    """The group's only owner may be neither demoted nor removed: it would have none."""


class NothingOwed(ServiceError):
    """The night's money is settled already: there is no transfer left to record."""


class NoSuchObject(ServiceError):
    """The request names something that is not there, such as a seat the session does not
    have (HTTP 404)."""


class ImportRefused(ServiceError):
    """The file cannot be imported (malformed, inconsistent, or the group is not empty)."""


# Conflicts with the state of the data rather than with the request itself (HTTP 409).
CONFLICTS = (
    SessionClosed,
    SessionOpen,
    DealNotActive,
    DealNotVoid,
    HasHistory,
    IdempotencyConflict,
    PaymentNotPending,
    PaymentVoid,
    NothingOwed,
    LastOwner,
)


def error_body(
    message: str, field: str | None = None, code: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The body of every refusal the service answers: ``{"error": message, "field": path}``,
    and for a refusal of the engine its message's ``code`` and ``args`` (the same in every
    language, so that a client may say it in its own words)."""
    if code is None:
        return {"error": message, "field": field}
    return {"error": message, "field": field, "code": code["code"], "args": code["args"]}
