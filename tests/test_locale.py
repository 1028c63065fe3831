"""The Vietnamese catalogue: complete, and its committed .mo compiled from the .po as it is.

A fresh checkout runs in Vietnamese with no gettext installed because the compiled
``django.mo`` is committed; these tests keep it honest (``make messages`` rebuilds both).
"""

from pathlib import Path

import polib
import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
PO = LOCALE / "vi" / "LC_MESSAGES" / "django.po"
MO = LOCALE / "vi" / "LC_MESSAGES" / "django.mo"


def catalogue(entries: polib._BaseFile) -> dict[tuple[str, str, str], object]:
    """Every translated message: (context, id, plural id) -> its translation(s)."""
    return {
        (entry.msgctxt or "", entry.msgid, entry.msgid_plural or ""): (
            tuple(sorted(entry.msgstr_plural.items())) if entry.msgid_plural else entry.msgstr
        )
        for entry in entries
        if entry.msgid and not entry.obsolete and "fuzzy" not in entry.flags
    }


@pytest.fixture(scope="module")
def po() -> polib.POFile:
    return polib.pofile(str(PO))


def test_every_message_is_translated_and_none_fuzzy(po: polib.POFile) -> None:
    live = [entry for entry in po if not entry.obsolete]
    assert len(live) > 100
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    assert not po.metadata_is_fuzzy
    assert po.metadata["Plural-Forms"].startswith("nplurals=1;")


def test_placeholders_survive_translation(po: polib.POFile) -> None:
    import re

    for entry in po:
        wanted = sorted(re.findall(r"%\(\w+\)[sd]", entry.msgid))
        for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            assert sorted(re.findall(r"%\(\w+\)[sd]", text)) == wanted, entry.msgid


def test_committed_mo_is_the_po_compiled(po: polib.POFile, tmp_path: Path) -> None:
    fresh = tmp_path / "django.mo"
    po.save_as_mofile(str(fresh))
    assert catalogue(polib.mofile(str(MO))) == catalogue(polib.mofile(str(fresh)))


def test_the_catalogue_holds_every_marked_string(tmp_path: Path) -> None:
    """``make messages`` run on a copy of the code finds nothing new to translate: a string
    marked in the code or a template but missing from the committed .po fails here."""
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
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "vi", "--no-obsolete", "--no-location"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    fresh = polib.pofile(str(tmp_path / "locale" / "vi" / "LC_MESSAGES" / "django.po"))
    missing = [entry.msgid for entry in fresh.untranslated_entries() + fresh.fuzzy_entries()]
    assert missing == []
