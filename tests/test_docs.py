"""The documentation: the MkDocs site builds without a warning, and every link in README.md
and docs/ leads to a file inside the repository (and to a heading there, when it names one).

MkDocs checks the links between pages itself (``strict`` in mkdocs.yml); the README is no
page of the site, and an image or a link to a file outside docs/ is no page either, so the
second half reads the Markdown itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
# [text](target) and ![alt](target), the target perhaps in <...> and followed by a title.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+[^)]*)?\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*)>")
HTML_ATTRIBUTE = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']*)["']""")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.MULTILINE)
HEADING_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}\s*$")


def markdown_files(root: Path) -> list[Path]:
    """README.md and every Markdown file under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def without_fences(text: str) -> str:
    """The Markdown with its fenced code blocks blanked (a `# comment` there is no heading)."""
    return FENCE.sub(lambda match: "\n" * match.group(0).count("\n"), text)


def without_code(text: str) -> str:
    """The Markdown with fenced blocks and code spans blanked: links in code are no links."""
    return CODE_SPAN.sub("code", without_fences(text))


def link_targets(text: str) -> list[str]:
    """Every link and image target of a Markdown text, in order, outside code."""
    prose = without_code(text)
    targets = [match.group(1).strip("<>") for match in INLINE_LINK.finditer(prose)]
    targets += REFERENCE_DEFINITION.findall(prose)
    targets += AUTOLINK.findall(prose)
    targets += HTML_ATTRIBUTE.findall(prose)
    return targets


def slugify(heading: str) -> str:
    """A heading's anchor as MkDocs makes it (Python-Markdown's toc), markup dropped."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_]", "", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (a repeated slug gets _1, _2, ...)."""
    found: set[str] = set()
    for match in HEADING.finditer(without_fences(path.read_text(encoding="utf-8"))):
        title = match.group(2)
        explicit = HEADING_ID.search(title)
        if explicit:
            found.add(explicit.group(1))
            continue
        slug, n = slugify(title), 0
        while (slug if n == 0 else f"{slug}_{n}") in found:
            n += 1
        found.add(slug if n == 0 else f"{slug}_{n}")
    return found


def link_problems(path: Path, root: Path) -> list[str]:
    """What is wrong with each link of one Markdown file under ``root``; [] when nothing."""
    problems: list[str] = []
    where = path.relative_to(root)
    docs = root / "docs"
    for target in link_targets(path.read_text(encoding="utf-8")):
        if not target:
            problems.append(f"{where}: an empty link")
            continue
        if SCHEME.match(target) or target.startswith("//"):
            problems.append(f"{where}: {target!r} leads outside the repository (a URL)")
            continue
        if target.startswith("/"):
            problems.append(f"{where}: {target!r} is an absolute path; use a relative one")
            continue
        file_part, _, anchor = target.partition("#")
        file_part = file_part.split("?", 1)[0]
        destination = (path.parent / file_part).resolve() if file_part else path
        if not destination.is_relative_to(root):
            problems.append(f"{where}: {target!r} leads outside the repository")
            continue
        if path.is_relative_to(docs) and not destination.is_relative_to(docs):
            problems.append(f"{where}: {target!r} leaves docs/, which the site does not carry")
            continue
        if not destination.exists():
            problems.append(f"{where}: {target!r}: no such file")
            continue
        if anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            problems.append(f"{where}: {target!r}: no heading with the anchor #{anchor}")
    return problems


@pytest.mark.parametrize("path", markdown_files(ROOT), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_leads_to_a_file_in_the_repository(path: Path) -> None:
    assert link_problems(path, ROOT) == []


def test_the_link_check_catches_what_it_should(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Page\n\n## A `code` heading\n\nText.\n")
    (tmp_path / "docs" / "picture.png").write_bytes(b"")
    (tmp_path / "README.md").write_text(
        "\n".join(
            [
                "[fine](docs/page.md) [fine](docs/page.md#a-code-heading)",
                "![fine](docs/picture.png)",
                "[missing](docs/nope.md) [anchor](docs/page.md#nowhere) [own anchor](#nowhere)",
                "[outside](../shared/RULES.md) [url](https://example.com/) <http://example.com/>",
                "[absolute](/etc/passwd) ![missing image](docs/nope.png)",
                "`[in code](docs/nope.md)`",
                "```",
                "[in a block](docs/nope.md)",
                "```",
            ]
        )
    )
    (tmp_path / "docs" / "other.md").write_text("[up and out](../README.md)\n")

    problems = link_problems(tmp_path / "README.md", tmp_path)
    problems += link_problems(tmp_path / "docs" / "other.md", tmp_path)

    flagged = [problem.split(": ", 1)[1].split("'")[1] for problem in problems]
    assert flagged == [
        "docs/nope.md",
        "docs/page.md#nowhere",
        "#nowhere",
        "../shared/RULES.md",
        "https://example.com/",
        "/etc/passwd",
        "docs/nope.png",
        "http://example.com/",
        "../README.md",
    ]


def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    # Material prints a notice about its own end of life; it says nothing about the docs.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = build.stdout + build.stderr
    assert build.returncode == 0, output
    assert "WARNING" not in output, output
    assert (tmp_path / "index.html").exists()
    # Opened from disk (file://), with no server: every link between the pages names a
    # file that is there, never a folder (which a browser shows as a listing).
    broken = []
    for page in tmp_path.rglob("*.html"):
        if page.name == "404.html":
            continue  # a server's answer for a missing page: its links start at the root
        for href in re.findall(r'href="([^"#?]*)', page.read_text()):
            if not href or re.match(r"[a-z]+:", href):
                continue  # the page itself (an anchor), or another site
            target = (page.parent / href).resolve()
            if href.endswith("/") or not target.is_file():
                broken.append(f"{page.relative_to(tmp_path)}: {href}")
    assert broken == [], broken[:10]
