"""Each option's title and each choice's, read from the engine's table and translated: the
forms and the what-if name options by them."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine.options import OPTIONS, OPTIONS_BY_NAME
from games.rules_text import choice_title, option_title

LANGUAGES = ("vi", "zh-hans", "zh-hant")


def test_titles_come_from_the_engines_table_in_english() -> None:
    with translation.override("en"):
        assert [option_title(o.name) for o in OPTIONS] == [o.title for o in OPTIONS]
        assert option_title("surrender_cost") == "Surrender cost"
        assert choice_title("bonus", "none") == "No bonus"
        assert choice_title("wheel", "second") == "Second highest straight"
    # A table's names and anything that is not a choice are not titled.
    assert choice_title("royalties", "baseline") is None
    assert choice_title("wheel", "sideways") is None
    assert choice_title("surrender_cost", None) is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_title_is_translated_and_no_two_alike(language: str) -> None:
    with translation.override(language):
        titles = {o.name: option_title(o.name) for o in OPTIONS}
        choices = {
            o.name: [choice_title(o.name, value) for value in o.choices]
            for o in OPTIONS
            if o.choice_titles
        }
    assert len(set(titles.values())) == len(titles)
    for name, values in choices.items():
        assert len(set(values)) == len(values), name
    # Pineapple and Criss Cross are called so at Vietnamese tables too; nothing else is.
    kept = {"pineapple", "criss_cross"} if language == "vi" else set()
    english = {name for name, title in titles.items() if title == OPTIONS_BY_NAME[name].title}
    assert english == kept


def test_the_table_words_of_each_language() -> None:
    with translation.override("vi"):
        assert option_title("foul_penalty") == "Phạt binh lủng"
        assert option_title("middle") == "Chi giữa"
    with translation.override("zh-hans"):
        assert option_title("scoop_all_multiplier") == "全垒打倍数"
        assert choice_title("bonus", "2-4") == "2-4 计分"
    with translation.override("zh-hant"):
        assert option_title("foul_penalty") == "相公罰分"
