"""RULES section 13, the regional and house rules, hand-worked: năm đôi thông
(``five_consecutive_pairs``), Chi Á (``ace_bonus``), one Big Two loser paying for all
(``pays_for_all``), a flat price per 2 (``two_bonus``), the regional Mau Binh preset, and
rules stored before a preset gained a rule (``games.engine.stored``). Each vector's
reasoning is in its comment; the worked examples of the rule book are ``WORKED``, which
``tests/api/test_house_rules_api.py`` also sends through ``manage.py score`` and the API."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Rules, ScoreError, score_request
from games.engine.cards import DECK, cards_text, parse_cards
from games.engine.naturals import holds_natural, natural_rows
from games.engine.ranking import five_card_evaluator
from games.engine.rules import PRESETS
from games.engine.stored import as_played, missing
from games.engine.tables import NATURALS

EVALUATE = five_card_evaluator("low")


def units(result: dict[str, Any]) -> dict[str, Decimal]:
    return {p["name"]: Decimal(p["units"]) for p in result["players"]}


def rows_of(text: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    cards = parse_cards(text)
    return (cards[:3], cards[3:8], cards[8:])


# --- the rule book's worked examples (RULES 13) -------------------------------------------

# Each: (id, request, expected units by player).
WORKED: list[tuple[str, dict[str, Any], dict[str, str]]] = [
    (
        # "standard with ace_bonus: 1, Ann holds three aces and wins 2 rows of 3, Bob holds
        # none: Ann +1 (rows) +3 (aces) = +4." Ann's back (trips of aces, over Bob's kings)
        # and middle (kings, over his jacks) win; Bob's queen-high front beats Ann's ten
        # high: rows 2-1 = +1; aces 3 - 0 = 3 x 1 = +3.
        "chi-a",
        {
            "rules": {"preset": "standard", "ace_bonus": 1},
            "players": [
                {
                    "name": "Ann",
                    "front": "Tc 4d 2h",
                    "middle": "Kc Kd 8h 6s 3c",
                    "back": "Ac Ad Ah 9s 7c",
                },
                {
                    "name": "Bob",
                    "front": "Qc 9d 5h",
                    "middle": "Jc Jd 8c 6d 3d",
                    "back": "Ks Kh 9c 7d 5c",
                },
            ],
        },
        {"Ann": "4", "Bob": "-4"},
    ),
    (
        # "big-two, Ann out, Bob 3 cards, Cy 5 cards and pays for all, Di 1 card: Ann +9,
        # Cy -9, Bob 0, Di 0": Cy pays 3 + 5 + 1, the others nothing.
        "bao",
        {
            "rules": "big-two",
            "players": [
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards_left": 3},
                {"name": "Cy", "cards_left": 5, "pays_for_all": True},
                {"name": "Di", "cards_left": 1},
            ],
        },
        {"Ann": "9", "Bob": "0", "Cy": "-9", "Di": "0"},
    ),
    (
        # "big-two with two_bonus: 2, Ann out, Bob holds 3c 4d 2s, Cy 5 cards, Di 1 card:
        # Bob pays 3 + 2 = 5, Ann +11" (5 + 5 + 1). The 2 is priced, so Bob gives cards.
        "two-bonus",
        {
            "rules": {"preset": "big-two", "two_bonus": 2},
            "players": [
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards": "3c 4d 2s"},
                {"name": "Cy", "cards": "5c 6c 7c 8c 9c"},
                {"name": "Di", "cards": "Td"},
            ],
        },
        {"Ann": "11", "Bob": "-5", "Cy": "-5", "Di": "-1"},
    ),
]


@pytest.mark.parametrize(("name", "request_", "expected"), WORKED, ids=[w[0] for w in WORKED])
def test_the_rule_books_worked_examples(
    name: str, request_: dict[str, Any], expected: dict[str, str]
) -> None:
    result = score_request(request_)
    assert units(result) == {k: Decimal(v) for k, v in expected.items()}


# --- năm đôi thông -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "makes"),
    [
        # 2-3-4-5-6 each paired: the lowest run there is.
        ("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 9h Jh Kh", True),
        # T-J-Q-K-A each paired: aces high, the highest run.
        ("Tc Td Jc Jd Qc Qd Kc Kd Ac Ad 2h 5h 7h", True),
        # A-2-3-4-5 paired: aces are high only, so no run (five pairs, nothing else).
        ("Ac Ad 2c 2d 3c 3d 4c 4d 5c 5d 9h Jh Kh", False),
        # Five pairs with a gap (no sevens): 2-3-4-5-6 needs the sixes, 4-5-6-7-8 the sevens.
        ("2c 2d 3c 3d 4c 4d 5c 5d 8c 8d 9h Jh Kh", False),
        # Trips and quads in the run still hold a pair of each rank: 5555 66 777 88 99.
        ("5c 5d 5h 5s 6c 6d 7c 7d 7h 8c 8d 9c 9d", True),
        # Four consecutive pairs and a fifth far away.
        ("6c 6d 7c 7d 8c 8d 9c 9d Kc Kd 2h 3h 4h", False),
    ],
)
def test_five_consecutive_pairs_from_13_cards(cards: str, makes: bool) -> None:
    assert holds_natural("five_consecutive_pairs", rows_of(cards), EVALUATE) is makes
    found = natural_rows("five_consecutive_pairs", parse_cards(cards), EVALUATE)
    assert (found is not None) is makes


RUN = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d Ah Tc 5s"  # five consecutive pairs (2 to 6)
SIX_PAIRS = "7c 7d 8c 8h 9c 9d Jc Jd Kc Kd Ac Ad 2h"  # six pairs, no run of five
FIVE_PAIRS_TRIPS = "7h 7s 8d 8s Ts Td Qh Qs Kh Ks 9h 9s 9d"  # pairs 7 8 T Q K, trips 9s
PLAIN = {"front": "Th 9s 2s", "middle": "Jh Js 4s 5h 6s", "back": "Kh Ks Qd Qc As"}


def _mau_binh(*players: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {"rules": {"preset": "mau-binh-south", **options}, "players": list(players)}


def test_its_place_in_the_mau_binh_order() -> None:
    at = NATURALS.index
    assert at("five_pairs_trips") + 1 == at("five_consecutive_pairs") == at("six_pairs") - 1


def test_both_mau_binh_presets_pay_it_six_chi_and_the_others_do_not_have_it() -> None:
    for name in PRESETS:
        value = Rules.from_mapping(name).naturals.get("five_consecutive_pairs")
        assert value == (Decimal(6) if name.startswith("mau-binh") else None), name


def test_declared_from_13_cards_it_collects_six_from_each_opponent() -> None:
    # Ann declares it from her 13 cards; Bob plays rows: he pays 6 chi, nothing else passes.
    result = score_request(
        _mau_binh(
            {"name": "Ann", "natural": "five_consecutive_pairs", "cards": RUN},
            {"name": "Bob", **PLAIN},
        )
    )
    assert units(result) == {"Ann": 6, "Bob": -6}
    assert result["players"][0]["natural"] == "five_consecutive_pairs"


def test_above_six_pairs_in_the_order_though_both_are_worth_six() -> None:
    # natural_ranking "order": the run stands above six_pairs, so Ann is paid her 6 chi.
    result = score_request(
        _mau_binh(
            {"name": "Ann", "natural": "five_consecutive_pairs", "cards": RUN},
            {"name": "Bob", "natural": "six_pairs", "cards": SIX_PAIRS},
        )
    )
    assert units(result) == {"Ann": 6, "Bob": -6}


def test_below_five_pairs_and_trips_in_the_order() -> None:
    # five_pairs_trips stands directly above: Bob is paid his 6 chi by Ann.
    result = score_request(
        _mau_binh(
            {"name": "Ann", "natural": "five_consecutive_pairs", "cards": RUN},
            {"name": "Bob", "natural": "five_pairs_trips", "cards": FIVE_PAIRS_TRIPS},
        )
    )
    assert units(result) == {"Ann": -6, "Bob": 6}


def test_under_value_ranking_two_six_chi_naturals_pay_nothing() -> None:
    # natural_ranking "value": 6 against 6 is equal, so nothing passes.
    result = score_request(
        _mau_binh(
            {"name": "Ann", "natural": "five_consecutive_pairs", "cards": RUN},
            {"name": "Bob", "natural": "six_pairs", "cards": SIX_PAIRS},
            natural_ranking="value",
        )
    )
    assert units(result) == {"Ann": 0, "Bob": 0}


def test_a_false_declaration_pays_the_penalty_or_is_refused() -> None:
    # The Mau Binh presets' false_natural_penalty: 6 chi to each opponent.
    # Rows given (a false declaration from 13 cards alone has no rows to play: refused).
    six_pairs_rows = {"front": "7c 7d 8c", "middle": "8h 9c 9d Jc Jd", "back": "Kc Kd Ac Ad 2h"}
    false = {"name": "Ann", "natural": "five_consecutive_pairs", **six_pairs_rows}
    result = score_request(_mau_binh(false, {"name": "Bob", **PLAIN}))
    assert units(result) == {"Ann": -6, "Bob": 6}
    assert result["players"][0]["false_natural"] == "five_consecutive_pairs"
    # Without the penalty the declaration is refused, naming the player.
    with pytest.raises(ScoreError, match="Ann") as refused:
        score_request(_mau_binh(false, {"name": "Bob", **PLAIN}, false_natural_penalty=None))
    assert "five_consecutive_pairs" in refused.value.message


def test_off_outside_mau_binh_and_when_turned_off() -> None:
    declared = {"name": "Ann", "natural": "five_consecutive_pairs", "cards": RUN}
    with pytest.raises(ScoreError, match="five_consecutive_pairs"):
        score_request({"rules": "classic-1-6", "players": [declared, {"name": "Bob", **PLAIN}]})
    off = {"five_consecutive_pairs": None}
    with pytest.raises(ScoreError, match="five_consecutive_pairs"):
        score_request(_mau_binh(declared, {"name": "Bob", **PLAIN}, naturals=off))


# --- Chi Á -------------------------------------------------------------------------------

# Ann: pair of aces, kings and queens, trips of nines (legal, two aces). Bob: king high,
# pair of jacks, tens and eights with the ace of spades (legal, one ace); he loses all three.
ANN_2_ACES = {"front": "Ac Ad 2c", "middle": "Kc Kd Qh Qs 3d", "back": "9c 9d 9h 5s 4c"}
BOB_1_ACE = {"front": "Kh 7d 2d", "middle": "Jc Jd 8c 6c 4d", "back": "Ts Td 8s 8d As"}
# Ann fouled: her front pair of aces beats a king-high middle (two aces). Bob legal, no ace.
ANN_FOULED = {"front": "Ac Ad 2c", "middle": "Kc Qd 8h 6h 3d", "back": "9c 9d 9h 5s 4c"}
BOB_NO_ACE = {"front": "Kh 7d 2d", "middle": "Jc Jd 8c 6c 4d", "back": "Ts Td 8s 8d 5h"}


@pytest.mark.parametrize(
    ("spec", "players", "expected"),
    [
        (
            # A scoop: Ann wins all three rows (1-6: 3 x 2 = 6); aces 2 - 1 = 1 x 2 = 2,
            # never doubled by the scoop: +8.
            {"preset": "standard", "ace_bonus": 2},
            [{"name": "Ann", **ANN_2_ACES}, {"name": "Bob", **BOB_1_ACE}],
            {"Ann": 8, "Bob": -8},
        ),
        (
            # Ann fouls holding 2 aces; Bob, live, holds none: Ann pays the sweep, 6, and
            # collects 2 x 1 for her aces: -4.
            {"preset": "standard", "ace_bonus": 1},
            [{"name": "Ann", **ANN_FOULED}, {"name": "Bob", **BOB_NO_ACE}],
            {"Ann": -4, "Bob": 4},
        ),
        (
            # Both foul (Bob's front kings beat his queen-high middle): fouled players pay
            # each other no penalty, but both played rows, so the aces count: Ann 2, Bob 1,
            # x 3 = 3.
            {"preset": "standard", "ace_bonus": 3},
            [
                {"name": "Ann", **ANN_FOULED},
                {
                    "name": "Bob",
                    "front": "Kh Ks 2d",
                    "middle": "Qc Jh 8c 6c 4d",
                    "back": "Ts Td 8s 7s As",
                },
            ],
            {"Ann": 3, "Bob": -3},
        ),
        (
            # Bob surrenders holding an ace (classic-1-6: 2.5); a surrendered player takes no
            # part in Chi Á, so Ann's 2 aces collect nothing more: Ann +2.5.
            {"preset": "classic-1-6", "ace_bonus": 1},
            [{"name": "Ann", **ANN_2_ACES}, {"name": "Bob", "surrender": True, **BOB_1_ACE}],
            {"Ann": Decimal("2.5"), "Bob": Decimal("-2.5")},
        ),
        (
            # Ann holds a natural (five consecutive pairs, one ace) against Bob's one ace: a
            # natural plays no rows, so only its 6 chi pass.
            {"preset": "mau-binh-south", "ace_bonus": 1},
            [
                {"name": "Ann", "natural": "five_consecutive_pairs", "cards": RUN},
                {"name": "Bob", **PLAIN},
            ],
            {"Ann": 6, "Bob": -6},
        ),
        (
            # Mau Binh sập ba chi under row_win: Ann's rows win (1 + 1 + 1) x 2 = 6 (no row
            # of hers has a special value); aces 2 - 1 = 1, added after the doubling: +7.
            {"preset": "mau-binh-north", "ace_bonus": 1},
            [{"name": "Ann", **ANN_2_ACES}, {"name": "Bob", **BOB_1_ACE}],
            {"Ann": 7, "Bob": -7},
        ),
    ],
)
def test_chi_a(spec: Any, players: list[dict[str, Any]], expected: dict[str, Any]) -> None:
    result = score_request({"rules": spec, "players": players})
    assert units(result) == {k: Decimal(v) for k, v in expected.items()}


def test_chi_a_is_reported_on_the_pair_and_absent_without_the_option() -> None:
    request = {"rules": {"preset": "standard", "ace_bonus": 1}, "players": WORKED[0][1]["players"]}
    assert score_request(request)["pairs"][0]["aces"] == "3"
    assert "aces" not in score_request({**request, "rules": "standard"})["pairs"][0]


def test_chi_a_never_multiplied_by_scooping_the_whole_table() -> None:
    # sập làng at four (scoop_all_multiplier 4): Ann scoops all three. Her rows are worth
    # 1 + 1 + 1 = 3 from each, x 4 = 12, three times: 36. Aces: Ann 2; Bob 1, Cy 1, Di 0,
    # so 1 + 1 + 2 = 4 x 1, never x 4: 40.
    players = [
        {"name": "Ann", **ANN_2_ACES},
        {"name": "Bob", **BOB_1_ACE},
        # king high; pair of jacks; tens and sevens with the ace of hearts
        {"name": "Cy", "front": "Ks 6d 3c", "middle": "Jh Js 7c 5c 2h", "back": "Th Tc 7h 7s Ah"},
        # queen high; pair of threes; pair of fives
        {"name": "Di", "front": "Qc 8h 2s", "middle": "3h 3s 4h 6h 9s", "back": "Qd 4s 5d 5h 6s"},
    ]
    result = score_request(
        {"rules": {"preset": "mau-binh-north", "ace_bonus": 1}, "players": players}
    )
    assert units(result)["Ann"] == 40
    assert {p["players"][1]: p["aces"] for p in result["pairs"][:3]} == {
        "Bob": "1",
        "Cy": "1",
        "Di": "2",
    }


# --- Big Two: one loser pays for all, and a flat price per 2 -------------------------------


@pytest.mark.parametrize(
    ("spec", "players", "expected"),
    [
        (
            # Multipliers first: Cy's 10 cards x 2 = 20; Bob 3, Di 1. Bob pays for all:
            # 3 + 20 + 1 = 24, Cy and Di nothing.
            {"preset": "big-two", "multipliers": [[10, 2]]},
            [
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards_left": 3, "pays_for_all": True},
                {"name": "Cy", "cards_left": 10},
                {"name": "Di", "cards_left": 1},
            ],
            {"Ann": 24, "Bob": -24, "Cy": 0, "Di": 0},
        ),
        (
            # Two players: the one loser pays what it owes anyway, 7.
            "big-two",
            [
                {"name": "Ann", "cards_left": 7, "pays_for_all": True},
                {"name": "Bob", "cards_left": 0},
            ],
            {"Ann": -7, "Bob": 7},
        ),
        (
            # With two_bonus 1: Di's 2d 2h cost 2 + 2 = 4; Bob 3; Cy pays for all 3 + 5 + 4.
            {"preset": "big-two", "two_bonus": 1},
            [
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards": "3c 4d 5s"},
                {"name": "Cy", "cards": "6c 7c 8c 9c Tc", "pays_for_all": True},
                {"name": "Di", "cards": "2d 2h"},
            ],
            {"Ann": 12, "Bob": 0, "Cy": -12, "Di": 0},
        ),
        (
            # two_bonus after the multipliers, never multiplied: Bob's 10 cards with two 2s
            # are 10 x 2 = 20, then + 2 x 1.5 = 23; Cy's 4 cards, no 2, pay 4.
            {"preset": "big-two", "multipliers": [[10, 2]], "two_bonus": "1.5"},
            [
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards": "2c 2d 3c 4c 5c 6c 7c 8c 9c Tc"},
                {"name": "Cy", "cards": "Jc Qc Kc Ac"},
            ],
            {"Ann": 27, "Bob": -23, "Cy": -4},
        ),
        (
            # two_multiplier of 1 multiplies nothing, so two_bonus may stand beside it:
            # Bob's 2s: 2 cards + 2 x 3 = 8.
            {"preset": "big-two", "two_multiplier": 1, "two_bonus": 3},
            [{"name": "Ann", "cards_left": 0}, {"name": "Bob", "cards": "2s 2h"}],
            {"Ann": 8, "Bob": -8},
        ),
        (
            # No 2 held: two_bonus adds nothing; a winner's cards are none.
            {"preset": "big-two", "two_bonus": 5},
            [{"name": "Ann", "cards": ""}, {"name": "Bob", "cards": "3s 4h 5d"}],
            {"Ann": 3, "Bob": -3},
        ),
    ],
)
def test_big_two_house_rules(
    spec: Any, players: list[dict[str, Any]], expected: dict[str, Any]
) -> None:
    result = score_request({"rules": spec, "players": players})
    assert units(result) == {k: Decimal(v) for k, v in expected.items()}


def test_the_loser_who_pays_for_all_is_named_and_penalties_stay_as_computed() -> None:
    result = score_request(WORKED[1][1])
    cy = next(p for p in result["players"] if p["name"] == "Cy")
    bob = next(p for p in result["players"] if p["name"] == "Bob")
    assert cy["pays_for_all"] is True and "pays_for_all" not in bob
    assert (cy["penalty"], bob["penalty"]) == ("5", "3")  # what each one's cards cost


def _big_two(*players: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {"rules": {"preset": "big-two", **options}, "players": list(players)}


@pytest.mark.parametrize(
    ("request_", "field", "words"),
    [
        (
            _big_two(
                {"name": "Ann", "cards_left": 0, "pays_for_all": True},
                {"name": "Bob", "cards_left": 4},
            ),
            "players[0].pays_for_all",
            "Ann: went out",
        ),
        (
            _big_two(
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards_left": 4, "pays_for_all": True},
                {"name": "Cy", "cards_left": 2, "pays_for_all": True},
            ),
            "players[2].pays_for_all",
            "Cy: Bob already pays for all",
        ),
        (
            _big_two(
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards_left": 4, "pays_for_all": True},
                losers_settle=True,
            ),
            "players[1].pays_for_all",
            "Bob: pays_for_all cannot be played with losers_settle",
        ),
        (
            _big_two(
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards_left": 4, "pays_for_all": "yes"},
            ),
            "players[1].pays_for_all",
            "Bob: pays_for_all is true or false",
        ),
        (
            _big_two(
                {"name": "Ann", "cards_left": 0}, {"name": "Bob", "cards_left": 4}, two_bonus=2
            ),
            "players[1].cards",
            "Bob: two_bonus counts the 2s held",
        ),
        (
            _big_two(
                {"name": "Ann", "cards_left": 0},
                {"name": "Bob", "cards_left": 4},
                two_bonus=2,
                two_multiplier=2,
            ),
            "rules.two_bonus",
            "not together with a two_multiplier above 1",
        ),
    ],
)
def test_big_two_refusals_name_the_player_or_the_option(
    request_: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(ScoreError) as refused:
        score_request(request_)
    assert refused.value.field == field
    assert words in refused.value.message


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"preset": "big-two", "two_bonus": 101}, "rules.two_bonus: at most 100"),
        ({"preset": "big-two", "two_bonus": "0.25"}, "rules.two_bonus: at most 1 decimal"),
        ({"preset": "big-two", "two_bonus": -1}, "rules.two_bonus: -1 is not a number of at"),
        ({"preset": "standard", "ace_bonus": 101}, "rules.ace_bonus: at most 100"),
        ({"preset": "standard", "ace_bonus": "x"}, "rules.ace_bonus: 'x' is not a number"),
        ({"preset": "ofc", "ace_bonus": 1}, "'ace_bonus' does not apply to open-face"),
        ({"preset": "standard", "button_stays_in_fantasyland": True}, "does not apply"),
        ({"preset": "ofc", "button_stays_in_fantasyland": 1}, "is not true or false"),
    ],
)
def test_options_are_bounded_when_set(spec: dict[str, Any], words: str) -> None:
    with pytest.raises(ScoreError) as refused:
        Rules.from_mapping(spec, limits=True)
    assert words in refused.value.message


def test_the_button_option_is_on_in_both_open_face_presets() -> None:
    assert Rules.from_mapping("ofc").button_stays_in_fantasyland
    assert Rules.from_mapping("pineapple").button_stays_in_fantasyland


# --- the regional preset -------------------------------------------------------------------

# Bob: pair of kings; queens and eights; trips of jacks (legal).
SAIGON_BOB = {"front": "Kh Kd 2s", "middle": "Qc Qd 8c 8d 4d", "back": "Jc Jd Js 7s 3c"}


def test_saigon_front_trips_of_aces_win_twelve() -> None:
    # Ann's front trips of aces win (12 instead of 1 under row_win); her middle straight
    # wins 1 over Bob's two pair; her back full house wins 1 over his trips (a full house
    # in the back has no special value): a scoop, (12 + 1 + 1) x 2 = 28.
    ann = {"front": "Ac Ad Ah", "middle": "5c 6d 7h 8h 9s", "back": "Kc Ks 9d 9h 9c"}
    result = score_request(
        {
            "rules": "mau-binh-saigon",
            "players": [{"name": "Ann", **ann}, {"name": "Bob", **SAIGON_BOB}],
        }
    )
    assert units(result) == {"Ann": 28, "Bob": -28}
    # Under mau-binh-south front trips are worth 3 whatever the rank: (3 + 1 + 1) x 2 = 10.
    south = score_request(
        {
            "rules": "mau-binh-south",
            "players": [{"name": "Ann", **ann}, {"name": "Bob", **SAIGON_BOB}],
        }
    )
    assert units(south) == {"Ann": 10, "Bob": -10}


def test_saigon_back_quads_of_aces_win_sixteen_and_other_quads_four() -> None:
    # Ann's back quads of aces win 16; Bob's front pair of kings beats Ann's pair of
    # twos (-1); middles: Ann's flush beats Bob's pair (+1): 16 + 1 - 1 = 16.
    ann = {"front": "2h 2d 3s", "middle": "4h 7h 9h Th Qh", "back": "Ac Ad Ah As 5s"}
    result = score_request(
        {
            "rules": "mau-binh-saigon",
            "players": [{"name": "Ann", **ann}, {"name": "Bob", **SAIGON_BOB}],
        }
    )
    assert units(result) == {"Ann": 16, "Bob": -16}
    # The same hands under mau-binh-south: quads in the back are worth 4 whatever the rank.
    south = score_request(
        {
            "rules": "mau-binh-south",
            "players": [{"name": "Ann", **ann}, {"name": "Bob", **SAIGON_BOB}],
        }
    )
    assert units(south) == {"Ann": 4, "Bob": -4}


def test_saigon_is_the_south_with_its_aces_and_the_run() -> None:
    saigon, south = Rules.from_mapping("mau-binh-saigon"), Rules.from_mapping("mau-binh-south")
    assert saigon.royalties["front"]["trips_A"] == 12
    assert saigon.royalties["back"]["quads_A"] == 16
    assert saigon.naturals["five_consecutive_pairs"] == 6
    assert saigon.wheel == south.wheel == "second"


# --- rules stored before a preset gained a rule ----------------------------------------------


def _older(spec: Any) -> dict[str, Any]:
    """A resolved mapping as ``to_mapping`` wrote it before this change."""
    mapping = Rules.from_mapping(spec).to_mapping()
    for key in ("ace_bonus", "button_stays_in_fantasyland", "two_bonus"):
        mapping.pop(key, None)
    if isinstance(mapping.get("naturals"), dict):
        mapping["naturals"].pop("five_consecutive_pairs", None)
    return mapping


@pytest.mark.parametrize(
    ("spec", "held"),
    [
        # A Mau Binh rule set stored by preset name keeps the run off.
        (
            "mau-binh-south",
            {"preset": "mau-binh-south", "naturals": {"five_consecutive_pairs": None}},
        ),
        # A table named in the spec is written out, the run off.
        ({"preset": "standard", "naturals": "mau-binh"}, None),
        # Open-face: the button kept moving.
        ("pineapple", {"preset": "pineapple", "button_stays_in_fantasyland": False}),
        # Nothing changed for these: the spec stays as it was.
        ("classic-1-6", "classic-1-6"),
        ("big-two", "big-two"),
    ],
)
def test_a_stored_rule_set_keeps_what_it_held(spec: Any, held: Any) -> None:
    pinned_spec, resolved = as_played(spec, _older(spec))
    if held is not None:
        assert pinned_spec == held
    again = Rules.from_mapping(pinned_spec)
    assert again.to_mapping() == resolved
    assert again.naturals.get("five_consecutive_pairs") is None
    if again.game == "open-face":
        assert not again.button_stays_in_fantasyland
    assert missing(resolved) == {}


def test_rules_written_since_are_left_alone() -> None:
    for name in PRESETS:
        mapping = Rules.from_mapping(name).to_mapping()
        assert missing(mapping) == {}
        assert as_played(name, mapping) == (name, mapping)


# --- every deal still sums to zero with the new options on (hypothesis) --------------------


@st.composite
def big_two_deals(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(2, 4))
    deck = draw(st.permutations(DECK))
    winner = draw(st.integers(0, count - 1))
    players: list[dict[str, Any]] = []
    for k in range(count):
        held = 0 if k == winner else draw(st.integers(1, 13))
        players.append({"name": "ABCD"[k], "cards": cards_text(deck[13 * k : 13 * k + held])})
    losers = [k for k in range(count) if k != winner]
    if draw(st.booleans()):
        players[draw(st.sampled_from(losers))]["pays_for_all"] = True
    spec: dict[str, Any] = {"preset": "big-two"}
    if draw(st.booleans()):
        spec["two_bonus"] = draw(st.sampled_from(["0", "1", "2.5"]))
    if draw(st.booleans()):
        spec["multipliers"] = [[8, 2], [10, 3], [13, 4]]
    return {"rules": spec, "players": players}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_two_deals())
def test_big_two_deals_sum_to_zero_with_the_new_rules(request: dict[str, Any]) -> None:
    result = score_request(request)
    assert sum(units(result).values()) == 0
    payer = [p for p in request["players"] if p.get("pays_for_all")]
    if payer:  # every other loser pays nothing, the payer every penalty
        penalties = sum(Decimal(p["penalty"]) for p in result["players"])
        assert units(result)[payer[0]["name"]] == -penalties
