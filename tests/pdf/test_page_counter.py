"""The PDF footer's page numbers, written into the stylesheet in the sheet's language."""

import pytest
from django.utils import translation

from games.templatetags import sheets


@pytest.mark.parametrize(
    ("language", "css"),
    [
        ("en", '"Page " counter(page) " of " counter(pages)'),
        ("zh-hans", '"第 " counter(page) " 页，共 " counter(pages) " 页"'),
        ("zh-hant", '"第 " counter(page) " 頁，共 " counter(pages) " 頁"'),
    ],
)
def test_the_footer_counts_pages_in_the_sheets_language(language: str, css: str) -> None:
    with translation.override(language):
        assert sheets.page_counter() == css


def test_a_translation_cannot_end_the_string_or_the_style(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sheets, "_", lambda text: 'p. "%(page)s" \\ %(pages)s</style>')

    assert sheets.page_counter() == (
        '"p. \\22 " counter(page) "\\22  \\5c  " counter(pages) "\\3c /style\\3e "'
    )
