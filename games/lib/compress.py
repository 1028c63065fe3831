"""Text answers compressed with gzip when the browser asks (``Accept-Encoding``): the
pages, the API's JSON, CSV. A scoreboard of 30 deals is about a tenth of its size on the
wire, which a phone on a weak signal feels.

Django's ``GZipMiddleware``, which also pads each compressed answer with a few random
bytes against guessing a secret from its length (BREACH; Django masks the CSRF token on
every page as well), minus the answers already compressed: PDFs and images gain nothing
and would only cost the CPU. Static files come compressed from WhiteNoise.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

# Content types that are compressed already (their first part, before any parameter).
ALREADY_COMPRESSED = ("application/pdf", "application/zip", "image/", "font/")


class TextGZipMiddleware(GZipMiddleware):
    """``GZipMiddleware`` for text answers only."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        kind = response.get("Content-Type", "").split(";")[0].strip().lower()
        if kind.startswith(ALREADY_COMPRESSED):
            return response
        return super().process_response(request, response)
