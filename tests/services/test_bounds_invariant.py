"""Whatever rule amounts and stakes are accepted when set, every later deal can be kept
exactly by the ledger: no deal is ever refused for the stakes' decimal places or size."""

from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import RuleError, Rules, score_request
from games.engine.cards import DECK, RANK_OF, cards_text
from games.errors import ServiceError
from games.models import Deal
from games.services import checks
from games.services.deals import ledger_entries
from tests.engine.test_properties import NAMES, THIRTEEN_CARD_PRESETS, deals


@st.composite
def numbers(draw: st.DrawFn) -> Any:
    """Numbers of every size and fineness, as JSON or text, many near the bounds."""
    if draw(st.integers(0, 3)):  # mostly small and fine: the values a bound must judge
        mantissa, places = draw(st.integers(1, 999)), draw(st.integers(0, 3))
    else:
        mantissa = draw(
            st.one_of(
                st.sampled_from([1, 3, 5, 10, 11, 99, 100, 101, 999, 1000, 1001, 10**6, 10**7]),
                st.integers(0, 10**31),
            )
        )
        places = draw(st.integers(0, 30))
    number = Decimal(mantissa).scaleb(-places)
    return draw(st.sampled_from([str(number), float(number), int(number)]))


def accepted(preset: str, name: str, value: Any) -> bool:
    try:
        Rules.from_mapping({"preset": preset, name: value}, limits=True)
    except RuleError:
        return False
    return True


@st.composite
def bounded_specs(draw: st.DrawFn, presets: tuple[str, ...]) -> dict[str, Any]:
    """A spec whose every number was drawn at random and kept only if accepted when set."""
    preset = draw(st.sampled_from(presets))
    spec: dict[str, Any] = {"preset": preset}
    rules = Rules.from_mapping(preset)
    if rules.game == "big-two":
        candidates: dict[str, Any] = {
            "multipliers": [[draw(st.integers(1, 13)), draw(numbers())] for _ in range(2)],
            "two_multiplier": draw(numbers()),
            "losers_settle": draw(st.booleans()),
        }
    else:
        candidates = {
            "foul_penalty": draw(st.one_of(st.just("sweep"), numbers())),
            "surrender_cost": draw(numbers()),
            "royalties": draw(st.sampled_from(["baseline", "open-face", "mau-binh"])),
            "royalty_mode": draw(st.sampled_from(["always", "row_win"])),
        }
        if rules.game == "chinese":
            candidates["naturals"] = {"six_pairs": draw(numbers()), "dragon": draw(numbers())}
            candidates["false_natural_penalty"] = draw(numbers())
            if rules.bonus == "1-6":
                candidates["scoop_all_multiplier"] = draw(numbers())
        back = {"back": {"straight": draw(numbers()), "full_house": draw(numbers())}}
        if draw(st.booleans()):
            candidates["royalties"] = back
    for name, value in candidates.items():
        if accepted(preset, name, value):
            spec[name] = value
    return spec


def stake(check: Any) -> st.SearchStrategy[Decimal]:
    """A unit value or a pair's multiple drawn at random; 1 when refused when set."""

    def kept(value: Any) -> Decimal:
        try:
            return Decimal(check(value))
        except ServiceError:
            return Decimal(1)

    return numbers().map(kept)


@st.composite
def big_two_deals(draw: st.DrawFn) -> dict[str, Any]:
    spec = draw(bounded_specs(("big-two",)))
    count = draw(st.integers(2, 4))
    deck = draw(st.permutations(DECK))
    winner = draw(st.integers(0, count - 1))
    players: list[dict[str, Any]] = []
    for k in range(count):
        left = 0 if k == winner else draw(st.integers(1, 13))
        cards = sorted(deck[13 * k : 13 * k + left], key=lambda c: -RANK_OF[c])
        players.append({"name": NAMES[k], "cards": cards_text(tuple(cards))})
    return {"rules": spec, "players": players}


@st.composite
def thirteen_card_deals(draw: st.DrawFn) -> dict[str, Any]:
    return draw(deals(draw(bounded_specs(THIRTEEN_CARD_PRESETS))))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(thirteen_card_deals(), big_two_deals()),
    stake(checks.unit_value),
    stake(checks.multiplier),
    stake(checks.multiplier),
)
def test_a_deal_under_values_accepted_when_set_is_always_kept_exactly(
    request: dict[str, Any], unit_value: Decimal, first: Decimal, second: Decimal
) -> None:
    names = [p["name"] for p in request["players"]]
    pairs = [
        {"players": [a, b], "multiplier": str(first if a == names[0] else second)}
        for k, a in enumerate(names)
        for b in names[k + 1 :]
    ]
    stakes = {"unit_value": str(unit_value), "pairs": pairs}
    Rules.from_mapping(request["rules"], limits=True)  # the whole spec is accepted too

    result = score_request({**request, "stakes": stakes})

    # What recording the deal does with the result: raises ScoreError on "stakes" when the
    # ledger could not keep an amount exactly.
    rows = ledger_entries(Deal(), result, dict.fromkeys(names, 0))
    assert sum(row.units for row in rows) == sum(Decimal(pair["units"]) for pair in result["pairs"])


def test_the_largest_big_two_deal_at_the_largest_stakes_is_kept() -> None:
    """13 cards left with all four 2s, at x5 and 3 per 2, unit 10,000,000 at x10: 5.3e11."""
    rules = {"preset": "big-two", "multipliers": [[1, 5]], "two_multiplier": 3}
    cards = "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c"
    request = {
        "rules": rules,
        "players": [{"name": "Ann", "cards": ""}, {"name": "Bob", "cards": cards}],
        "stakes": {
            "unit_value": str(checks.unit_value("10000000")),
            "pairs": [{"players": ["Ann", "Bob"], "multiplier": str(checks.multiplier(10))}],
        },
    }
    Rules.from_mapping(rules, limits=True)

    result = score_request(request)
    (row,) = ledger_entries(Deal(), result, {"Ann": 0, "Bob": 0})

    assert row.units == 13 * 5 * 3**4
    assert row.money == Decimal(13 * 5 * 3**4) * 10_000_000 * 10
