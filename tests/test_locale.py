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
