"""The one exception type the engine raises for bad input."""

from __future__ import annotations


class ScoreError(ValueError):
    """Input that cannot be scored.

    ``message`` is meant for people (it names the player, the row and the bad text);
    ``field`` locates the culprit in the request, e.g. ``players[1].middle``.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message


class RuleError(ScoreError):
    """A rule set that names an unknown option or gives an option a bad value."""
