"""The stylesheet: every colour is a variable of the light scheme and of the dark one, so
no part of a page is left light in a dark room; the players' colours are the PDF's."""

from __future__ import annotations

import re
from pathlib import Path

from games.sheets.charts import PLAYER_COLOURS

CSS = (Path(__file__).resolve().parents[2] / "games" / "static" / "games" / "table.css").read_text()
COLOUR = re.compile(r"#[0-9a-fA-F]{3,6}\b")


def variables(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block))


def schemes() -> tuple[dict[str, str], dict[str, str]]:
    light = re.search(r"^:root \{(.*?)^\}", CSS, re.S | re.M)
    dark = re.search(r"prefers-color-scheme: dark\) \{\s*:root \{(.*?)\}", CSS, re.S)
    assert light and dark
    return variables(light.group(1)), variables(dark.group(1))


def test_the_players_colours_are_the_pdfs() -> None:
    light, _dark = schemes()
    assert tuple(light[f"--p{k}"] for k in range(4)) == PLAYER_COLOURS


def test_colours_are_named_only_in_the_two_schemes() -> None:
    light, dark = schemes()
    outside = CSS
    for block in re.findall(r"^:root \{.*?^\}", CSS, re.S | re.M):
        outside = outside.replace(block, "")
    outside = re.sub(r"@media \(prefers-color-scheme: dark\) \{.*?\}\s*\}", "", outside, flags=re.S)
    # (#deal-form is an id, not a colour.)
    assert [c for c in COLOUR.findall(outside) if not c.startswith("#deal")] == []
    # The dark scheme changes every colour of the light one but the card faces (white, as
    # on the table) and the focus ring (amber reads on both).
    kept = {"--face", "--face-ink", "--face-red", "--face-line", "--focus"}
    assert set(light) - set(dark) == kept
    assert all(light[name] != dark[name] for name in dark)
