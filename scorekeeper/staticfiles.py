"""Static files in production: WhiteNoise's hashed names and compressed copies, faster made.

Brotli at its default (highest) quality takes about two minutes of a core over the API docs'
bundles (drf-spectacular-sidecar), at every `collectstatic`; gzip alone takes seconds and
every browser reads it. Source maps are left uncompressed: only developer tools fetch them.
"""

from __future__ import annotations

from typing import Any

from whitenoise.compress import Compressor  # type: ignore[import-untyped]
from whitenoise.storage import (  # type: ignore[import-untyped]
    CompressedManifestStaticFilesStorage,
)


class GzipManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def create_compressor(self, **kwargs: Any) -> Compressor:
        extensions = [
            *(kwargs.pop("extensions", None) or Compressor.SKIP_COMPRESS_EXTENSIONS),
            "map",
        ]
        return Compressor(extensions=extensions, use_brotli=False, **kwargs)
