"""The settlement sheet in Simplified and Traditional Chinese: the words a 十三水 table
reads, each character drawn in the Chinese font of the stylesheet (WenQuanYi Micro Hei,
Debian's fonts-wqy-microhei), so none is a missing-glyph box."""

import io
import re

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from pypdf import PdfReader

from games.models import Group, Player, Session
from games.sheets import compose
from tests.pdf.conftest import pdf_text
from tests.pdf.test_vietnamese import mau_binh_night

HAN = re.compile(r"[\u3400-\u9fff]")
CHINESE_FONT = "WenQuanYi-Micro-Hei"

# What the hand-worked night's sheet says, script by script: its title and headings, the
# game, hands of the royalty table, a foul, a scoop, the natural Bob declared and the footer.
WORDS = {
    "zh-hans": (
        "Friday club：结算单",
        "现行规则",
        "合计",
        "谁付给谁",
        "逐对结算",
        "十三水，预设 classic-1-6",
        "葫芦",
        "铁支",
        "同花顺",
        "Bob 相公",
        "Bob 打枪 Ann",
        "Bob: 六对半",
        "第 1 页，共 2 页",
    ),
    "zh-hant": (
        "Friday club：結算單",
        "現行規則",
        "合計",
        "誰付給誰",
        "逐對結算",
        "十三水，預設 classic-1-6",
        "葫蘆",
        "鐵支",
        "同花順",
        "Bob 相公",
        "Bob 打槍 Ann",
        "Bob: 六對半",
        "第 1 頁，共 2 頁",
    ),
}


def fonts_drawing_han(content: bytes) -> dict[str, set[str]]:
    """Each font of the PDF that draws a Chinese character, with the characters it draws."""
    drawn: dict[str, set[str]] = {}

    def visit(text: str, _cm: object, _tm: object, font: dict | None, _size: float) -> None:
        han = set(HAN.findall(text))
        if han:
            name = str(font["/BaseFont"]) if font else "no font"
            drawn.setdefault(name.split("+")[-1], set()).update(han)

    for page in PdfReader(io.BytesIO(content)).pages:
        page.extract_text(visitor_text=visit)
    return drawn


@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_sheet_reads_in_chinese(night: Session, language: str) -> None:
    with translation.override(language):
        content = compose.render("sheet", night)
    text = pdf_text(content)

    for words in WORDS[language]:
        assert words in text, words
    other = "zh-hant" if language == "zh-hans" else "zh-hans"
    assert WORDS[other][0] not in text  # one script, not a mix of both
    for english in ("settlement sheet", "Who pays whom", "Rules in force", "Chinese poker", "Page"):
        assert english not in text
    assert re.search(r"\+1 u\b", text) is None  # the head-to-head's units: "+1 分"


@pytest.mark.parametrize("language", sorted(WORDS))
def test_every_chinese_character_is_drawn_in_the_chinese_font(
    night: Session, language: str
) -> None:
    with translation.override(language):
        content = compose.render("sheet", night)

    drawn = fonts_drawing_han(content)
    assert sum(len(chars) for chars in drawn.values()) > 50
    # Its regular, bold (synthetic) and monospaced faces (the listing); never DejaVu, which
    # has no Chinese and would draw a box.
    faces = {"", "-Bold", "-Mono", "-Mono-Bold"}
    assert set(drawn) <= {CHINESE_FONT + face for face in faces}
    assert CHINESE_FONT in drawn


def test_a_mau_binh_sheet_keeps_the_vietnamese_names_beside_the_chinese(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    session = mau_binh_night(group, players, ann_user, bob_user)
    with translation.override("zh-hans"):
        text = pdf_text(compose.render("sheet", session))

    assert "Mậu Binh（越南十三水）" in text
    assert "Di: 六对半 (lục phé bôn)" in text
    assert "相公 (binh lủng)" in text
