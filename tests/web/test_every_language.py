"""Every page in every language of ``settings.LANGUAGES``: ``<html lang>`` and the
Content-Language say the language asked for, and a Chinese page has no English left in
what the site itself writes (the night's own names, a group's or a player's, stay as typed)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.models import Group, Session
from tests.web.test_csp import SIGNED_OUT, page_urls, played

played = played  # the night of tests/web/test_csp.py, one deal recorded

LANGUAGES = [code for code, _name in settings.LANGUAGES]
CHINESE = [code for code in LANGUAGES if code.startswith("zh")]


class Text(HTMLParser):
    """A page's words as a reader meets them: its text and the attributes read aloud or
    shown (title, aria-label, placeholder, a button's value), without scripts, styles, the
    data handed to the scripts, and code samples."""

    SKIP = frozenset({"script", "style", "code", "template"})
    SHOWN = frozenset({"title", "aria-label", "placeholder", "alt"})

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        self.words += [value or "" for name, value in attrs if name in self.SHOWN]

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.words.append(data.strip())

    @classmethod
    def of(cls, page: str) -> list[str]:
        reader = cls()
        reader.feed(page)
        return reader.words


def english_of_the_catalogue() -> set[str]:
    """The English of every marked message, as runs of two words or more between its
    placeholders and tags: what a page shows where a translation was not looked up."""
    import polib
    from django.utils.translation import to_locale

    path = Path(settings.BASE_DIR) / "locale" / to_locale(CHINESE[0]) / "LC_MESSAGES" / "django.po"
    runs: set[str] = set()
    for entry in polib.pofile(str(path)):
        for source in filter(None, (entry.msgid, entry.msgid_plural)):
            for run in re.split(r"%\(\w+\)[sdr]|<[^>]*>|[“”():;·]", source):
                run = run.strip(" ,.?…")
                if len(re.findall(r"[A-Za-z]{2,}", run)) >= 2:
                    runs.add(run)
    return runs


@pytest.fixture(scope="module")
def english() -> set[str]:
    return english_of_the_catalogue()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_is_in_the_language_asked_for(
    played: Session, group: Group, as_alice: Client, language: str, english: set[str]
) -> None:
    wrong: dict[str, object] = {}
    # The night settled by someone reading this language: the payments' note is theirs.
    with translation.override(language):
        urls = page_urls(played, group)
    for name, url in urls.items():
        client = Client() if name in SIGNED_OUT else as_alice
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(url)
        page = response.content.decode()
        said = (
            response.status_code,
            response["Content-Language"],
            page.count(f'<html lang="{language}">'),
        )
        if said != (200, language, 1):
            wrong[name] = said
        elif language in CHINESE:
            left = sorted({run for text in Text.of(page) for run in english if run in text})
            if left:
                wrong[name] = left
    assert wrong == {}
