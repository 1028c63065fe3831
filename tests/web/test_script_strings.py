"""The words the scripts write come from the server, in the page's language: every key a
script asks ``scorekeeperText`` for is in the table, and the table is on the page as a JSON
data block (which the Content-Security-Policy lets through, since it never runs)."""

import json
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import Client

from games.web.script_strings import SCRIPT_STRINGS

STATIC = Path(settings.BASE_DIR) / "games" / "static" / "games"


def _keys(table: dict[str, object], prefix: str = "") -> set[str]:
    keys = set()
    for key, value in table.items():
        if isinstance(value, dict):
            keys |= _keys(value, f"{prefix}{key}.")
        else:
            keys.add(prefix + key)
    return keys


def test_every_key_a_script_asks_for_is_in_the_table() -> None:
    known = _keys(SCRIPT_STRINGS)
    asked = {
        key
        for script in STATIC.glob("*.js")
        for key in re.findall(r'\bt\("([\w.]+)"', script.read_text(encoding="utf-8"))
        if not key.endswith(".")  # "rows." + row: a table, its entries named by the engine
    }
    assert asked and asked <= known, asked - known


def test_no_script_writes_a_sentence_of_its_own() -> None:
    for script in STATIC.glob("*.js"):
        code = "\n".join(
            line
            for line in script.read_text(encoding="utf-8").splitlines()
            if not line.strip().startswith("//")
        )
        # A string literal of two or more words that people would read.
        sentences = [
            text
            for text in re.findall(r'"([^"\n]*)"', code)
            if re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", text)
            # class lists and selectors: "unfold secondary", "fieldset.seat legend"
            and not re.fullmatch(r"[a-z0-9 .#\[\]=_-]+", text)
        ]
        assert sentences == [], (script.name, sentences)


def _strings(page: str) -> dict[str, Any]:
    block = re.search(r'<script id="js-strings" type="application/json">(.*?)</script>', page)
    assert block, "no JSON data block"
    return json.loads(block.group(1))


def test_the_page_carries_the_words_in_its_language(db: None) -> None:
    english = _strings(Client().get("/accounts/login/").content.decode())
    assert english["tap_for"] == "Tap the cards for %(row)s"
    assert english["rows"] == {"front": "front", "middle": "middle", "back": "back"}

    page = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    vietnamese = _strings(page)
    assert vietnamese["tap_for"] == "Chạm vào các lá bài cho %(row)s"
    assert vietnamese["rows"]["front"] == "chi đầu"
    assert vietnamese["kinds"]["foul"] == "binh lủng"
