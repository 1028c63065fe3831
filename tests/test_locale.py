"""Every catalogue (each language of ``settings.LANGUAGES`` but English): complete, and its
committed .mo compiled from the .po as it is.

A fresh checkout runs in any of these languages with no gettext installed because the
compiled ``django.mo`` files are committed; these tests keep them honest (``make messages``
rebuilds both).
"""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils.translation import to_locale

LOCALE = Path(settings.BASE_DIR) / "locale"
# English is the source language: its text is the msgids themselves.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]")


def folder(language: str) -> Path:
    """Where Django looks for ``language``'s catalogue: locale/zh_Hans for zh-hans."""
    return LOCALE / to_locale(language) / "LC_MESSAGES"


def catalogue(entries: polib._BaseFile) -> dict[tuple[str, str, str], object]:
    """Every translated message: (context, id, plural id) -> its translation(s)."""
    return {
        (entry.msgctxt or "", entry.msgid, entry.msgid_plural or ""): (
            tuple(sorted(entry.msgstr_plural.items())) if entry.msgid_plural else entry.msgstr
        )
        for entry in entries
        if entry.msgid and not entry.obsolete and "fuzzy" not in entry.flags
    }


@pytest.fixture(scope="module", params=TRANSLATED)
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def po(language: str) -> polib.POFile:
    return polib.pofile(str(folder(language) / "django.po"))


def test_every_language_but_english_has_a_catalogue() -> None:
    assert TRANSLATED == ["vi", "zh-hans", "zh-hant"]
    assert {to_locale(code) for code in TRANSLATED} == {
        path.name for path in LOCALE.iterdir() if (path / "LC_MESSAGES" / "django.po").exists()
    }


def test_every_message_is_translated_and_none_fuzzy(po: polib.POFile) -> None:
    live = [entry for entry in po if not entry.obsolete]
    assert len(live) > 100
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    assert not po.metadata_is_fuzzy
    assert po.metadata["Plural-Forms"].startswith("nplurals=1;")


def test_placeholders_survive_translation(po: polib.POFile) -> None:
    for entry in po:
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            assert sorted(PLACEHOLDER.findall(text)) == wanted, entry.msgid


def test_chinese_has_no_english_sentence_left(language: str, po: polib.POFile) -> None:
    """A Chinese translation holds Chinese: a run of three English words outside markup and
    placeholders, or a message copied as it is, is a sentence nobody translated."""
    if not language.startswith("zh"):
        pytest.skip("the check reads Chinese catalogues")
    words = re.compile(r"[A-Za-z]{2,}")
    sentence = re.compile(r"\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b")
    left = []
    for entry in po:
        for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            bare = re.sub(r"<[^>]+>|%\(\w+\)[sdr]|manage\.py \w+", "", text)
            if sentence.search(bare) or (text == entry.msgid and words.search(bare)):
                left.append(entry.msgid)
    assert left == []


def test_committed_mo_is_the_po_compiled(language: str, po: polib.POFile, tmp_path: Path) -> None:
    fresh = tmp_path / "django.mo"
    po.save_as_mofile(str(fresh))
    committed = polib.mofile(str(folder(language) / "django.mo"))
    assert catalogue(committed) == catalogue(polib.mofile(str(fresh)))


def test_the_catalogues_hold_every_marked_string(tmp_path: Path) -> None:
    """``make messages`` run on a copy of the code finds nothing new to translate: a string
    marked in the code or a template but missing from a committed .po fails here."""
    import shutil
    import subprocess
    import sys

    from tests.conftest import skip_or_fail

    if shutil.which("xgettext") is None:
        skip_or_fail("GNU gettext (xgettext) is not installed")
    base = Path(settings.BASE_DIR)
    for name in ("games", "templates", "scorekeeper", "scripts", "locale"):
        shutil.copytree(base / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(base / "manage.py", tmp_path / "manage.py")
    languages = [arg for code in TRANSLATED for arg in ("-l", to_locale(code))]
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", *languages, "--no-obsolete", "--no-location"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    for code in TRANSLATED:
        po_path = tmp_path / "locale" / to_locale(code) / "LC_MESSAGES" / "django.po"
        fresh = polib.pofile(str(po_path))
        missing = [entry.msgid for entry in fresh.untranslated_entries() + fresh.fuzzy_entries()]
        assert (code, missing) == (code, [])
