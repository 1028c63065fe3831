"""Free text people type: payment notes, reasons, device names, a night's notes.

One policy for every field, the names' own (``games.services.names`` uses the same
characters): text is stored in Unicode's composed form (NFC) with spaces trimmed at both
ends, and a character that hides or breaks text on a page or a sheet is refused with its
code and position. Refused are control characters (Cc: NUL, tabs, line breaks), invisible
formatting ones (Cf: right-to-left overrides and isolates, zero-width spaces, soft hyphens),
line and paragraph separators, surrogates, private-use and unassigned code points.

Two exceptions, each where it changes nothing hidden: a line break in a multi-line field
(a session's notes; ``\\r\\n`` and ``\\r`` are read as ``\\n``), and a zero-width joiner
between two emoji, where it makes one picture of them (a family, a flag, a profession).
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from games.errors import ServiceError

# Control, format, surrogate, private-use and unassigned characters; line and paragraph
# separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_JOINER = "\u200d"
# What may sit between an emoji and the joiner that follows it: the emoji presentation
# selector and the five skin tones.
_EMOJI_TAIL = frozenset("\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")


def refused_at(text: str, *, multiline: bool = False) -> int | None:
    """The index of the first character ``text`` may not hold, or None."""
    for k, char in enumerate(text):
        if unicodedata.category(char) not in _REFUSED_CATEGORIES:
            continue
        if char == "\n" and multiline:
            continue
        if char == _JOINER and _joins_emoji(text, k):
            continue
        return k
    return None


def _joins_emoji(text: str, k: int) -> bool:
    before = k - 1
    while before >= 0 and text[before] in _EMOJI_TAIL:
        before -= 1
    return (
        before >= 0
        and k + 1 < len(text)
        and unicodedata.category(text[before]) == "So"
        and unicodedata.category(text[k + 1]) == "So"
    )


def described(char: str) -> str:
    """A refused character as a person reads it: its kind, code and Unicode name."""
    code = f"U+{ord(char):04X}"
    called = unicodedata.name(char, "")
    if not called and char in "\r\n":
        called = _("line break")
    label = f"{code} {called}" if called else code
    if unicodedata.category(char) == "Cc":
        return _("a control character (%(label)s)") % {"label": label}
    return _("an invisible character (%(label)s)") % {"label": label}


def expect_text(value: object, field: str) -> str:
    """``value`` if it is text, else ServiceError on ``field``."""
    if not isinstance(value, str):
        raise ServiceError(
            _("%(field)s: expected text, got %(type)s")
            % {"field": field, "type": type(value).__name__},
            field,
        )
    return value


def check_length(text: str, field: str, max_length: int | None) -> str:
    """``text`` if it fits ``max_length`` characters, else ServiceError on ``field``."""
    if max_length is not None and len(text) > max_length:
        raise ServiceError(
            _("%(field)s: at most %(limit)d characters, got %(count)d")
            % {"field": field, "limit": max_length, "count": len(text)},
            field,
        )
    return text


# Characters that broke a line or left a gap in text written before the policy: a space
# stands for each when such text is tidied.
_GAPS = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")


def tidy(text: str, *, multiline: bool = False) -> str:
    """``text`` written before this policy made to pass it, never refused: a line break (kept
    as ``\\n`` when ``multiline``), tab or separator becomes a space, any other refused
    character is dropped; then NFC and trimmed. ``clean`` answers the same for clean text."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n")
    if multiline:
        text = text.replace("\r", "\n")
    kept: list[str] = []
    while (bad := refused_at(text, multiline=multiline)) is not None:
        kept.append(text[:bad] + (" " if text[bad] in _GAPS else ""))
        text = text[bad + 1 :]
    return unicodedata.normalize("NFC", "".join(kept) + text).strip()


def clean(
    value: object, field: str, *, max_length: int | None = None, multiline: bool = False
) -> str:
    """``value`` as a free-text field stores it, or ServiceError naming ``field``: NFC,
    trimmed, no character the policy refuses (a line break only when ``multiline``)."""
    text = unicodedata.normalize("NFC", expect_text(value, field))
    if multiline:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.strip()
    bad = refused_at(text, multiline=multiline)
    if bad is not None:
        raise ServiceError(
            _("%(field)s: %(character)s at position %(position)d is not allowed here")
            % {"field": field, "character": described(text[bad]), "position": bad + 1},
            field,
        )
    return check_length(text, field, max_length)
