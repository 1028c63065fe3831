"""Template tags of the PDF sheets (templates/pdf/)."""

from __future__ import annotations

import re

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()

_COUNTERS = {"%(page)s": "counter(page)", "%(pages)s": "counter(pages)"}


def _css_string(text: str) -> str:
    """``text`` as a CSS string, quoted; a quote, a backslash or a ``<`` (which could end
    the style element) written as its CSS escape."""
    return '"' + "".join(f"\\{ord(c):x} " if c in '"\\<>' else c for c in text) + '"'


@register.simple_tag
def page_counter() -> SafeString:
    """The page footer's CSS ``content``, "Page 2 of 5" in the language being rendered:
    the translated sentence with its two numbers as the page counters."""
    # TRANSLATORS: the footer of every page of a PDF sheet.
    sentence = _("Page %(page)s of %(pages)s")
    parts = [part for part in re.split(r"(%\(pages?\)s)", sentence) if part]
    return mark_safe(" ".join(_COUNTERS.get(part) or _css_string(part) for part in parts))
