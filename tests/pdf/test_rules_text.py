"""The rules in plain language, and the Vietnamese names on a Mau Binh sheet."""

import xml.etree.ElementTree as ET
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games import services
from games.engine.games import GAMES
from games.engine.options import OPTIONS, OPTIONS_BY_NAME
from games.engine.rules import PRESETS, Rules
from games.models import Group, Player
from games.rules_text import (
    describe_rules,
    game_name,
    is_mau_binh,
    natural_name,
    option_sentence,
)
from games.sheets import compose
from games.sheets.charts import running_totals_svg
from tests.pdf.conftest import pdf_text
from tests.services.hands import deal

D = Decimal


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_is_described(preset: str) -> None:
    lines = describe_rules(Rules.from_mapping(preset))

    assert lines[0].endswith(
        f"preset {preset}, up to {Rules.from_mapping(preset).max_players} players."
    )
    assert all(line.endswith(".") for line in lines)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("standard", "A fouled hand pays each live opponent as if scooped."),
        ("standard", "Surrender is not allowed."),
        ("standard", "No royalties."),
        (
            {"preset": "classic-1-6", "surrender_cost": "4"},
            "Surrender allowed: it costs 4 units to each opponent who did not surrender.",
        ),
        ("classic-2-4", "Scoring 2-4: one unit per row, plus one to whoever won more rows"),
        (
            {"preset": "classic-1-6", "naturals": {"six_pairs": None, "dragon": 20}},
            "Naturals, declared with the hand and paid by every opponent: dragon 20, "
            "three flushes 3, three straights 3.",
        ),
        ("mau-binh-south", "A-2-3-4-5 is the second-highest straight."),
        ("mau-binh-north", "A-2-3-4-5 is the lowest straight."),
        ("mau-binh-south", "scooping all three opponents (sập làng) multiplies each of them by 4"),
        ("mau-binh-south", "six pairs (lục phé bôn) 6"),
        ("mau-binh-south", "A fouled hand (binh lủng) pays each live opponent as if scooped."),
        (
            "ofc",
            "front pair of sixes 1 up to pair of aces 9, trips of twos 10 up to trips of aces 22",
        ),
        ("pineapple", "(14 cards)"),
        ("pineapple", "Pineapple: each hand discards four cards; fantasy land keeps 13."),
        ("mau-binh-north", "Two naturals: the one higher in the table above is paid its value"),
        ("classic-1-6", "Two naturals: the higher value is paid; equal values pay nothing."),
        (
            {"preset": "classic-1-6", "royalties_declared": True},
            "A royalty counts only on the rows its player declared before the reveal.",
        ),
        (
            {"preset": "standard", "fouled_hand": "played"},
            "After its penalty a fouled hand that was shown is still played row by row",
        ),
        (
            {"preset": "big-two", "multipliers": [[10, 2], [13, 3]], "two_multiplier": 2},
            "10 or more cards left: x2.",
        ),
        ({"preset": "big-two", "two_multiplier": 2}, "Each 2 still held multiplies"),
    ],
)
def test_sentences_carry_the_rule_sets_own_numbers(
    spec: str | dict[str, Any], expected: str
) -> None:
    text = " ".join(describe_rules(Rules.from_mapping(spec)))

    assert expected in text


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("standard", "Chinese poker"),
        ("classic-2-4", "Chinese poker"),
        ({"preset": "standard", "criss_cross": True}, "Chinese poker"),
        ("ofc", "Open-face Chinese poker"),
        ("pineapple", "Open-face Chinese poker"),
        ("big-two", "Big Two"),
        ("mau-binh-north", "Mau Binh (Mậu Binh)"),
    ],
)
def test_the_game_is_named_by_its_descriptor(spec: str | dict[str, Any], name: str) -> None:
    rules = Rules.from_mapping(spec)
    if not is_mau_binh(rules):
        assert name == GAMES[rules.game].display_name
    assert game_name(rules) == name
    assert describe_rules(rules)[0].startswith(f"{name}, preset {rules.preset}, up to ")


def test_criss_cross_is_explained_by_its_options_sentence() -> None:
    lines = describe_rules(Rules.from_mapping({"preset": "classic-1-6", "criss_cross": True}))
    assert lines[-1] == OPTIONS_BY_NAME["criss_cross"].sentence
    assert lines[-1].startswith("Criss Cross: two players, two hands each")
    assert OPTIONS_BY_NAME["criss_cross"].sentence not in describe_rules(
        Rules.from_mapping("classic-1-6")
    )


def test_vietnamese_names_only_at_mau_binh_tables() -> None:
    assert (
        natural_name("six_pairs", Rules.from_mapping("mau-binh-north")) == "six pairs (lục phé bôn)"
    )
    assert natural_name("six_pairs", Rules.from_mapping("classic-1-6")) == "six pairs"
    assert natural_name("dragon", Rules.from_mapping("mau-binh-south")) == "dragon (sảnh rồng)"


def test_a_mau_binh_sheet_prints_the_vietnamese_names(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, seats, ann_user, rules_override="mau-binh-south")
    natural = deal(Ann="A", Bob="B", Cy="C", Di="D")
    natural[3]["natural"] = "six_pairs"  # hand D holds six pairs
    services.record_deal(session, natural, bob_user)

    text = pdf_text(compose.render("sheet", session))

    assert "Di: six pairs (lục phé bôn)" in text
    assert "Mau Binh (Mậu Binh), preset mau-binh-south" in text
    assert "Naturals (mậu binh trắng)" in text
    assert "clean dragon (rồng cuốn) 24" in text
    assert "5 đôi 1 sám" in text


def test_the_running_totals_chart() -> None:
    svg = running_totals_svg(
        [1, 2, 4],
        {"Ann": [D(6), D(-1), D("2.5")], "Bob": [D(-6), D(1), D("-2.5")]},
    )
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"

    lines = root.findall(f"{ns}polyline")
    assert len(lines) == 2
    # Each line starts at 0 before the first deal and has a point per deal.
    assert [len(line.attrib["points"].split()) for line in lines] == [4, 4]
    labels = [text.text for text in root.findall(f"{ns}text")]
    assert "Ann +2.5" in labels and "Bob -2.5" in labels
    assert {"1", "2", "4"} <= set(labels)  # the deals on the x axis, by number


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.name)
def test_every_option_sentence_is_translated_from_the_engines_table(option: Any) -> None:
    """The catalogue takes each sentence from the engine's table (marked there), and the
    sentence is filled in with the option's own bounds."""
    english = option_sentence(option.name)
    assert english == option.sentence % option.values == option.text
    with translation.override("vi"):
        vietnamese = option_sentence(option.name)
    assert vietnamese != english
    assert "%(" not in english and "%(" not in vietnamese
    if "%(least)s" in option.sentence:
        low, high = option.whole
        assert f"{low}" in english and f"{high}" in vietnamese


def test_the_bounds_in_a_sentence_are_the_tables() -> None:
    assert option_sentence("max_players") == "The most players at one deal (2 to 4)."
    with translation.override("vi"):
        assert option_sentence("fantasyland_cards").startswith(
            "Số lá chia cho người ở fantasy land (13-17)"
        )
