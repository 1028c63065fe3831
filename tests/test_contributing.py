"""docs/contributing.md names every module under games/, each in the room it lives in.

The page has a heading per folder (``### `games/live/` ``) followed by a table whose rows
start with a module's file name; the modules listed under a heading must be exactly the
modules in that folder (``__init__.py`` and migrations aside).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "contributing.md"
HEADING = re.compile(r"^### `(games(?:/[\w]+)*)/`\s*$")
ROW = re.compile(r"^\| `([\w]+\.py)` \|")


def listed(text: str) -> dict[str, set[str]]:
    """Folder -> the module file names the page lists under that folder's heading."""
    rooms: dict[str, set[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        if line.startswith("#"):
            match = HEADING.match(line)
            current = match.group(1) if match else None
            if current is not None:
                rooms.setdefault(current, set())
        elif current is not None and (row := ROW.match(line)):
            rooms[current].add(row.group(1))
    return rooms


def on_disk() -> dict[str, set[str]]:
    folders: dict[str, set[str]] = {}
    for path in (ROOT / "games").rglob("*.py"):
        relative = path.relative_to(ROOT)
        if "migrations" in relative.parts or path.name == "__init__.py":
            continue
        folders.setdefault(relative.parent.as_posix(), set()).add(path.name)
    return folders


def test_the_reader_finds_headings_and_rows() -> None:
    text = "\n".join(
        [
            "### `games/live/`",
            "",
            "| Module | What |",
            "|---|---|",
            "| `push.py` | x |",
            "## Next",
            "| `a.py` | y |",
        ]
    )
    assert listed(text) == {"games/live": {"push.py"}}


@pytest.mark.parametrize("folder", sorted(on_disk()))
def test_every_module_is_named_in_its_room(folder: str) -> None:
    page = listed(PAGE.read_text())
    assert folder in page, f"docs/contributing.md has no heading for {folder}/"
    assert page[folder] == on_disk()[folder]


def test_the_page_names_no_folder_that_is_gone() -> None:
    assert set(listed(PAGE.read_text())) <= set(on_disk())
