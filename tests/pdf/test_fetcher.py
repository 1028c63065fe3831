"""What a PDF may load: the project's own templates and static files, and data: URLs.

Anything else a page names (a web address, a file elsewhere on the server, a path climbing
out of the templates folder) is refused by the fetcher before any connection or read, and
the PDF is made without it. A web address here is a server on the loopback address that
counts its requests, so a fetch would show.
"""

from __future__ import annotations

import base64
import io
import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, ClassVar

import pytest
from django.conf import settings
from pypdf import PdfReader

from games.models import Session
from games.sheets import compose, pdf
from tests.pdf.conftest import pdf_text

# A 1x1 transparent PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)


class Counter(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        Counter.hits.append(self.path)
        body = PNG if self.path.endswith(".png") else b"body { color: red }"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def web_server() -> Iterator[str]:
    """A web server on 127.0.0.1 that records every request; its base URL."""
    Counter.hits = []
    server = HTTPServer(("127.0.0.1", 0), Counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def attachments(content: bytes) -> dict[str, list[bytes]]:
    """Files embedded in the PDF: the document's (``<link rel="attachment">``) and those of
    link annotations (``<a rel="attachment">``), by file name."""
    reader = PdfReader(io.BytesIO(content))
    found = {name: list(data) for name, data in reader.attachments.items()}
    for number in range(len(reader.pages)):
        for annotation in reader.pages[number].get("/Annots") or []:
            spec = annotation.get_object().get("/FS")
            if spec is not None:
                spec = spec.get_object()
                data = spec["/EF"]["/F"].get_object().get_data()
                found.setdefault(str(spec.get("/UF") or spec.get("/F")), []).append(data)
    return found


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "scorekeeper.pdf"]


def page(body: str, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><meta charset='utf-8'>{head}</head><body>{body}</body></html>"
    )


def test_web_addresses_are_refused_without_a_connection(
    web_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    html = page(
        f'<p>Totals</p><img src="{web_server}/logo.png">'
        f'<a rel="attachment" href="{web_server}/notes.txt">notes</a>',
        head=f'<link rel="stylesheet" href="{web_server}/sheet.css">'
        f'<link rel="attachment" href="{web_server}/terms.txt">',
    )

    with caplog.at_level(logging.WARNING):
        content = pdf.html_to_pdf(html)

    assert Counter.hits == []
    assert "Totals" in pdf_text(content)
    assert attachments(content) == {}
    refused = refusals(caplog)
    for name in ("sheet.css", "logo.png", "notes.txt", "terms.txt"):
        assert f"PDF: refused to load {web_server}/{name}" in refused


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        # Relative to the templates folder, climbing out of it.
        "../pyproject.toml",
        "../../../../../../../../etc/passwd",
        # Inside the templates folder's path, but resolving outside it.
        f"file://{settings.BASE_DIR}/templates/../pyproject.toml",
        f"file://{settings.BASE_DIR}/templates/%2e%2e/pyproject.toml",
        # Another host's file.
        f"file://example.org{settings.BASE_DIR}/templates/pdf/base.html",
    ],
)
def test_files_outside_the_templates_and_static_folders_are_refused(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    html = page(
        f'<img src="{url}"><a rel="attachment" href="{url}">the file</a>',
        head=f'<link rel="stylesheet" href="{url}"><link rel="attachment" href="{url}">',
    )

    with caplog.at_level(logging.WARNING):
        content = pdf.html_to_pdf(html)

    assert attachments(content) == {}
    assert b"root:" not in content
    assert any(message.startswith("PDF: refused to load file:") for message in refusals(caplog))


def test_the_projects_own_files_and_data_urls_are_served(
    caplog: pytest.LogCaptureFixture,
) -> None:
    css = settings.BASE_DIR / "games" / "static" / "games" / "table.css"
    data_png = "data:image/png;base64," + base64.b64encode(PNG).decode()
    html = page(
        '<a rel="attachment" href="../games/static/games/table.css">relative</a>'
        f'<img src="{data_png}">',
        head=f'<link rel="attachment" href="file://{settings.BASE_DIR}/templates/pdf/base.html">',
    )

    with caplog.at_level(logging.WARNING):
        content = pdf.html_to_pdf(html)

    files = attachments(content)
    assert files["table.css"] == [css.read_bytes()]
    assert files["base.html"] == [(settings.BASE_DIR / "templates/pdf/base.html").read_bytes()]
    assert refusals(caplog) == []


def test_the_real_sheet_renders_and_asks_for_nothing_refused(
    night: Session, web_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        content = compose.render("sheet", night)

    text = pdf_text(content)
    assert "Totals" in text and "Who pays whom" in text
    assert refusals(caplog) == []
    assert Counter.hits == []
