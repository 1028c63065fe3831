"""The rule book (shared/RULES.md, shared/MAU_BINH.md), one rule at a time.

Every expected number here was worked out by hand from the rule book, never read off the
engine: the arithmetic is in each case's comment, docstring or id. The players are the four
regulars of a real night, Ann, Bob, Cy and Di. Units are compared as ``Decimal``.

Card layouts are legal (back >= middle >= front, one 52-card deck, no card twice) unless
a case is about a foul.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from games.engine import PRESETS, RuleError, Rules, ScoreError, score_request
from games.engine.bigtwo import target_reached

ANN, BOB, CY, DI = "Ann", "Bob", "Cy", "Di"

Rows = tuple[str, str, str]  # front, middle, back


# --- helpers ------------------------------------------------------------------------------


def seat(name: str, rows: Rows, **extra: Any) -> dict[str, Any]:
    front, middle, back = rows
    return {"name": name, "front": front, "middle": middle, "back": back, **extra}


def surrender(name: str) -> dict[str, Any]:
    return {"name": name, "surrender": True}


def score(rules: Any, *players: dict[str, Any], stakes: Any = None) -> dict[str, Any]:
    """Score one deal; every deal's units sum to zero (RULES 4), so that is checked too."""
    request: dict[str, Any] = {"rules": rules, "players": list(players)}
    if stakes is not None:
        request["stakes"] = stakes
    result = score_request(request)
    assert sum(Decimal(p["units"]) for p in result["players"]) == 0
    return result


def units(result: dict[str, Any]) -> dict[str, Decimal]:
    return {p["name"]: Decimal(p["units"]) for p in result["players"]}


def expect_units(result: dict[str, Any], expected: dict[str, Any]) -> None:
    assert units(result) == {name: Decimal(str(u)) for name, u in expected.items()}


def player(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in result["players"] if p["name"] == name)


def pair(result: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """The pair entry of ``a`` and ``b`` in either order."""
    return next(p for p in result["pairs"] if set(p["players"]) == {a, b})


def pair_units(result: dict[str, Any], a: str, b: str) -> Decimal:
    """Units won by ``a`` from ``b``."""
    entry = pair(result, a, b)
    won = Decimal(entry["units"])
    return won if entry["players"][0] == a else -won


def royalties(result: dict[str, Any], name: str) -> tuple[Decimal, Decimal, Decimal]:
    rows = player(result, name)["rows"]
    return (
        Decimal(rows["front"]["royalty"]),
        Decimal(rows["middle"]["royalty"]),
        Decimal(rows["back"]["royalty"]),
    )


def rejected(request: dict[str, Any]) -> str:
    with pytest.raises(ScoreError) as caught:
        score_request(request)
    return str(caught.value)


# --- hands used in several groups ---------------------------------------------------------

# The ladder: Ann > Bob > Cy > Di in every row, all 52 cards. Fronts 66 > 55 > 44 > 33,
# middles full houses of tens > nines > eights > sevens, backs quad aces > kings > queens > jacks.
LADDER: dict[str, Rows] = {
    ANN: ("6h 6s Ts", "Tc Td Th 6c 6d", "Ac Ad Ah As 2c"),
    BOB: ("5h 5s 9s", "9c 9d 9h 5c 5d", "Kc Kd Kh Ks 2d"),
    CY: ("4h 4s 8s", "8c 8d 8h 4c 4d", "Qc Qd Qh Qs 2h"),
    DI: ("3h 3s 7s", "7c 7d 7h 3c 3d", "Jc Jd Jh Js 2s"),
}
# Di's cards with the middle and back swapped: quad jacks over a full house is a foul.
DI_FOULED: Rows = ("3h 3s 7s", "Jc Jd Jh Js 2s", "7c 7d 7h 3c 3d")


def ladder(*names: str, di: Rows | None = None) -> list[dict[str, Any]]:
    return [seat(n, di if (n == DI and di is not None) else LADDER[n]) for n in names]


# A foul: front QQ beats middle JJ. Its back (quad nines) would be a royalty if it were live.
ANN_FOULED: Rows = ("Qc Qd 2c", "Jc Jd 5c 6d 7h", "9c 9d 9h 9s 3c")
# A plain live hand with no baseline royalty (back full house: no back royalty).
BOB_PLAIN: Rows = ("Ac Kc 4d", "Tc Td 8c 8d 2d", "Ad Ah As 5d 5h")
# Same middle, back quad aces: baseline back royalty 4.
BOB_QUADS: Rows = ("Kc Qh 4d", "Tc Td 8c 8d 2d", "Ac Ad Ah As 5d")
# A foul: middle two pair T-8 beats back pair of kings.
BOB_FOULED: Rows = ("Ac Kc 4s", "Tc Td 8c 8d 2d", "Kd Kh 5d 6h 7d")
# Live, no royalty, disjoint from ANN_FOULED and BOB_FOULED.
CY_PLAIN: Rows = ("Ks Qh 2h", "Th Ts 8h 8s 2s", "Ad Ah As 3d 3h")


# --- 1. bonus: 1-6, 2-4, none --------------------------------------------------------------

# Ann wins middle and back, loses the front (shared vectors' first case).
TWO_OF_THREE = (
    seat(ANN, ("2c 3d 5h", "Kc Kd 4s 5s 9h", "Ac Ad Ah 7c 8d")),
    seat(BOB, ("Qs Qh 2d", "Qc Qd Js Ts 6s", "Jc Jd 7s 7h 8s")),
)
# Ann wins all three rows.
SCOOP = (
    seat(ANN, ("As Qc 5h", "Kc Kd 4s 5s 9h", "Ac Ad Ah 7c 8d")),
    seat(BOB, ("Jh 4h 2d", "Jc Jd 3s 6s Th", "Kh Ks Qd 7s 8s")),
)
# Ann wins the front (A-K-2 > A-Q-2), Bob the middle (99 > 88); backs tie (J J 7 7 K each).
ONE_ALL_ONE_TIE = (
    seat(ANN, ("Ac Kc 2d", "8c 8d 5h 4s 3c", "Jc Jd 7c 7d Kh")),
    seat(BOB, ("Ad Qc 2h", "9c 9d 5s 4d 3d", "Jh Js 7h 7s Kd")),
)
# Ann wins the front and the middle (88 > 66); backs tie.
TWO_AND_A_TIE = (
    seat(ANN, ("Ac Kc 2d", "8c 8d 5h 4s 3c", "Jc Jd 7c 7d Kh")),
    seat(BOB, ("Ad Qc 2h", "6c 6d 5s 4d 3d", "Jh Js 7h 7s Kd")),
)


@pytest.mark.parametrize(
    ("bonus", "deal", "ann"),
    [
        pytest.param("1-6", TWO_OF_THREE, 1, id="1-6 two rows of three: 2-1=1"),
        pytest.param("2-4", TWO_OF_THREE, 2, id="2-4 two rows of three: 2-1=1, +1 majority=2"),
        pytest.param("none", TWO_OF_THREE, 1, id="none two rows of three: 2-1=1"),
        pytest.param("1-6", SCOOP, 6, id="1-6 scoop: 3x2=6"),
        pytest.param("2-4", SCOOP, 4, id="2-4 scoop: 3+1=4"),
        pytest.param("none", SCOOP, 3, id="none scoop: 3"),
        pytest.param("1-6", ONE_ALL_ONE_TIE, 0, id="1-6 one each and a tie: 1-1=0"),
        pytest.param("2-4", ONE_ALL_ONE_TIE, 0, id="2-4 one each and a tie: 1-1=0, no majority"),
        pytest.param("none", ONE_ALL_ONE_TIE, 0, id="none one each and a tie: 0"),
        pytest.param("1-6", TWO_AND_A_TIE, 2, id="1-6 two and a tie: 2, not a scoop"),
        pytest.param("2-4", TWO_AND_A_TIE, 3, id="2-4 two and a tie: 2, +1 more rows won=3"),
        pytest.param("none", TWO_AND_A_TIE, 2, id="none two and a tie: 2"),
    ],
)
def test_bonus(bonus: str, deal: tuple[dict[str, Any], ...], ann: int) -> None:
    result = score({"preset": "standard", "bonus": bonus}, *deal)
    expect_units(result, {ANN: ann, BOB: -ann})
    assert pair_units(result, ANN, BOB) == ann


def test_pair_reports_rows_and_scoop() -> None:
    result = score("standard", *SCOOP)
    entry = pair(result, ANN, BOB)
    assert entry["players"] == [ANN, BOB]
    assert entry["kind"] == "rows"
    assert entry["rows"] == {"front": 1, "middle": 1, "back": 1}
    assert entry["scoop"] == ANN
    tied = pair(score("standard", *ONE_ALL_ONE_TIE), ANN, BOB)
    assert tied["rows"] == {"front": 1, "middle": -1, "back": 0}
    assert tied["scoop"] is None


# --- 2. ranking: ties, kickers, the wheel -------------------------------------------------

# Fronts tie (4-3-2 each) and middles tie (7-5-4-3-2 each): only the back decides, +-1.
BACK_FILLER = {ANN: ("2c 3d 4h", "2d 3h 4c 5s 7d"), BOB: ("2h 3s 4s", "2s 3c 4d 5c 7c")}


@pytest.mark.parametrize(
    ("ann_back", "bob_back", "ann"),
    [
        pytest.param("Kc Kd 9h 8s 6d", "Kh Ks 9c 8d 5d", 1, id="pair KK: 9-8-6 beats 9-8-5"),
        pytest.param("Kc Kd 9h 8s 6d", "Kh Ks 9c 8d 6c", 0, id="pair KK, same kickers: tie"),
        pytest.param("Qc Qd 6c 6d Ah", "Jc Jd Tc Td As", 1, id="two pair: QQ66 beats JJTT"),
        pytest.param("Qc Qd 6c 6d Ah", "Qh Qs 8h 8s 5d", -1, id="two pair: QQ88 beats QQ66+A"),
        pytest.param("Kc Kd 8c 8d 9h", "Kh Ks 8h 8s 6s", 1, id="two pair: KK88, 9 beats 6"),
        pytest.param("9c 9d 9h Ah Kh", "Tc Td Th 6s 8s", -1, id="trips by rank: TTT beats 999AK"),
        pytest.param("8c 8d 8h Ac Ad", "9c 9d 9h 6c 6d", -1, id="full house by trips: 999 66"),
        pytest.param("9c Td Jh Qs Kc", "9d Th Js Qc Kd", 0, id="same straight: suits no tie"),
        pytest.param("6h 7h 8d 9s Tc", "5d 6c 7s 8c 9h", 1, id="straight: T high beats 9 high"),
        pytest.param("Ah Jh 9h 6h 5h", "Ad Jd 8d 6d 5d", 1, id="flush card by card: A-J-9 > A-J-8"),
        pytest.param("Kh Qh 9h 8h 6h", "Ks Qs 9s 8s 6s", 0, id="same flush ranks: tie"),
        pytest.param("Jc Jd Jh Js 5d", "Tc Td Th Ts Ac", 1, id="quads by rank: JJJJ > TTTT+A"),
        pytest.param("Kh Jh 9h 6h 5h", "Ts Jc Qd Kd As", 1, id="flush beats broadway straight"),
    ],
)
def test_back_row_ranking(ann_back: str, bob_back: str, ann: int) -> None:
    result = score(
        "standard",
        seat(ANN, (*BACK_FILLER[ANN], ann_back)),
        seat(BOB, (*BACK_FILLER[BOB], bob_back)),
    )
    assert pair(result, ANN, BOB)["rows"] == {"front": 0, "middle": 0, "back": ann}
    expect_units(result, {ANN: ann, BOB: -ann})


# Middles tie (A A 9 9 2) and backs tie (7-high straights): only the front decides.
FRONT_FILLER = {
    ANN: ("Ac Ad 9c 9d 2c", "3c 4d 5h 6s 7c"),
    BOB: ("Ah As 9h 9s 2d", "3d 4c 5s 6h 7d"),
}


@pytest.mark.parametrize(
    ("ann_front", "bob_front", "ann"),
    [
        pytest.param("Qh Jh Th", "Kc 5d 2s", -1, id="suited run Q-J-T is just Q high: K wins"),
        pytest.param("8c 8d 2h", "Kc Qd Jh", 1, id="pair beats high card"),
        pytest.param("Qc Qd 5c", "Qh Qs 4h", 1, id="pair QQ: kicker 5 beats 4"),
        pytest.param("Kh Jc 4s", "Ks Jd 3h", 1, id="high card to the third card: K-J-4 > K-J-3"),
        pytest.param("Kh Jc 4s", "Ks Jd 4h", 0, id="same three ranks: tie"),
    ],
)
def test_front_row_ranking(ann_front: str, bob_front: str, ann: int) -> None:
    result = score(
        "standard",
        seat(ANN, (ann_front, *FRONT_FILLER[ANN])),
        seat(BOB, (bob_front, *FRONT_FILLER[BOB])),
    )
    assert pair(result, ANN, BOB)["rows"] == {"front": ann, "middle": 0, "back": 0}
    expect_units(result, {ANN: ann, BOB: -ann})
    assert player(result, ANN)["rows"]["front"]["category"] in ("high_card", "pair")


def test_three_card_run_of_one_suit_is_high_card() -> None:
    result = score(
        "standard",
        seat(ANN, ("Qh Jh Th", *FRONT_FILLER[ANN])),
        seat(BOB, ("Kc 5d 2s", *FRONT_FILLER[BOB])),
    )
    assert player(result, ANN)["rows"]["front"]["category"] == "high_card"


# Ann's middle is the wheel A-2-3-4-5; fronts tie (8 8 6) and backs tie (K-Q-J-9-7 flushes).
def wheel_deal(bob_middle: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        seat(ANN, ("8c 8d 6d", "Ac 2d 3h 4s 5c", "Kh Qh Jh 9h 7h")),
        seat(BOB, ("8h 8s 6h", bob_middle, "Ks Qs Js 9s 7s")),
    )


SIX_HIGH = "2c 3d 4h 5s 6c"
KING_HIGH = "9c Tc Jd Qd Kc"
BROADWAY = "Tc Jd Qd Kc Ad"


@pytest.mark.parametrize(
    ("rules", "bob_middle", "ann"),
    [
        pytest.param({"preset": "standard"}, SIX_HIGH, -1, id="low: wheel loses to 6-high"),
        pytest.param({"preset": "standard", "wheel": "low"}, KING_HIGH, -1, id="low: < K-high"),
        pytest.param({"preset": "standard", "wheel": "low"}, BROADWAY, -1, id="low: < broadway"),
        pytest.param({"preset": "standard", "wheel": "second"}, SIX_HIGH, 1, id="second: > 6-hi"),
        pytest.param({"preset": "standard", "wheel": "second"}, KING_HIGH, 1, id="second: > K-hi"),
        pytest.param(
            {"preset": "standard", "wheel": "second"}, BROADWAY, -1, id="second: < broadway"
        ),
        pytest.param("mau-binh-south", KING_HIGH, 1, id="mau-binh-south: wheel second > K-hi"),
        pytest.param("mau-binh-north", KING_HIGH, -1, id="mau-binh-north: wheel low < K-hi"),
        # The Saigon preset is a Southern table: the wheel second there too.
        pytest.param("mau-binh-saigon", KING_HIGH, 1, id="mau-binh-saigon: wheel second > K-hi"),
    ],
)
def test_wheel_straight(rules: Any, bob_middle: str, ann: int) -> None:
    """Only the middle differs; a plain straight is worth 1 even under Mau Binh row_win."""
    result = score(rules, *wheel_deal(bob_middle))
    assert pair(result, ANN, BOB)["rows"] == {"front": 0, "middle": ann, "back": 0}
    expect_units(result, {ANN: ann, BOB: -ann})
    assert player(result, ANN)["rows"]["middle"]["category"] == "straight"


# Ann's back is the steel wheel A-2-3-4-5 of hearts; fronts (6-4-2) and middles (K-Q-J-9-7) tie.
def steel_wheel_deal(bob_back: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        seat(ANN, ("6c 4c 2c", "Kc Qc Jd 9d 7c", "Ah 2h 3h 4h 5h")),
        seat(BOB, ("6d 4d 2d", "Kd Qd Jc 9c 7d", bob_back)),
    )


@pytest.mark.parametrize(
    ("wheel", "bob_back", "ann"),
    [
        pytest.param("low", "6s 7s 8s 9s Ts", -1, id="low: steel wheel < T-high SF"),
        pytest.param("low", "9s Ts Js Qs Ks", -1, id="low: steel wheel < K-high SF"),
        pytest.param("second", "6s 7s 8s 9s Ts", 1, id="second: steel wheel > T-high SF"),
        pytest.param("second", "9s Ts Js Qs Ks", 1, id="second: steel wheel > K-high SF"),
        pytest.param("second", "Ts Js Qs Ks As", -1, id="second: steel wheel < royal"),
    ],
)
def test_wheel_among_straight_flushes(wheel: str, bob_back: str, ann: int) -> None:
    result = score({"preset": "standard", "wheel": wheel}, *steel_wheel_deal(bob_back))
    assert pair(result, ANN, BOB)["rows"] == {"front": 0, "middle": 0, "back": ann}
    expect_units(result, {ANN: ann, BOB: -ann})
    assert player(result, ANN)["rows"]["back"]["category"] == "straight_flush"


def test_ace_high_straight_flush_is_reported_as_royal() -> None:
    result = score("standard", *steel_wheel_deal("Ts Js Qs Ks As"))
    assert player(result, BOB)["rows"]["back"]["category"] == "royal_flush"


# --- 3. fouls -----------------------------------------------------------------------------

BOB_VS_KINGS: Rows = ("Qc Jd 4h", "Tc Td 8c 8d 2d", "Jh Js Jc 6c 6d")


def test_front_equal_to_middle_over_its_three_cards_is_legal() -> None:
    """K K 9 vs K K 9 5 3 is equal over the front's cards: legal.

    Ann wins the front (KK > Q high), loses middle (KK < T-T-8-8) and back (A-A-7-7 < J full):
    1-2 = -1 under classic-1-6, no royalties on either side.
    """
    result = score(
        "classic-1-6",
        seat(ANN, ("Kc Kd 9c", "Kh Ks 9d 5c 3c", "Ac Ad 7c 7d 2c")),
        seat(BOB, BOB_VS_KINGS),
    )
    ann = player(result, ANN)
    assert ann["fouled"] is False
    assert ann["foul_reason"] is None
    expect_units(result, {ANN: -1, BOB: 1})


def test_front_kicker_above_middle_kicker_is_a_foul() -> None:
    """K K Q vs K K 9 5 3: the front's Q beats the middle's 9. Classic foul: pays 3."""
    result = score(
        "classic-1-6",
        seat(ANN, ("Kc Kd Qd", "Kh Ks 9d 5c 3c", "Ac Ad 7c 7d 2c")),
        seat(BOB, BOB_VS_KINGS),
    )
    ann = player(result, ANN)
    assert ann["fouled"] is True
    assert ann["foul_reason"].startswith("front Pair of Kings")
    assert "beats middle Pair of Kings" in ann["foul_reason"]
    expect_units(result, {ANN: -3, BOB: 3})
    assert pair(result, ANN, BOB)["kind"] == "foul"


def test_middle_above_back_is_a_foul() -> None:
    """Middle A-A-8-8 over back K-K: foul, reason names middle and back; pays 3."""
    result = score(
        "classic-1-6",
        seat(ANN, ("2c 3d 5h", "Ac Ad 8c 8d 4s", "Kc Kd Qh Js 9c")),
        seat(BOB, ("Qc Jd 4h", "Tc Td 7c 7d 2d", "6c 6d 6h Jh Jc")),
    )
    reason = player(result, ANN)["foul_reason"]
    assert reason.startswith("middle Two pair, Aces and Eights")
    assert "beats back Pair of Kings" in reason
    expect_units(result, {ANN: -3, BOB: 3})


def test_middle_equal_to_back_is_legal() -> None:
    """Middle and back the same K-high straight: equal is legal. Standard: Bob wins the
    front (A high), Ann the middle and back (straight > two pair): 2 - 1 = 1."""
    result = score(
        "standard",
        seat(ANN, ("2c 3d 5h", "9c Td Jh Qs Kc", "9d Th Js Qc Kd")),
        seat(BOB, ("Ah 8c 4d", "7c 7d 6c 6d 2d", "Ad As 8h 8s 3c")),
    )
    assert player(result, ANN)["fouled"] is False
    expect_units(result, {ANN: 1, BOB: -1})


def test_fouled_hand_collects_no_royalties() -> None:
    """Ann's quad nines in the back would be worth 4, but she fouled: every royalty is 0."""
    result = score("classic-1-6", seat(ANN, ANN_FOULED), seat(BOB, BOB_PLAIN))
    ann = player(result, ANN)
    assert ann["fouled"] is True
    assert ann["rows"]["back"]["category"] == "quads"
    assert royalties(result, ANN) == (0, 0, 0)
    expect_units(result, {ANN: -3, BOB: 3})  # 3 units, Bob has no royalty


# --- 4. foul penalties --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "bob", "paid"),
    [
        pytest.param("standard", BOB_PLAIN, 6, id="standard sweep under 1-6: 3x2=6"),
        pytest.param({"preset": "standard", "bonus": "2-4"}, BOB_PLAIN, 4, id="sweep 2-4: 3+1"),
        pytest.param({"preset": "standard", "bonus": "none"}, BOB_PLAIN, 3, id="sweep none: 3"),
        pytest.param({"preset": "standard", "foul_penalty": 5}, BOB_PLAIN, 5, id="numeric 5"),
        pytest.param(
            {"preset": "standard", "foul_penalty": "1.5"}, BOB_PLAIN, "1.5", id="numeric 1.5"
        ),
        pytest.param("classic-1-6", BOB_PLAIN, 3, id="classic-1-6: 3, no royalty"),
        pytest.param("classic-2-4", BOB_PLAIN, 3, id="classic-2-4: 3, no royalty"),
        pytest.param("classic-1-6", BOB_QUADS, 7, id="classic: 3 + Bob's back quads 4 = 7"),
        pytest.param(
            {"preset": "classic-1-6", "foul_pays_royalties": False},
            BOB_QUADS,
            3,
            id="foul_pays_royalties false: 3, quads not paid",
        ),
        pytest.param(
            {"preset": "classic-1-6", "foul_penalty": "sweep"},
            BOB_QUADS,
            10,
            id="classic sweep 1-6: 6 + quads 4 = 10",
        ),
        pytest.param(
            {"preset": "classic-2-4", "foul_penalty": "sweep"},
            BOB_QUADS,
            8,
            id="classic sweep 2-4: 4 + quads 4 = 8",
        ),
    ],
)
def test_foul_penalty(rules: Any, bob: Rows, paid: Any) -> None:
    result = score(rules, seat(ANN, ANN_FOULED), seat(BOB, bob))
    expect_units(result, {ANN: -Decimal(str(paid)), BOB: paid})
    assert pair(result, ANN, BOB)["kind"] == "foul"


def test_two_fouled_players_pay_each_other_nothing() -> None:
    """Ann and Bob fouled; each pays the live Cy 3 (classic); between them 0.

    Ann -3, Bob -3, Cy +3+3 = +6.
    """
    result = score("classic-1-6", seat(ANN, ANN_FOULED), seat(BOB, BOB_FOULED), seat(CY, CY_PLAIN))
    assert player(result, BOB)["fouled"] is True
    assert "back" in player(result, BOB)["foul_reason"]
    assert pair_units(result, ANN, BOB) == 0
    assert pair(result, ANN, BOB)["kind"] == "none"
    expect_units(result, {ANN: -3, BOB: -3, CY: 6})


# --- 5. surrender -------------------------------------------------------------------------

# Bob plays the six-pairs cards as rows (pair 2s, two pair 4-3, two pair 6-5); Di plays
# A-K-2 high, two pair T-3, two pair Q-8. Bob wins the front, Di the middle and back: Bob -1.
BOB_SIX_PAIRS_AS_ROWS: Rows = ("2c 2d Ah", "3c 3d 4c 4d 9h", "5c 5d 6c 6d 9s")
CY_FOULED_KINGS: Rows = ("Kc Kd 7h", "Qc Qd 8c 7c 2h", "Jc Jd Jh 7d 8d")  # KK front > QQ middle
DI_PLAIN: Rows = ("As Kh 2s", "Tc Td 3h 3s 4h", "Qh Qs 8h 8s 9c")


def test_surrender_pays_every_opponent_including_a_fouled_one() -> None:
    """Classic-1-6, surrender 2.5. Ann surrenders, Cy fouls, Bob and Di play.

    Ann pays 2.5 to Bob, Cy (fouled: still paid) and Di: -7.5.
    Cy pays Bob 3 and Di 3 (no royalties), Ann nothing: +2.5 - 6 = -3.5.
    Bob: +2.5 + 3 - 1 (rows vs Di) = 4.5. Di: +2.5 + 3 + 1 = 6.5.
    """
    result = score(
        "classic-1-6",
        surrender(ANN),
        seat(BOB, BOB_SIX_PAIRS_AS_ROWS),
        seat(CY, CY_FOULED_KINGS),
        seat(DI, DI_PLAIN),
    )
    expect_units(result, {ANN: "-7.5", BOB: "4.5", CY: "-3.5", DI: "6.5"})
    assert pair_units(result, ANN, CY) == Decimal("-2.5")
    assert pair(result, ANN, CY)["kind"] == "surrender"
    assert pair_units(result, BOB, DI) == -1
    assert player(result, ANN)["surrendered"] is True
    assert player(result, ANN)["rows"] is None
    assert len(result["pairs"]) == 6


def test_two_surrendered_players_pay_each_other_nothing() -> None:
    """Ann and Bob surrender: each pays Cy 2.5, nothing between them. Cy +5."""
    result = score("classic-1-6", surrender(ANN), surrender(BOB), seat(CY, DI_PLAIN))
    assert pair_units(result, ANN, BOB) == 0
    expect_units(result, {ANN: "-2.5", BOB: "-2.5", CY: 5})


def test_surrendered_player_pays_no_royalties() -> None:
    """Bob's back quad aces are a royalty of 4, but a surrender pays only its 2.5."""
    result = score("classic-1-6", surrender(ANN), seat(BOB, BOB_QUADS))
    assert royalties(result, BOB) == (0, 0, 4)
    expect_units(result, {ANN: "-2.5", BOB: "2.5"})


def test_surrender_cost_option() -> None:
    """standard with surrender_cost 1.5: Ann pays Bob and Cy 1.5 each: -3.

    Bob (A-K-4, T-T-8-8-2, aces full) vs Cy (K-Q-2, T-T-8-8-2, nines full): Bob wins the
    front and the back, the middles tie: 2, no scoop. Bob 1.5 + 2 = 3.5, Cy 1.5 - 2 = -0.5.
    """
    result = score(
        {"preset": "standard", "surrender_cost": "1.5"},
        surrender(ANN),
        seat(BOB, BOB_PLAIN),
        seat(CY, ("Ks Qh 2h", "Th Ts 8h 8s 2s", "9c 9d 9h 3d 3h")),
    )
    expect_units(result, {ANN: -3, BOB: "3.5", CY: "-0.5"})


def test_surrender_not_allowed_under_standard() -> None:
    message = rejected({"rules": "standard", "players": [surrender(ANN), seat(BOB, BOB_PLAIN)]})
    assert "Ann" in message
    assert "surrender" in message


# --- 6. royalties -------------------------------------------------------------------------

# Ann: front QQQ (3), middle kings full (2), back quad aces (4) = 9.
# Bob: front JJJ (3), middle 8-high straight (0), back quad nines (4) = 7.
# Ann wins every row.
ROYAL_ANN: Rows = ("Qc Qd Qh", "Kc Kd Kh 2c 2d", "Ac Ad Ah As 3c")
ROYAL_BOB: Rows = ("Jc Jd Jh", "4c 5h 6d 7c 8d", "9c 9d 9h 9s 5c")
# Cy: K-Q-2, two pair T-3, eights full: no royalty; loses every row to Ann and to Bob.
ROYAL_CY: Rows = ("Ks Qs 2h", "Tc Td 3d 3h 4d", "8c 8h 8s 6c 6h")


@pytest.mark.parametrize(
    ("rules", "ann"),
    [
        pytest.param("classic-1-6", 8, id="always 1-6: 3x2=6 + royalties 9-7 = 8 (not doubled)"),
        pytest.param("classic-2-4", 6, id="always 2-4: 3+1=4 + royalties 9-7 = 6"),
        pytest.param(
            {"preset": "classic-1-6", "royalty_mode": "row_win"},
            18,
            id="row_win: rows worth 3+2+4=9, scoop x2 = 18",
        ),
    ],
)
def test_royalty_mode(rules: Any, ann: int) -> None:
    result = score(rules, seat(ANN, ROYAL_ANN), seat(BOB, ROYAL_BOB))
    assert royalties(result, ANN) == (3, 2, 4)
    assert royalties(result, BOB) == (3, 0, 4)
    expect_units(result, {ANN: ann, BOB: -ann})


@pytest.mark.parametrize(
    ("best_only", "expected"),
    [
        # Ann-Bob: scoop 6 + (9 - 0) = 15; Ann-Cy: 6 + 9 = 15; Bob-Cy: scoop 6 + 0 = 6.
        pytest.param(True, {ANN: 30, BOB: -9, CY: -21}, id="best only: Ann 15+15, Bob -15+6"),
        # Ann-Bob: 6 + (9 - 7) = 8; Ann-Cy: 6 + 9 = 15; Bob-Cy: 6 + 7 = 13.
        pytest.param(False, {ANN: 23, BOB: 5, CY: -28}, id="all holders: Ann 8+15, Bob -8+13"),
    ],
)
def test_royalty_best_only(best_only: bool, expected: dict[str, int]) -> None:
    """Bob's front trips and back quads lose to Ann's better ones: with best-only he
    collects neither, from anyone (not even from Cy, who has none)."""
    result = score(
        {"preset": "classic-1-6", "royalty_best_only": best_only},
        seat(ANN, ROYAL_ANN),
        seat(BOB, ROYAL_BOB),
        seat(CY, ROYAL_CY),
    )
    expect_units(result, expected)
    assert royalties(result, ANN) == (3, 2, 4)
    assert royalties(result, BOB) == ((0, 0, 0) if best_only else (3, 0, 4))


# --- 7. scoop of the whole table ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "names", "expected"),
    [
        # Each pair is a scoop of 6; Ann 18, Bob -6+12, Cy -12+6, Di -18.
        pytest.param(
            "standard",
            (ANN, BOB, CY, DI),
            {ANN: 18, BOB: 6, CY: -6, DI: -18},
            id="standard four: every scoop 6",
        ),
        # Ann scoops all three: 3x4 = 12 from each = 36; the others' scoops stay 6.
        # Bob -12+6+6 = 0, Cy -12-6+6 = -12, Di -12-6-6 = -24.
        pytest.param(
            {"preset": "standard", "scoop_all_multiplier": 4},
            (ANN, BOB, CY, DI),
            {ANN: 36, BOB: 0, CY: -12, DI: -24},
            id="four: Ann scoops all, x4 = 12 each",
        ),
        # A table of three is not sap lang: plain 6 each. Ann 12, Bob -6+6 = 0, Cy -12.
        pytest.param(
            {"preset": "standard", "scoop_all_multiplier": 4},
            (ANN, BOB, CY),
            {ANN: 12, BOB: 0, CY: -12},
            id="three: no multiplier",
        ),
    ],
)
def test_scoop_all_multiplier(rules: Any, names: tuple[str, ...], expected: dict[str, int]) -> None:
    expect_units(score(rules, *ladder(*names)), expected)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        # Ann scoops Bob and Cy but Di fouled: no sap lang. 6 + 6 + sweep 6 = 18.
        # Bob -6 + 6 + 6 = 6; Cy -6 - 6 + 6 = -6; Di pays sweep 6 to each: -18.
        pytest.param(False, {ANN: 18, BOB: 6, CY: -6, DI: -18}, id="false: 6 each"),
        # The fouled Di counts as scooped: Ann x4 on all three (12 + 12 + sweep 3x4 = 12) = 36.
        # Bob -12 + 6 + 6 = 0; Cy -12 - 6 + 6 = -12; Di -12 - 6 - 6 = -24.
        pytest.param(True, {ANN: 36, BOB: 0, CY: -12, DI: -24}, id="true: 12 each"),
    ],
)
def test_foul_counts_as_scoop(counts: bool, expected: dict[str, int]) -> None:
    rules = {"preset": "standard", "scoop_all_multiplier": 4, "foul_counts_as_scoop": counts}
    result = score(rules, *ladder(ANN, BOB, CY, DI, di=DI_FOULED))
    assert player(result, DI)["fouled"] is True
    expect_units(result, expected)


# --- 8. naturals (classic baseline) -------------------------------------------------------

SIX_PAIRS: Rows = ("2c 2d Ah", "3c 3d 4c 4d 9h", "5c 5d 6c 6d 9s")
THREE_STRAIGHTS: Rows = ("Qc Kd Ah", "2c 3d 4h 5s 6c", "9c Td Jh Qs Kc")
THREE_FLUSHES: Rows = ("2h 5h 9h", "3s 6s 8s Ts Qs", "4d 7d Jd Kd Ad")
DRAGON: Rows = ("2c 3d 5h", "4s 6c 7d 8h 9s", "Tc Jd Qh Ks Ac")
NO_BROADWAY: Rows = ("2c 3d 4h", "5c 5d 6h 7s 9c", "8c 8d 8h 2d 2h")
CLEAN_DRAGON: Rows = ("2c 3c 4c", "5c 6c 7c 8c 9c", "Tc Jc Qc Kc Ac")
SAME_COLOR_13: Rows = ("2d 3h 5d", "7h 7d 9h Jd Kh", "Ad Ah 4d 4h 8h")
SAME_COLOR_12: Rows = ("2d 3h 5d", "7h 7d 9h Jd Kh", "Ad Ah 4d 4h 8s")  # 8s is black
FIVE_PAIRS_TRIPS: Rows = ("3c 3d 2d", "5c 5d 4c 4d 2c", "7c 7d 7h 6c 6d")

# A plain legal opponent for each natural above, from the cards it leaves.
OPPONENT: dict[str, Rows] = {
    "six_pairs": ("Kc Qd 7h", "Tc Td 8c 8d 2h", "Jc Jd Jh 7c 7d"),
    "three_straights": ("As 8c 7h", "8d 8h 2d 2h 7c", "Jc Jd Js 3c 3h"),
    "three_flushes": ("Ac Kh 2c", "3c 3d 4c 4h 8c", "5c 5d 5s 9c 9d"),
    "dragon": ("Ah Kh 2h", "3c 3h 4c 4d 9c", "5c 5d 5s Td Th"),
    "no_broadway": ("Ac Kc 3c", "Tc Td 4c 4d 6c", "Jc Jd Jh 9d 9h"),
    "clean_dragon": ("Ad Kd 2d", "3d 3h 4d 4h 5d", "6d 6h 6s 7d 7h"),
    "same_color_13": ("Ac Kc 2c", "3c 3s 5c 5s 6c", "Qc Qs Qd Tc Ts"),
    "same_color_12": ("Ac Kc 2c", "3c 3s 5c 5s 6c", "Qc Qs Qd Tc Ts"),
    "five_pairs_trips": ("Ah Kh 2h", "3h 3s 4h 4s 9c", "5h 5s Th Ts Td"),
}


@pytest.mark.parametrize(
    ("rules", "natural", "rows", "value"),
    [
        pytest.param("classic-1-6", "six_pairs", SIX_PAIRS, 3, id="six_pairs 3"),
        pytest.param("classic-1-6", "three_straights", THREE_STRAIGHTS, 3, id="three_straights 3"),
        pytest.param("classic-1-6", "three_flushes", THREE_FLUSHES, 3, id="three_flushes 3"),
        pytest.param("classic-1-6", "dragon", DRAGON, 13, id="dragon 13"),
        pytest.param("classic-2-4", "dragon", DRAGON, 13, id="dragon 13 under 2-4 too"),
        pytest.param(
            {"preset": "classic-1-6", "naturals": {"no_broadway": 3}},
            "no_broadway",
            NO_BROADWAY,
            3,
            id="no_broadway turned on: 3",
        ),
    ],
)
def test_classic_natural_collects_its_value(
    rules: Any, natural: str, rows: Rows, value: int
) -> None:
    result = score(rules, seat(ANN, rows, natural=natural), seat(BOB, OPPONENT[natural]))
    assert player(result, ANN)["natural"] == natural
    assert player(result, BOB)["fouled"] is False
    assert pair(result, ANN, BOB)["kind"] == "natural"
    expect_units(result, {ANN: value, BOB: -value})


def test_false_natural_is_rejected() -> None:
    """Bob's plain hand is no six pairs: classic has no false_natural_penalty."""
    message = rejected(
        {
            "rules": "classic-1-6",
            "players": [
                seat(ANN, SIX_PAIRS),
                seat(BOB, OPPONENT["six_pairs"], natural="six_pairs"),
            ],
        }
    )
    assert "Bob" in message
    assert "six_pairs" in message


def test_false_natural_penalty() -> None:
    """false_natural_penalty 4: Bob's false six_pairs is recorded and pays 4 like a foul."""
    result = score(
        {"preset": "classic-1-6", "false_natural_penalty": 4},
        seat(ANN, SIX_PAIRS),
        seat(BOB, OPPONENT["six_pairs"], natural="six_pairs"),
    )
    bob = player(result, BOB)
    assert bob["false_natural"] == "six_pairs"
    assert bob["natural"] is None
    assert bob["fouled"] is True
    expect_units(result, {ANN: 4, BOB: -4})


@pytest.mark.parametrize(
    ("rules", "natural", "rows"),
    [
        pytest.param("classic-1-6", "no_broadway", NO_BROADWAY, id="no_broadway off by default"),
        pytest.param("classic-1-6", "clean_dragon", CLEAN_DRAGON, id="clean_dragon not classic"),
        pytest.param("standard", "dragon", DRAGON, id="standard has no naturals"),
        pytest.param(
            {"preset": "classic-1-6", "naturals": {"six_pairs": None}},
            "six_pairs",
            SIX_PAIRS,
            id="six_pairs set to null",
        ),
    ],
)
def test_natural_the_rules_do_not_count_is_rejected(rules: Any, natural: str, rows: Rows) -> None:
    message = rejected(
        {
            "rules": rules,
            "players": [seat(ANN, rows, natural=natural), seat(BOB, OPPONENT[natural])],
        }
    )
    assert "Ann" in message
    assert natural in message


# Bob's six pairs, disjoint from DRAGON: 22, 33, 44, 55, 66 and three kings (one pair).
BOB_SIX_PAIRS: Rows = ("2d 2h Kc", "3c 3h 4c 4d Kd", "5c 5d 6d 6h Kh")
# Bob's three straights, disjoint from THREE_FLUSHES.
BOB_THREE_STRAIGHTS: Rows = ("Qc Kc Ac", "2c 3d 4h 5c 6d", "9c Th Jh Qh Ks")


def test_two_naturals_higher_is_paid_its_value() -> None:
    """Ann's dragon (13) beats Bob's six pairs (3): Bob pays 13. Cy pays both.

    Ann 13 + 13 = 26; Bob -13 + 3 = -10; Cy -13 - 3 = -16.
    """
    result = score(
        "classic-1-6",
        seat(ANN, DRAGON, natural="dragon"),
        seat(BOB, BOB_SIX_PAIRS, natural="six_pairs"),
        seat(CY, ("Ad Qc 2s", "7c 7h 8c 8d 3s", "9c 9d 9h Td Th")),
    )
    assert pair_units(result, ANN, BOB) == 13
    expect_units(result, {ANN: 26, BOB: -10, CY: -16})


def test_two_equal_naturals_pay_nothing() -> None:
    """Three flushes (3) vs three straights (3): nothing between them; Cy pays each 3."""
    result = score(
        "classic-1-6",
        seat(ANN, THREE_FLUSHES, natural="three_flushes"),
        seat(BOB, BOB_THREE_STRAIGHTS, natural="three_straights"),
        seat(CY, ("Kh Qd 2d", "7c 7h 3c 3h 4c", "8c 8d 8h 9d 9s")),
    )
    assert pair_units(result, ANN, BOB) == 0
    expect_units(result, {ANN: 3, BOB: 3, CY: -6})


@pytest.mark.parametrize(
    ("collects", "expected"),
    [
        # Ann collects 3 from Bob (surrendered), Cy (fouled) and Di: 9.
        # Bob pays Ann 3, Cy 2.5, Di 2.5: -8. Cy: -3 + 2.5 (from Bob) - 3 (foul to Di) = -3.5.
        # Di: -3 + 2.5 + 3 = 2.5.
        pytest.param(True, {ANN: 9, BOB: -8, CY: "-3.5", DI: "2.5"}, id="collects: Ann 3+3+3"),
        # Bob pays Ann the surrender cost 2.5 instead of the natural's 3: Ann 8.5, Bob -7.5.
        pytest.param(
            False, {ANN: "8.5", BOB: "-7.5", CY: "-3.5", DI: "2.5"}, id="not: Bob pays 2.5"
        ),
    ],
)
def test_natural_collects_from_surrendered_and_fouled(
    collects: bool, expected: dict[str, Any]
) -> None:
    result = score(
        {"preset": "classic-1-6", "natural_collects_from_surrendered": collects},
        seat(ANN, SIX_PAIRS, natural="six_pairs"),
        surrender(BOB),
        seat(CY, CY_FOULED_KINGS),
        seat(DI, DI_PLAIN),
    )
    assert player(result, CY)["fouled"] is True
    assert pair_units(result, ANN, CY) == 3
    assert pair(result, ANN, BOB)["kind"] == ("natural" if collects else "surrender")
    expect_units(result, expected)


# --- 9. Mau Binh --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["mau-binh-south", "mau-binh-north"])
@pytest.mark.parametrize(
    ("natural", "rows", "value"),
    [
        pytest.param("clean_dragon", CLEAN_DRAGON, 24, id="clean_dragon 24"),
        pytest.param("dragon", DRAGON, 12, id="dragon 12"),
        pytest.param("same_color_13", SAME_COLOR_13, 6, id="same_color_13 6"),
        pytest.param("same_color_12", SAME_COLOR_12, 6, id="same_color_12 6"),
        pytest.param("five_pairs_trips", FIVE_PAIRS_TRIPS, 6, id="five_pairs_trips 6"),
        pytest.param("six_pairs", SIX_PAIRS, 6, id="six_pairs 6"),
        pytest.param("three_flushes", THREE_FLUSHES, 6, id="three_flushes 6"),
        pytest.param("three_straights", THREE_STRAIGHTS, 6, id="three_straights 6"),
    ],
)
def test_mau_binh_natural(preset: str, natural: str, rows: Rows, value: int) -> None:
    result = score(preset, seat(ANN, rows, natural=natural), seat(BOB, OPPONENT[natural]))
    assert player(result, ANN)["natural"] == natural
    expect_units(result, {ANN: value, BOB: -value})


# Ann: front QQQ (3), middle quad kings (8), back 9-high straight flush (5); scoops Bob.
MB_SCOOP = (
    seat(ANN, ("Qc Qd Qh", "Kc Kd Kh Ks 2c", "5s 6s 7s 8s 9s")),
    seat(BOB, ("Ad Jc 3d", "Jd Jh 4c 4d 6c", "Tc Td Th 3c 3h")),
)
# Bob wins the front (A high, 1); Ann the middle (nines full, 2) and back (quad jacks, 4).
MB_FULL_AND_QUADS = (
    seat(ANN, ("4c 3d 2h", "9c 9d 9h 5c 5d", "Jc Jd Jh Js 6c")),
    seat(BOB, ("Ac Kd 7h", "Tc Td 8c 8d 7c", "Qc Qd Qh 8h 8s")),
)
# Bob wins the front (222, 3) and back (royal, counted as straight flush 5);
# Ann wins the middle (8-high straight flush, 10).
MB_STRAIGHT_FLUSHES = (
    seat(ANN, ("Ac Kc Qc", "4d 5d 6d 7d 8d", "9h Th Jh Qh Kh")),
    seat(BOB, ("2c 2d 2h", "3c 3h 3s 9c 9d", "Ts Js Qs Ks As")),
)


@pytest.mark.parametrize(
    ("rules", "deal", "ann"),
    [
        pytest.param("mau-binh-south", MB_SCOOP, 32, id="sap ba chi: (3+8+5)x2 = 32"),
        pytest.param("mau-binh-north", MB_SCOOP, 32, id="north: (3+8+5)x2 = 32"),
        pytest.param("mau-binh-south", MB_FULL_AND_QUADS, 5, id="middle FH 2 + back quads 4 - 1"),
        pytest.param(
            "classic-1-6", MB_FULL_AND_QUADS, 7, id="classic: rows 2-1=1 + royalties 2+4 = 7"
        ),
        pytest.param("mau-binh-south", MB_STRAIGHT_FLUSHES, 2, id="middle SF 10 - trips 3 - SF 5"),
        pytest.param(
            "classic-1-6",
            MB_STRAIGHT_FLUSHES,
            -1,
            id="classic: rows 1-2=-1, royalties 10+5 - (3+2+10) = 0",
        ),
    ],
)
def test_mau_binh_row_values(rules: str, deal: tuple[dict[str, Any], ...], ann: int) -> None:
    expect_units(score(rules, *deal), {ANN: ann, BOB: -ann})


def test_mau_binh_row_values_are_reported_per_row() -> None:
    result = score("mau-binh-south", *MB_STRAIGHT_FLUSHES)
    assert royalties(result, ANN) == (0, 10, 5)  # K-high straight flush in the back: 5
    assert royalties(result, BOB) == (3, 2, 5)  # royal flush counted as straight flush: 5


def test_mau_binh_foul_pays_the_opponents_row_values_doubled() -> None:
    """Ann fouls (AA front over KK middle). Bob's rows: trips 3, sixes full 2, tens full 1.

    Sweep: (3 + 2 + 1) x 2 = 12.
    """
    result = score(
        "mau-binh-south",
        seat(ANN, ("Ac Ad 7c", "Kc Kd 8c 9d Jh", "Qc Qd Qh Qs 2h")),
        seat(BOB, ("5c 5d 5h", "6c 6d 6h 2c 2d", "Tc Td Th 4c 4d")),
    )
    assert player(result, ANN)["fouled"] is True
    expect_units(result, {ANN: -12, BOB: 12})


@pytest.mark.parametrize(
    ("rules", "di", "expected"),
    [
        # Row values of every ladder hand: pair 1, full house 2, quads 4 = 7; a scoop is 14.
        # Ann scoops all three: 7 x 4 = 28 each = 84. Bob -28 + 14 + 14 = 0,
        # Cy -28 - 14 + 14 = -28, Di -28 - 14 - 14 = -56.
        pytest.param(
            "mau-binh-south",
            LADDER[DI],
            {ANN: 84, BOB: 0, CY: -28, DI: -56},
            id="sap lang: 7x4 = 28 from each",
        ),
        # Di fouled, foul_counts_as_scoop false (preset): every pair 14.
        # Ann 42; Bob -14 + 14 + 14 = 14; Cy -14 - 14 + 14 = -14; Di -42.
        pytest.param(
            "mau-binh-south",
            DI_FOULED,
            {ANN: 42, BOB: 14, CY: -14, DI: -42},
            id="Di fouled, not counted: 14 each",
        ),
        # foul_counts_as_scoop: Ann's sap lang stands, Di's sweep is 7 x 4 = 28 too.
        pytest.param(
            {"preset": "mau-binh-south", "foul_counts_as_scoop": True},
            DI_FOULED,
            {ANN: 84, BOB: 0, CY: -28, DI: -56},
            id="Di fouled, counted: 28 each",
        ),
    ],
)
def test_mau_binh_sap_lang(rules: Any, di: Rows, expected: dict[str, int]) -> None:
    result = score(rules, *ladder(ANN, BOB, CY, DI, di=di))
    assert royalties(result, ANN) == (0, 2, 4)
    expect_units(result, expected)


def test_mau_binh_false_natural_pays_six() -> None:
    """Ann's cards hold four pairs, not six: recorded, pays 6 chi."""
    ann_seat, bob_seat = MB_FULL_AND_QUADS
    result = score("mau-binh-south", {**ann_seat, "natural": "six_pairs"}, bob_seat)
    ann = player(result, ANN)
    assert ann["false_natural"] == "six_pairs"
    assert ann["fouled"] is True
    assert "six_pairs" in ann["foul_reason"]
    expect_units(result, {ANN: -6, BOB: 6})


# --- 10. open-face ------------------------------------------------------------------------

# Ann: 66 (1), trip sevens (2), K-high straight (2) = 5.
# Bob: AA (9), Q-high straight (4), flush (4) = 17. Bob wins every row.
OFC_1 = {
    ANN: ("6c 6d 2c", "7c 7d 7h 3c 4d", "9c Td Jh Qs Kc"),
    BOB: ("Ac Ad 3d", "8c 9d Th Js Qc", "2h 5h 8h Qh Kh"),
}
# All 52 cards. Ann: 222 (10), flush (8), full house (6) = 24. Bob: AAA (22), kings full
# (12), quad queens (10) = 44. Cy: TT (5), quad nines (20), 7-high straight flush (15) = 40.
# Di: 77 (2), two pair (0), trips (0) = 2.
OFC_2 = {
    ANN: ("2c 2d 2h", "3s 7s 8s Js Ks", "4c 4d 4s 5c 5d"),
    BOB: ("Ac Ad Ah", "Kc Kd Kh 6c 6d", "Qc Qd Qh Qs 3c"),
    CY: ("Tc Td 8c", "9c 9d 9h 9s 2s", "3h 4h 5h 6h 7h"),
    DI: ("7c 7d 3d", "8d 8h Th Ts 5s", "Jc Jd Jh As 6s"),
}
# Ann: QQ (7), royal (50), royal (25) = 82. Bob: 55 (0), 8-high straight flush (30),
# 9-high straight flush (15) = 45. Ann wins every row.
OFC_3 = {
    ANN: ("Qc Qd 2c", "Th Jh Qh Kh Ah", "Ts Js Qs Ks As"),
    BOB: ("5s 5h 3d", "4c 5c 6c 7c 8c", "5d 6d 7d 8d 9d"),
}
# Ann fouls (AA front over KK middle). Bob: KK (8), trip queens (2), Q-high straight (2) = 12.
OFC_4 = {
    ANN: ("Ac Ad 2c", "Kc Kd 3c 4d 5h", "7c 7d 7h 7s 6c"),
    BOB: ("Kh Ks 2d", "Qc Qd Qh 3d 4c", "8c 9c Tc Jc Qs"),
}
# Ann: QQ (7), flush (8), full house (6) = 21. Bob: K high, two pair, quad tens (10) = 10.
OFC_5 = {
    ANN: ("Qc Qd 2c", "3c 5c 8c Jc Kc", "4d 4h 4s 9d 9h"),
    BOB: ("Kh 7d 2d", "Ah Ad 6h 6d 3d", "Ts Th Td Tc 5s"),
}


def ofc_seats(board: dict[str, Rows], in_fantasyland: bool = False) -> list[dict[str, Any]]:
    extra = {"in_fantasyland": True} if in_fantasyland else {}
    return [seat(name, rows, **extra) for name, rows in board.items()]


@pytest.mark.parametrize(
    ("kind", "rank", "units"),
    [(f"pair_{r}", r, u) for r, u in zip("6789TJQKA", range(1, 10), strict=True)]
    + [(f"trips_{r}", r, u) for r, u in zip("23456789TJQKA", range(10, 23), strict=True)],
)
def test_ofc_front_royalty_table(kind: str, rank: str, units: int) -> None:
    """Pair of sixes 1, sevens 2, ... aces 9; trips of twos 10, threes 11, ... aces 22."""
    for preset in ("ofc", "pineapple"):
        assert Rules.from_mapping(preset).royalties["front"][kind] == units


def test_ofc_middle_and_back_royalty_tables() -> None:
    table = Rules.from_mapping("ofc").royalties
    assert dict(table["middle"]) == {
        "trips": 2,
        "straight": 4,
        "flush": 8,
        "full_house": 12,
        "quads": 20,
        "straight_flush": 30,
        "royal_flush": 50,
    }
    assert dict(table["back"]) == {
        "straight": 2,
        "flush": 4,
        "full_house": 6,
        "quads": 10,
        "straight_flush": 15,
        "royal_flush": 25,
    }


@pytest.mark.parametrize(
    ("rules", "board", "expected_royalties", "expected_units"),
    [
        # Bob scoops: 6 + royalties 17 - 5 = 18.
        pytest.param(
            "ofc",
            OFC_1,
            {ANN: (1, 2, 2), BOB: (9, 4, 4)},
            {ANN: -18, BOB: 18},
            id="ofc 1: Bob scoop 6 + 17-5 = 18",
        ),
        pytest.param(
            "pineapple",
            OFC_1,
            {ANN: (1, 2, 2), BOB: (9, 4, 4)},
            {ANN: -18, BOB: 18},
            id="pineapple scores the same",
        ),
        # Ann-Bob: Bob scoops -6, 24-44 = -20: -26. Ann-Cy: 1-2 = -1, 24-40: -17.
        # Ann-Di: 6 + 22 = 28. Bob-Cy: 1-2 = -1, 44-40: 3. Bob-Di: 6 + 42 = 48.
        # Cy-Di: 6 + 38 = 44.  Ann -26-17+28 = -15; Bob 26+3+48 = 77; Cy 17-3+44 = 58;
        # Di -28-48-44 = -120.
        pytest.param(
            "ofc",
            OFC_2,
            {ANN: (10, 8, 6), BOB: (22, 12, 10), CY: (5, 20, 15), DI: (2, 0, 0)},
            {ANN: -15, BOB: 77, CY: 58, DI: -120},
            id="ofc 2: four players, six pairs",
        ),
        # Ann scoops: 6; royalties 82 - 45 = 37: 43.
        pytest.param(
            "ofc",
            OFC_3,
            {ANN: (7, 50, 25), BOB: (0, 30, 15)},
            {ANN: 43, BOB: -43},
            id="ofc 3: royals, scoop 6 + 82-45 = 43",
        ),
        # Foul: sweep 6 + Bob's royalties 12 = 18.
        pytest.param(
            "ofc",
            OFC_4,
            {ANN: (0, 0, 0), BOB: (8, 2, 2)},
            {ANN: -18, BOB: 18},
            id="ofc 4: foul sweep 6 + royalties 12",
        ),
        # Ann wins front and middle, loses back: 1; royalties 21 - 10 = 11: 12.
        pytest.param(
            "ofc",
            OFC_5,
            {ANN: (7, 8, 6), BOB: (0, 0, 10)},
            {ANN: 12, BOB: -12},
            id="ofc 5: 2-1 + 21-10 = 12",
        ),
    ],
)
def test_ofc_scoring(
    rules: str,
    board: dict[str, Rows],
    expected_royalties: dict[str, tuple[int, int, int]],
    expected_units: dict[str, int],
) -> None:
    result = score(rules, *ofc_seats(board))
    for name, expected in expected_royalties.items():
        assert royalties(result, name) == expected, name
    expect_units(result, expected_units)


def test_ofc_royal_flush_is_reported() -> None:
    result = score("ofc", *ofc_seats(OFC_3))
    assert player(result, ANN)["rows"]["middle"]["category"] == "royal_flush"
    assert player(result, ANN)["rows"]["back"]["category"] == "royal_flush"
    assert player(result, BOB)["rows"]["back"]["category"] == "straight_flush"


PROGRESSIVE = {"preset": "ofc", "progressive": True}
PINEAPPLE_PROGRESSIVE = {"preset": "pineapple", "progressive": True}


@pytest.mark.parametrize(
    ("rules", "board", "in_fantasyland", "expected"),
    [
        pytest.param("ofc", OFC_1, False, {ANN: None, BOB: 13}, id="ofc: AA enters with 13"),
        pytest.param("pineapple", OFC_1, False, {ANN: None, BOB: 14}, id="pineapple: AA, 14"),
        pytest.param(PROGRESSIVE, OFC_1, False, {ANN: None, BOB: 16}, id="progressive AA 16"),
        pytest.param("ofc", OFC_5, False, {ANN: 13, BOB: None}, id="ofc: QQ enters with 13"),
        pytest.param(PROGRESSIVE, OFC_3, False, {ANN: 14, BOB: None}, id="progressive QQ 14"),
        pytest.param(
            PROGRESSIVE,
            OFC_4,
            False,
            {ANN: None, BOB: 15},
            id="progressive KK 15; fouled AA gets null",
        ),
        pytest.param("ofc", OFC_4, False, {ANN: None, BOB: 13}, id="ofc KK 13; fouled null"),
        pytest.param(
            "ofc",
            OFC_2,
            False,
            {ANN: 13, BOB: 13, CY: None, DI: None},
            id="ofc: trips enter with 13",
        ),
        pytest.param(
            PROGRESSIVE,
            OFC_2,
            False,
            {ANN: 17, BOB: 17, CY: None, DI: None},
            id="progressive trips 17",
        ),
        pytest.param(
            PINEAPPLE_PROGRESSIVE, OFC_1, False, {ANN: None, BOB: 16}, id="pineapple prog AA 16"
        ),
        # Repeats: trips front, full house+ middle or quads+ back; always the base number.
        pytest.param(
            PROGRESSIVE,
            OFC_2,
            True,
            {ANN: 13, BOB: 13, CY: 13, DI: None},
            id="repeat: trips front / quads middle, 13 even progressive",
        ),
        pytest.param(
            PROGRESSIVE,
            OFC_3,
            True,
            {ANN: 13, BOB: 13},
            id="repeat: straight flush / royal middle, 13",
        ),
        pytest.param(
            "ofc",
            OFC_5,
            True,
            {ANN: None, BOB: 13},
            id="repeat: quads back stays; QQ alone does not",
        ),
        pytest.param("pineapple", OFC_5, True, {ANN: None, BOB: 14}, id="pineapple repeat 14"),
        pytest.param(
            PINEAPPLE_PROGRESSIVE,
            OFC_5,
            True,
            {ANN: None, BOB: 14},
            id="pineapple progressive repeat 14",
        ),
        pytest.param(
            "ofc",
            OFC_1,
            True,
            {ANN: None, BOB: None},
            id="repeat: AA, straight, flush is not enough",
        ),
    ],
)
def test_fantasy_land(
    rules: Any, board: dict[str, Rows], in_fantasyland: bool, expected: dict[str, int | None]
) -> None:
    result = score(rules, *ofc_seats(board, in_fantasyland))
    assert {p["name"]: p["fantasyland_next"] for p in result["players"]} == expected


def test_pineapple_rejects_four_players() -> None:
    message = rejected({"rules": "pineapple", "players": ofc_seats(OFC_2)})
    assert "pineapple" in message
    assert "3" in message


def test_ofc_accepts_four_players_and_surrender_costs_two() -> None:
    """ofc surrender costs 2: Ann pays Bob 2."""
    result = score("ofc", surrender(ANN), seat(BOB, OFC_5[BOB]))
    expect_units(result, {ANN: -2, BOB: 2})


def test_discards_are_accepted_when_distinct() -> None:
    ann, bob = ofc_seats(OFC_1)
    result = score(
        "pineapple", {**ann, "discards": "4s 5s 6s 7s"}, {**bob, "discards": "As Ks Ts 9s"}
    )
    expect_units(result, {ANN: -18, BOB: 18})


@pytest.mark.parametrize(
    ("discards", "card"),
    [
        pytest.param("4s Js 6s 7s", "Js", id="a card on Bob's board"),
        pytest.param("2c 4s 5s 6s", "2c", id="a card on Ann's own board"),
        pytest.param("4s 4s 5s 6s", "4s", id="the same discard twice"),
    ],
)
def test_discards_are_checked_for_duplicates(discards: str, card: str) -> None:
    ann, bob = ofc_seats(OFC_1)
    message = rejected({"rules": "pineapple", "players": [{**ann, "discards": discards}, bob]})
    assert card in message
    assert "twice" in message


# Pineapple: five cards, then four rounds of three keeping two: four discards a hand. In
# fantasy land a player keeps 13 of the cards dealt: 14 cards discard one, 17 discard four
# (progressive). Plain open-face deals one card at a time: nothing to discard.
@pytest.mark.parametrize(
    ("rules", "in_fantasyland", "discards", "words"),
    [
        ("ofc", False, "4s", "plain open-face has no discards"),
        ("ofc", True, "4s", "fantasy land deals 13 cards here, so nothing is discarded"),
        ("pineapple", False, "4s 5s 6s", "3 given (4s 5s 6s); a Pineapple hand discards 4"),
        ("pineapple", True, "4s 5s", "fantasy land with 14 cards discards 1"),
        ("pineapple", 15, "4s", "fantasy land deals 14 cards under these rules, not 15"),
        (
            {"preset": "pineapple", "progressive": True},
            16,
            "4s 5s",
            "fantasy land with 16 cards discards 3",
        ),
        (
            {"preset": "ofc", "progressive": True},
            True,
            "4s 5s 6s 7s 8s",
            "fantasy land here discards 0 to 4",
        ),
        ("pineapple", "yes", "", "in_fantasyland must be true, false or the number of cards"),
    ],
)
def test_discards_are_counted_by_the_rules(
    rules: Any, in_fantasyland: Any, discards: str, words: str
) -> None:
    ann, bob = ofc_seats(OFC_1)
    ann = {**ann, "in_fantasyland": in_fantasyland, "discards": discards}
    assert words in rejected({"rules": rules, "players": [ann, bob]})


@pytest.mark.parametrize(
    ("rules", "in_fantasyland", "discards"),
    [
        ("ofc", False, ""),
        ("ofc", True, None),
        ({"preset": "ofc", "progressive": True}, 15, "4s 5s"),
        ({"preset": "ofc", "progressive": True}, True, "4s 5s 6s"),
        ("pineapple", True, "4s"),
        ({"preset": "pineapple", "progressive": True}, 17, "4s 5s 6s 7s"),
    ],
)
def test_the_right_number_of_discards_is_accepted(
    rules: Any, in_fantasyland: Any, discards: str | None
) -> None:
    ann, bob = ofc_seats(OFC_1)
    ann = {**ann, "in_fantasyland": in_fantasyland, "discards": discards}
    result = score_request({"rules": rules, "players": [ann, bob]})
    assert result["players"][0]["units"] == "-18"


# --- 11. 2-7 lowball middle ---------------------------------------------------------------

LOWBALL = {"preset": "standard", "middle": "lowball-2-7"}

# Fronts tie (A-8-6), backs tie (K-high straights); Ann's 7-5-4-3-2 beats Bob's 8-6-4-3-2.
LOW_NUTS = (
    seat(ANN, ("As 8s 6h", "2c 3d 4h 5s 7c", "9c Td Jc Qd Kc")),
    seat(BOB, ("Ah 8h 6d", "2d 3h 4s 6c 8d", "9d Tc Jd Qc Kd")),
)
# Fronts tie (K-6-2), backs tie (Q-high straights); A-2-3-4-5 is an ace-high low, so
# Ann's K-J-9-7-5 is lower.
LOW_ACE_HIGH = (
    seat(ANN, ("Ks 6c 2c", "Kh Jh 9h 7s 5h", "8c 9c Tc Jc Qd")),
    seat(BOB, ("Kd 6d 2d", "Ac 2h 3s 4c 5d", "8d 9d Td Jd Qc")),
)
# Fronts tie (K-T-6), backs tie (A-A-2-2-9); Ann's 3-7 straight loses to Bob's K-high.
LOW_STRAIGHT = (
    seat(ANN, ("Kc Ts 6c", "3c 4d 5h 6s 7c", "Ac Ad 2c 2d 9c")),
    seat(BOB, ("Kh Tc 6d", "Kd Qc Jh 9s 8c", "Ah As 2h 2s 9d")),
)
# Fronts tie (K-T-6), backs tie (A-A-9-9-Q); Ann's 7-5-4-3-2 of hearts is a flush.
LOW_FLUSH = (
    seat(ANN, ("Kc Td 6c", "2h 3h 4h 5h 7h", "Ac Ad 9c 9d Qh")),
    seat(BOB, ("Kd Tc 6d", "2c 3c 4d 5d 8s", "Ah As 9h 9s Qs")),
)


@pytest.mark.parametrize(
    ("deal", "ann"),
    [
        pytest.param(LOW_NUTS, 1, id="7-5-4-3-2 beats 8-6-4-3-2"),
        pytest.param(LOW_ACE_HIGH, 1, id="K-high beats A-2-3-4-5 (ace high, no straight)"),
        pytest.param(LOW_STRAIGHT, -1, id="a straight counts against: K-high no pair wins"),
        pytest.param(LOW_FLUSH, -1, id="a flush counts against: 8-high no pair wins"),
    ],
)
def test_lowball_middle_lowest_wins(deal: tuple[dict[str, Any], ...], ann: int) -> None:
    result = score(LOWBALL, *deal)
    assert pair(result, ANN, BOB)["rows"] == {"front": 0, "middle": ann, "back": 0}
    expect_units(result, {ANN: ann, BOB: -ann})


def test_lowball_wheel_is_ace_high() -> None:
    result = score(LOWBALL, *LOW_ACE_HIGH)
    middle = player(result, BOB)["rows"]["middle"]
    assert middle["category"] == "high_card"
    assert middle["label"].startswith("Ace")


def test_same_layout_fouls_without_lowball() -> None:
    """LOW_NUTS under standard: both fronts (A high) beat their middles (7 / 8 high)."""
    result = score("standard", *LOW_NUTS)
    assert player(result, ANN)["fouled"] is True
    assert player(result, BOB)["fouled"] is True
    expect_units(result, {ANN: 0, BOB: 0})


# Ann's middle is kings full over a back of one pair: legal with a lowball middle.
# Fronts tie (Q-J-9), backs tie (A-A-5-4-3); Bob's 7-5-4-3-2 middle wins: Ann -1.
LOW_STRONG_MIDDLE = (
    seat(ANN, ("Qc Jd 9h", "Kc Kd Kh 2c 2d", "Ac Ad 3c 4d 5h")),
    seat(BOB, ("Qd Jc 9d", "2h 3d 4s 5c 7d", "As Ah 3h 4c 5d")),
)


def test_lowball_only_back_must_beat_front_and_middle_has_no_royalty() -> None:
    """classic-1-6 with a lowball middle: kings full in the middle is legal and earns no
    middle royalty (it would be 2). Rows: 0 - 1 + 0 = -1, no royalties: Ann -1."""
    result = score({"preset": "classic-1-6", "middle": "lowball-2-7"}, *LOW_STRONG_MIDDLE)
    ann = player(result, ANN)
    assert ann["fouled"] is False
    assert ann["rows"]["middle"]["category"] == "full_house"
    assert ann["rows"]["middle"]["royalty"] == "0"
    expect_units(result, {ANN: -1, BOB: 1})


def test_lowball_front_over_back_is_a_foul() -> None:
    """Front QQ over back JJ: the one foul left with a lowball middle. Sweep 6."""
    result = score(
        LOWBALL,
        seat(ANN, ("Qc Qs 9h", "Kc Kd Kh 2c 2d", "Jh Js 3c 4d 5h")),
        LOW_STRONG_MIDDLE[1],
    )
    reason = player(result, ANN)["foul_reason"]
    assert reason.startswith("front Pair of Queens")
    assert "back" in reason
    expect_units(result, {ANN: -6, BOB: 6})


# --- 12. Criss Cross ----------------------------------------------------------------------


def test_criss_cross_adds_both_hands() -> None:
    """Hand 1: ladder Ann vs ladder Bob, Ann scoops: 6.
    Hand 2: Ann 44 / sevens full / quad queens vs Bob 33 / eights full / quad jacks:
    Ann wins front and back, loses middle: 1. Total 7."""

    def rows(front: str, middle: str, back: str) -> dict[str, str]:
        return {"front": front, "middle": middle, "back": back}

    request = {
        "rules": {"preset": "standard", "criss_cross": True},
        "players": [
            {
                "name": ANN,
                "hands": [rows(*LADDER[ANN]), rows("4h 4s 8s", "7c 7d 7h 3c 3d", "Qc Qd Qh Qs 2h")],
            },
            {
                "name": BOB,
                "hands": [rows(*LADDER[BOB]), rows("3h 3s 7s", "8c 8d 8h 4c 4d", "Jc Jd Jh Js 2s")],
            },
        ],
    }
    result = score_request(request)
    expect_units(result, {ANN: 7, BOB: -7})
    (entry,) = result["pairs"]
    assert entry["players"] == [ANN, BOB]
    assert Decimal(entry["units"]) == 7
    assert [Decimal(h["units"]) for h in entry["hands"]] == [6, 1]
    assert [h["rows"] for h in entry["hands"]] == [
        {"front": 1, "middle": 1, "back": 1},
        {"front": 1, "middle": -1, "back": 1},
    ]


def test_criss_cross_needs_exactly_two_players() -> None:
    hands = [{"front": "2c 3c 4c", "middle": "", "back": ""}] * 2
    players = [{"name": n, "hands": hands} for n in (ANN, BOB, CY)]
    message = rejected({"rules": {"preset": "standard", "criss_cross": True}, "players": players})
    assert "exactly 2" in message


# --- 13. Big Two --------------------------------------------------------------------------


def big_two(rules: Any, *left: tuple[str, Any]) -> dict[str, Any]:
    """Players as (name, count) or (name, "cards")."""
    players = [
        {"name": name, "cards_left": v} if isinstance(v, int) else {"name": name, "cards": v}
        for name, v in left
    ]
    return score(rules, *players)


@pytest.mark.parametrize(
    ("rules", "counts", "expected"),
    [
        pytest.param(
            "big-two", (4, 8, 13), {ANN: 25, BOB: -4, CY: -8, DI: -13}, id="plain: 4+8+13 = 25"
        ),
        # 4 x1, 8 x2 = 16, 13 x3 = 39: 59.
        pytest.param(
            {"preset": "big-two", "multipliers": [[5, 2], [10, 3]]},
            (4, 8, 13),
            {ANN: 59, BOB: -4, CY: -16, DI: -39},
            id="[5,2],[10,3]: 4+16+39",
        ),
        # 5 x2 = 10 (threshold is 'or more'), 10 x3 = 30, 9 x2 = 18: 58.
        pytest.param(
            {"preset": "big-two", "multipliers": [[5, 2], [10, 3]]},
            (5, 10, 9),
            {ANN: 58, BOB: -10, CY: -30, DI: -18},
            id="[5,2],[10,3] at the thresholds: 10+30+18",
        ),
        # 4 x1, 8 x2 = 16, 13 x4 = 52: 72.
        pytest.param(
            {"preset": "big-two", "multipliers": [[8, 2], [10, 3], [13, 4]]},
            (4, 8, 13),
            {ANN: 72, BOB: -4, CY: -16, DI: -52},
            id="China: 4+16+52",
        ),
        # 7 x1, 10 x3 = 30, 12 x3 = 36: 73.
        pytest.param(
            {"preset": "big-two", "multipliers": [[8, 2], [10, 3], [13, 4]]},
            (7, 10, 12),
            {ANN: 73, BOB: -7, CY: -30, DI: -36},
            id="China: 7+30+36",
        ),
        # Losers settle: Bob-Cy 8-4 = 4 to Bob, Bob-Di 9 to Bob, Cy-Di 5 to Cy.
        # Bob -4+4+9 = 9; Cy -8-4+5 = -7; Di -13-9-5 = -27.
        pytest.param(
            {"preset": "big-two", "losers_settle": True},
            (4, 8, 13),
            {ANN: 25, BOB: 9, CY: -7, DI: -27},
            id="losers settle",
        ),
    ],
)
def test_big_two(rules: Any, counts: tuple[int, int, int], expected: dict[str, int]) -> None:
    bob, cy, di = counts
    result = big_two(rules, (ANN, 0), (BOB, bob), (CY, cy), (DI, di))
    expect_units(result, expected)


def test_big_two_losers_settle_between_themselves() -> None:
    """Penalties 4, 8, 13: Cy pays Bob 8-4 = 4, Di pays Bob 13-4 = 9 and Cy 13-8 = 5."""
    result = big_two(
        {"preset": "big-two", "losers_settle": True}, (ANN, 0), (BOB, 4), (CY, 8), (DI, 13)
    )
    assert pair_units(result, ANN, BOB) == 4
    assert pair_units(result, BOB, CY) == 4
    assert pair_units(result, BOB, DI) == 9
    assert pair_units(result, CY, DI) == 5


def test_big_two_two_multiplier() -> None:
    """two_multiplier 2: Bob's 3 cards with two 2s pay 3 x 2 x 2 = 12; Cy's 4 cards, no 2: 4."""
    result = big_two(
        {"preset": "big-two", "two_multiplier": 2},
        (ANN, 0),
        (BOB, "2c 2♦ 5h"),
        (CY, "3c 4d 5s 6h"),
    )
    expect_units(result, {ANN: 16, BOB: -12, CY: -4})
    assert player(result, BOB)["penalty"] == "12"


def test_big_two_two_multiplier_needs_cards() -> None:
    message = rejected(
        {
            "rules": {"preset": "big-two", "two_multiplier": 2},
            "players": [
                {"name": ANN, "cards_left": 0},
                {"name": BOB, "cards": "2c 2d 5h"},
                {"name": CY, "cards_left": 4},
            ],
        }
    )
    assert "Cy" in message
    assert "two_multiplier" in message


@pytest.mark.parametrize(
    ("players", "mentions"),
    [
        pytest.param(
            [{"name": ANN, "cards_left": 0}, {"name": BOB, "cards_left": 0}],
            ["exactly one", "Ann", "Bob"],
            id="two winners",
        ),
        pytest.param(
            [{"name": ANN, "cards_left": 0}, {"name": BOB, "cards_left": 14}],
            ["Bob", "14", "13"],
            id="more than 13 cards",
        ),
        pytest.param(
            [
                {"name": ANN, "cards_left": 0},
                {"name": BOB, "cards": "2c 3c"},
                {"name": CY, "cards": "3c 4d"},
            ],
            ["3c", "twice", "Bob", "Cy"],
            id="duplicate card",
        ),
        pytest.param(
            [{"name": ANN, "cards_left": 0}, {"name": BOB, "cards": "2x"}],
            ["Bob", "2x"],
            id="bad card",
        ),
    ],
)
def test_big_two_errors(players: list[dict[str, Any]], mentions: list[str]) -> None:
    message = rejected({"rules": "big-two", "players": players})
    for text in mentions:
        assert text in message


def test_big_two_target_score() -> None:
    rules = Rules.from_mapping({"preset": "big-two", "target_score": 50})
    totals = {ANN: Decimal(30), BOB: Decimal(-50), CY: Decimal(-49), DI: Decimal(69)}
    assert target_reached(totals, rules) == [BOB]  # lost 50: reached; lost 49: not yet
    assert target_reached(totals, Rules.from_mapping("big-two")) == []


# --- 14. stakes ---------------------------------------------------------------------------


def test_stakes_per_pair_multiple() -> None:
    """Ladder under standard: every pair is a scoop of 6 units.

    Money per pair: 6 x 0.5 = 3, except Ann-Bob 6 x 0.5 x 5 = 15.
    Ann 15+3+3 = 21; Bob -15+3+3 = -9; Cy -3-3+3 = -3; Di -9.
    """
    stakes = {"unit_value": "0.5", "pairs": [{"players": [ANN, BOB], "multiplier": 5}]}
    result = score("standard", *ladder(ANN, BOB, CY, DI), stakes=stakes)
    expect_units(result, {ANN: 18, BOB: 6, CY: -6, DI: -18})
    assert Decimal(pair(result, ANN, BOB)["money"]) == 15
    assert Decimal(pair(result, CY, DI)["money"]) == 3
    assert {p["name"]: Decimal(p["money"]) for p in result["players"]} == {
        ANN: 21,
        BOB: -9,
        CY: -3,
        DI: -9,
    }


# --- 15. rule sets ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "mentions"),
    [
        pytest.param({"preset": "standard", "bonus": "3-3"}, ["bonus", "3-3"], id="bad bonus"),
        pytest.param({"preset": "standard", "wheel": "high"}, ["wheel", "high"], id="bad wheel"),
        pytest.param(
            {"preset": "classic-1-6", "foul_penalty": -1},
            ["foul_penalty", "-1"],
            id="negative foul penalty",
        ),
        pytest.param(
            {"preset": "classic-1-6", "surrender_cost": "lots"},
            ["surrender_cost", "lots"],
            id="surrender cost not a number",
        ),
        pytest.param("poker", ["unknown preset", "poker"], id="unknown preset by name"),
        pytest.param({"preset": "holdem"}, ["unknown preset", "holdem"], id="unknown preset"),
        pytest.param(
            {"preset": "big-two", "bonus": "1-6"},
            ["bonus", "does not apply"],
            id="bonus does not apply to big-two",
        ),
        pytest.param(
            {"preset": "ofc", "naturals": {"dragon": 13}},
            ["naturals", "open-face"],
            id="naturals do not apply to open-face",
        ),
        pytest.param(
            {"preset": "classic-1-6", "progressive": True},
            ["progressive", "chinese"],
            id="progressive does not apply to chinese",
        ),
        pytest.param(
            {"preset": "standard", "bogus": 1}, ["bogus", "not a known option"], id="unknown option"
        ),
        pytest.param(
            {"preset": "classic-2-4", "scoop_all_multiplier": 4},
            ["scoop_all_multiplier", "1-6"],
            id="scoop_all needs 1-6",
        ),
    ],
)
def test_rule_errors_name_the_field_and_value(spec: Any, mentions: list[str]) -> None:
    with pytest.raises(RuleError) as caught:
        Rules.from_mapping(spec)
    for text in mentions:
        assert text in str(caught.value)
    # The same message reaches a scoring request, as a ScoreError.
    message = rejected({"rules": spec, "players": ladder(ANN, BOB)})
    assert message == str(caught.value)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_round_trip(preset: str) -> None:
    rules = Rules.from_mapping(preset)
    assert rules.preset == preset
    assert Rules.from_mapping(rules.to_mapping()) == rules


@pytest.mark.parametrize(
    "spec",
    [
        {"preset": "classic-1-6", "royalties": {"back": {"quads": None}}, "bonus": "2-4"},
        {"preset": "classic-1-6", "naturals": {"no_broadway": 3, "dragon": None}},
        {"preset": "mau-binh-south", "foul_counts_as_scoop": True, "false_natural_penalty": 3},
        {"preset": "pineapple", "progressive": True, "surrender_cost": "1.5"},
        {"preset": "big-two", "multipliers": [[10, 3], [5, 2]], "target_score": 101},
    ],
    ids=["classic dropped royalty", "naturals", "mau binh", "pineapple", "big two"],
)
def test_rules_with_overrides_round_trip(spec: dict[str, Any]) -> None:
    rules = Rules.from_mapping(spec)
    assert Rules.from_mapping(rules.to_mapping()) == rules


def test_presets_fix_the_rule_book_table() -> None:
    """RULES section 8, read row by row."""
    standard = Rules.from_mapping("standard")
    assert (standard.bonus, standard.foul_penalty, standard.surrender_cost) == (
        "1-6",
        "sweep",
        None,
    )
    assert not any(standard.royalties.values())
    assert all(v is None for v in standard.naturals.values())
    for name, bonus in (("classic-1-6", "1-6"), ("classic-2-4", "2-4")):
        classic = Rules.from_mapping(name)
        assert classic.bonus == bonus
        assert classic.foul_penalty == 3
        assert classic.foul_pays_royalties is True
        assert classic.surrender_cost == Decimal("2.5")
        assert classic.royalty_mode == "always"
    ofc = Rules.from_mapping("ofc")
    assert (ofc.foul_penalty, ofc.surrender_cost, ofc.fantasyland_cards) == ("sweep", 2, 13)
    pineapple = Rules.from_mapping("pineapple")
    assert (pineapple.max_players, pineapple.fantasyland_cards) == (3, 14)
    south, north = Rules.from_mapping("mau-binh-south"), Rules.from_mapping("mau-binh-north")
    assert (south.wheel, north.wheel) == ("second", "low")
    for mau_binh in (south, north):
        assert mau_binh.royalty_mode == "row_win"
        assert mau_binh.scoop_all_multiplier == 4
        assert mau_binh.false_natural_penalty == 6
        assert mau_binh.foul_counts_as_scoop is False


# --- 16. card notation --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "text", "mentions"),
    [
        pytest.param("front", "Ax Kd 2c", ["Ann", "front", "Ax", "suit"], id="unknown suit"),
        pytest.param("middle", "1c 3d 4h 5s 7c", ["Ann", "middle", "1c", "rank"], id="rank 1"),
        pytest.param("back", "Zc 3d 4h 5s 7c", ["Ann", "back", "Zc", "rank"], id="rank Z"),
        pytest.param(
            "back",
            "9c Td Jh Qs",
            ["Ann", "back", "4 cards", "needs 5"],
            id="four cards in the back",
        ),
        pytest.param(
            "front",
            "6c 6d 2c 3c",
            ["Ann", "front", "4 cards", "needs 3"],
            id="four cards in the front",
        ),
        pytest.param("front", "Kh 5c 4s", ["Kh", "twice", "Ann", "Bob"], id="card twice"),
    ],
)
def test_card_errors_name_player_row_and_text(row: str, text: str, mentions: list[str]) -> None:
    ann = seat(ANN, OFC_1[ANN])
    ann[row] = text
    bob = seat(BOB, ("Kh 5d 2s", "Kd Qd Jd 9h 8h", "As Ks Js 9s 8s"))
    message = rejected({"rules": "standard", "players": [ann, bob]})
    for word in mentions:
        assert word in message


def test_every_notation_of_the_rule_book() -> None:
    """'10' is T, rank letters in any case, suit letters in any case or symbols (with or
    without U+FE0F), separated by spaces, commas or nothing."""
    result = score(
        "standard",
        seat(ANN, ("k\u2665 10\u2665 2S", "A\u2663\ufe0f,a\u2666,4H,5s,7C", "9cTdJhQsKc")),
        seat(BOB, ("8h 6d 3c", "2d 3h 4s 6c 8d", "9d Tc Jd Qc Kd")),
    )
    rows = player(result, ANN)["rows"]
    assert rows["front"]["cards"] == "Kh Th 2s"
    assert rows["middle"]["cards"] == "Ac Ad 4h 5s 7c"
    assert rows["back"]["cards"] == "9c Td Jh Qs Kc"
