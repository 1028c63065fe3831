"""Names people type: players, groups, places.

A name is stored in Unicode's compatibility form (NFKC: full-width letters are the plain ones),
with spaces trimmed at both ends and runs of spaces inside made one. Control and format
characters (line breaks, tabs, zero-width spaces, right-to-left overrides) are refused:
they hide a name on a sheet, break a download's file name, or make a look-alike of
another player. Two player names are the same name when they match after case-folding
(``ann`` beside ``Ann``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from games.errors import ServiceError

# Control, format, surrogate, private-use and unassigned characters; line and paragraph
# separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean(
    value: object,
    field: str = "name",
    *,
    max_length: int,
    what: str = "a player",
    required: bool = True,
) -> str:
    """``value`` as it is stored, or ServiceError naming ``field`` and the cause."""
    if not isinstance(value, str):
        raise ServiceError(f"{field}: expected text, got {type(value).__name__}", field)
    text = unicodedata.normalize("NFKC", value).strip()
    for k, char in enumerate(text, start=1):
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise ServiceError(
                f"{field}: {_described(char)} at position {k} is not allowed in a name", field
            )
    text = " ".join(text.split())
    if required and not text:
        raise ServiceError(f"{field}: {what} needs a name", field)
    if len(text) > max_length:
        raise ServiceError(f"{field}: at most {max_length} characters, got {len(text)}", field)
    return text


def _described(char: str) -> str:
    code = f"U+{ord(char):04X}"
    called = unicodedata.name(char, "")
    if not called and char in "\r\n":
        called = "line break"
    kind = "a control character" if unicodedata.category(char) == "Cc" else "an invisible character"
    return f"{kind} ({code} {called})" if called else f"{kind} ({code})"


def key(name: str) -> str:
    """What two names are compared by: normalised and case-folded."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def same_as(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that is the same name as ``name``, or None."""
    wanted = key(name)
    return next((other for other in others if key(other) == wanted), None)


def file_part(name: str) -> str:
    """``name`` fit for a download's file name: letters, digits, ``-``, ``_`` and ``.``;
    anything else (spaces, quotes, a line break kept in older data) becomes ``_``."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "_"
