"""HTML in, PDF bytes out, with WeasyPrint: the only module that imports it.

The HTML is a filled template of ``templates/pdf/`` (``games.sheets``), laid out on A4 or
Letter by the template's print CSS.
"""

from __future__ import annotations

from django.conf import settings
from weasyprint import HTML  # type: ignore[import-untyped]


def html_to_pdf(html: str) -> bytes:
    """The PDF of an HTML page (links and images resolved against the templates folder)."""
    pdf = HTML(string=html, base_url=str(settings.BASE_DIR / "templates")).write_pdf()
    assert pdf is not None  # write_pdf returns the bytes when given no target
    return pdf
