"""Names people type: players, groups, places.

A name is stored in Unicode's compatibility form (NFKC: full-width letters are the plain ones),
with spaces trimmed at both ends and runs of spaces inside made one. The characters refused
are those of every free-text field (``games.services.texts``): control and format
characters (line breaks, tabs, zero-width spaces, right-to-left overrides) are refused:
they hide a name on a sheet, break a download's file name, or make a look-alike of
another player. Two player names are the same name when they match after case-folding
(``ann`` beside ``Ann``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.services import texts


def clean(
    value: object,
    field: str = "name",
    *,
    max_length: int,
    what: str = "a player",
    required: bool = True,
) -> str:
    """``value`` as it is stored, or ServiceError naming ``field`` and the cause."""
    text = unicodedata.normalize("NFKC", texts.expect_text(value, field)).strip()
    bad = texts.refused_at(text)
    if bad is not None:
        raise ServiceError(
            _("%(field)s: %(character)s at position %(position)d is not allowed in a name")
            % {"field": field, "character": texts.described(text[bad]), "position": bad + 1},
            field,
        )
    text = " ".join(text.split())
    if required and not text:
        needs = (
            _("%(field)s: a group needs a name")
            if what == "a group"
            else _("%(field)s: a player needs a name")
        )
        raise ServiceError(needs % {"field": field}, field)
    return texts.check_length(text, field, max_length)


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
