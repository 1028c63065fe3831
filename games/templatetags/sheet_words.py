"""Words a PDF sheet prints from its CSS: the page footer ("Page 1 of 2")."""

from __future__ import annotations

import re

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()

_COUNTERS = {"%(page)s": "counter(page)", "%(pages)s": "counter(pages)"}


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@register.simple_tag
def page_footer() -> SafeString:
    """The ``content`` of the page-number margin box: the sentence in the active language
    with the page counters where it names them, as ``"Page " counter(page) " of " ...``."""
    words = _("Page %(page)s of %(pages)s")
    parts = []
    for piece in re.split(r"(%\(pages?\)s)", words):
        if piece in _COUNTERS:
            parts.append(_COUNTERS[piece])
        elif piece:
            parts.append(_css_string(piece))
    return mark_safe(" ".join(parts))
