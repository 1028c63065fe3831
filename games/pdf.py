"""PDF rendering with WeasyPrint: the only module that imports it.

A document is a Django template under ``templates/pdf/`` filled with what
``games.documents`` builds, laid out on A4 or Letter by the template's print CSS.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from weasyprint import HTML  # type: ignore[import-untyped]

from games import documents
from games.models import Document, Player, Session

TEMPLATES = {
    Document.Kind.SHEET: "pdf/settlement_sheet.html",
    Document.Kind.LEDGER: "pdf/ledger.html",
}
PAPER_SIZES = {Document.Paper.A4: "A4", Document.Paper.LETTER: "letter"}


def html_to_pdf(html: str) -> bytes:
    """The PDF of an HTML page (links and images resolved against the templates folder)."""
    pdf = HTML(string=html, base_url=str(settings.BASE_DIR / "templates")).write_pdf()
    assert pdf is not None  # write_pdf returns the bytes when given no target
    return pdf


def document_html(
    kind: str,
    session: Session,
    player: Player | None,
    paper: str,
    produced_at: datetime.datetime | None = None,
) -> str:
    """The filled template of a session's sheet, or of a player's ledger."""
    data: dict[str, Any]
    if kind == Document.Kind.SHEET:
        data = documents.sheet_data(session, produced_at)
    else:
        if player is None:
            raise ValueError("a ledger needs a player")
        data = documents.ledger_data(session, player, produced_at)
    data["page_size"] = PAPER_SIZES[Document.Paper(paper)]
    return render_to_string(TEMPLATES[Document.Kind(kind)], data)


def render(
    kind: str,
    session: Session,
    player: Player | None = None,
    paper: str = Document.Paper.A4,
    produced_at: datetime.datetime | None = None,
) -> bytes:
    """The PDF of a session's settlement sheet (``kind`` "sheet") or a player's ledger."""
    return html_to_pdf(document_html(kind, session, player, paper, produced_at))
