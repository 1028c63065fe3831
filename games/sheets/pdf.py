"""HTML in, PDF bytes out, with WeasyPrint: the only module that imports it.

The HTML is a filled template of ``templates/pdf/`` (``games.sheets.compose``), laid out on A4 or
Letter by the template's print CSS.

WeasyPrint loads whatever a page names (stylesheets, images, fonts, attachments, which it
embeds in the PDF). Its fetcher here serves only the project's own files, those under the
templates folder and the static folder of ``games``, and ``data:`` URLs; anything else (a
web address, any other file on the server, a path climbing out of those folders) is
refused before a connection is made or a file opened, logged, and left out of the PDF.
"""

from __future__ import annotations

import logging
import mimetypes
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.conf import settings
from weasyprint import HTML  # type: ignore[import-untyped]
from weasyprint.urls import URLFetcher, URLFetcherResponse  # type: ignore[import-untyped]

log = logging.getLogger("scorekeeper.pdf")


def project_folders() -> list[Path]:
    """The folders whose files a PDF may load: the templates and games' static files."""
    return [settings.BASE_DIR / "templates", settings.BASE_DIR / "games" / "static"]


class FetchRefused(ValueError):
    """A URL outside the project's own files (WeasyPrint skips the resource, with a
    warning, and goes on)."""


class ProjectFilesFetcher(URLFetcher):
    """WeasyPrint's fetcher limited to ``data:`` URLs and files under ``folders``."""

    def __init__(self, folders: list[Path] | None = None) -> None:
        # data: is decoded by urllib's DataHandler; no other scheme reaches an opener.
        super().__init__(allowed_protocols=("data",), allow_redirects=False)
        self.folders = [folder.resolve() for folder in folders or project_folders()]

    def fetch(self, url: str, headers: Any = None) -> Any:
        scheme = urlsplit(url).scheme.lower()
        if scheme == "data":
            return super().fetch(url, headers)
        path = self.project_file(url) if scheme == "file" else None
        if path is None:
            log.warning("PDF: refused to load %s", url)
            raise FetchRefused(f"PDFs load only the project's own files, not {url}")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    def project_file(self, url: str) -> Path | None:
        """The file a file: URL names when it is under one of the folders, else None
        (another host, a folder, a file elsewhere, a link leading out of the folders)."""
        parts = urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            return None
        path = Path(url2pathname(parts.path)).resolve()
        if not path.is_file():
            return None
        return path if any(path.is_relative_to(folder) for folder in self.folders) else None


def html_to_pdf(html: str) -> bytes:
    """The PDF of an HTML page (links and images resolved against the templates folder,
    and loaded only from the project's own files)."""
    pdf = HTML(
        string=html,
        base_url=str(settings.BASE_DIR / "templates"),
        url_fetcher=ProjectFilesFetcher(),
    ).write_pdf()
    assert pdf is not None  # write_pdf returns the bytes when given no target
    return pdf
