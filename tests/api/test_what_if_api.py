"""POST sessions/{id}/deals/{n}/what-if/: a recorded deal scored again with one option
changed, as the engine scores the same deal under those rules; nothing is stored."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import services
from games.engine import score_request
from games.models import Deal, DealRevision, Group, LedgerEntry, Player, ReviewLine, Session
from games.sitting_out import engine_request
from tests.api.conftest import API
from tests.services.hands import deal, fouled

QUEENS = {"front": "Qc Qd 2h", "middle": "Kc Kd 3h 4h 5s", "back": "Ac Ad 6h 7h 8s"}
PLAIN = {"front": "2c 3c 4d", "middle": "5c 5d 7d 9h Js", "back": "Tc Td Th 9s 8c"}


def what_if(client: APIClient, session: Session, number: int, option: Any, value: Any) -> Any:
    return client.post(
        f"{API}/sessions/{session.pk}/deals/{number}/what-if/",
        {"option": option, "value": value},
        format="json",
    )


def direct(spec: dict[str, Any], stored: Deal) -> dict[str, Any]:
    """The engine asked directly: the deal's players (those who played) and stakes under
    the rules written as a preset and its overrides."""
    return score_request({**engine_request(stored.request), "rules": spec})


def seated(group: Group, players: dict[str, Player], alice: User, **kwargs: Any) -> Session:
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    return services.start_session(group, seats, alice, **kwargs)


def test_chinese_poker_options_answer_as_the_engine(
    session: Session, alice: User, as_bob: APIClient
) -> None:
    # classic-1-6: Ann fouls (pays 3 to each), Di declares six pairs (3 from each).
    first = services.record_deal(
        session,
        [
            {"name": "Ann", **fouled("A")},
            {"name": "Bob", **deal(Bob="B")[0]},
            {"name": "Cy", **deal(Cy="C")[0]},
            {"name": "Di", **deal(Di="D")[0], "natural": "six_pairs"},
        ],
        alice,
    )
    # Cy surrenders (2.5 to each); Ann and Bob play; Di sits out.
    second = services.record_deal(
        session,
        [
            {"name": "Ann", **deal(Ann="A")[0]},
            {"name": "Bob", **deal(Bob="B")[0]},
            {"name": "Cy", "surrender": True},
            {"name": "Di", "sat_out": True},
        ],
        alice,
    )
    tried: list[tuple[Deal, str, Any]] = [
        (first, "foul_penalty", "sweep"),
        (first, "foul_penalty", 1.5),
        (first, "bonus", "2-4"),
        (first, "bonus", "none"),
        (first, "fouled_hand", "played"),
        (first, "foul_pays_royalties", False),
        (first, "royalty_mode", "row_win"),
        (first, "royalty_best_only", True),
        (first, "royalties", "none"),
        (first, "royalties", {"back": {"straight": 2}}),
        (first, "naturals", {"six_pairs": 5}),
        (first, "natural_ranking", "order"),
        (first, "wheel", "second"),
        (first, "middle", "lowball-2-7"),
        (second, "surrender_cost", 1),
        (second, "surrender_cost", "4.5"),
        (second, "bonus", "2-4"),
    ]
    for stored, option, value in tried:
        answer = what_if(as_bob, session, stored.number, option, value)
        assert answer.status_code == 200, (option, value, answer.json())
        body = answer.json()
        # The royalty and naturals mappings update the deal's own (the preset's) table.
        expected = direct({"preset": "classic-1-6", option: value}, stored)
        assert body["result"] == expected, (option, value)
        assert body["option"] == option
        assert body["recorded_value"] == stored.rules[option]
        for row, recorded, now in zip(
            body["players"], stored.result["players"], expected["players"], strict=True
        ):
            assert row["name"] == recorded["name"] == now["name"]
            assert Decimal(row["recorded"]) == Decimal(recorded["units"])
            assert Decimal(row["what_if"]) == Decimal(now["units"])
            assert Decimal(row["difference"]) == Decimal(now["units"]) - Decimal(recorded["units"])
            assert Decimal(row["what_if_money"]) == Decimal(now["money"])


def test_a_sweep_instead_of_three_worked_by_hand(
    session: Session, alice: User, as_alice: APIClient
) -> None:
    # Hands A (fouled) B C D under classic-1-6 with Di's six pairs declared: Ann pays 3 to
    # Bob and to Cy, and Di's natural 3. Swept instead, Ann pays what Bob's and Cy's rows
    # would collect as a scoop: 6 each (no royalty among these rows). So Ann -9 becomes
    # -15, Bob +6 and Cy +6 gain 3 each... of their pair with Ann only.
    services.record_deal(
        session,
        [
            {"name": "Ann", **fouled("A")},
            {"name": "Bob", **deal(Bob="B")[0]},
            {"name": "Cy", **deal(Cy="C")[0]},
            {"name": "Di", **deal(Di="D")[0], "natural": "six_pairs"},
        ],
        alice,
    )
    body = what_if(as_alice, session, 1, "foul_penalty", "sweep").json()
    differences = {row["name"]: row["difference"] for row in body["players"]}
    assert differences == {"Ann": "-6", "Bob": "3", "Cy": "3", "Di": "0"}
    assert body["value"] == "sweep" and body["recorded_value"] == "3"


def test_mau_binh_big_two_and_open_face(
    group: Group, players: dict[str, Player], alice: User, as_alice: APIClient
) -> None:
    mau_binh = seated(group, players, alice, rules_override="mau-binh-south")
    stored = services.record_deal(mau_binh, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    for option, value in (
        ("scoop_all_multiplier", 2),
        ("scoop_all_multiplier", None),
        ("natural_ranking", "value"),
        ("royalty_mode", "always"),
        ("foul_penalty", 3),
        ("wheel", "low"),
    ):
        body = what_if(as_alice, mau_binh, 1, option, value).json()
        assert body["result"] == direct({"preset": "mau-binh-south", option: value}, stored)

    big_two = services.start_session(
        group, [players["Ann"], players["Bob"], players["Cy"]], alice, game="big-two"
    )
    stored = services.record_deal(
        big_two,
        [
            {"name": "Ann", "cards_left": 0},
            {"name": "Bob", "cards": "3d 4h 5c 6s 7d 8h 9c Ts Jd 2h"},
            {"name": "Cy", "cards": "3c 4d 2s"},
        ],
        alice,
    )
    big_two_options: tuple[tuple[str, Any], ...] = (
        ("multipliers", [[10, 2]]),
        ("multipliers", [[3, 2], [10, 3]]),
        ("two_multiplier", 2),
        ("losers_settle", True),
        ("target_score", 50),
    )
    for option, value in big_two_options:
        body = what_if(as_alice, big_two, 1, option, value).json()
        assert body["result"] == direct({"preset": "big-two", option: value}, stored)
    # Worked: 10 cards x3 = 30 for Bob, 3 cards x2 = 6 for Cy: Ann +36 instead of +13.
    body = what_if(as_alice, big_two, 1, "multipliers", [[3, 2], [10, 3]]).json()
    assert [(r["name"], r["what_if"], r["difference"]) for r in body["players"]] == [
        ("Ann", "36", "23"),
        ("Bob", "-30", "-20"),
        ("Cy", "-6", "-3"),
    ]

    ofc = services.start_session(
        group, [players["Ann"], players["Bob"]], alice, rules_override="ofc"
    )
    stored = services.record_deal(ofc, [{"name": "Ann", **QUEENS}, {"name": "Bob", **PLAIN}], alice)
    for option, value in (("royalties", "none"), ("bonus", "2-4"), ("progressive", True)):
        body = what_if(as_alice, ofc, 1, option, value).json()
        assert body["result"] == direct({"preset": "ofc", option: value}, stored)


def counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count() for model in (Deal, DealRevision, LedgerEntry, ReviewLine, Session)
    )


def test_nothing_is_stored(session: Session, alice: User, as_bob: APIClient) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    before = counts()
    ledger = list(LedgerEntry.objects.order_by("pk").values_list("units", "money"))
    stored = Deal.objects.values("result", "rules", "request", "version", "updated_at").get()

    with CaptureQueriesContext(connection) as queries:
        answer = what_if(as_bob, session, 1, "bonus", "2-4")
        refused = what_if(as_bob, session, 1, "bonus", "3-5")
    assert answer.status_code == 200 and refused.status_code == 400
    assert answer.json()["players"][1]["difference"] == "-4"  # something did change
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        and "device" not in q["sql"].lower()  # the token's last use
    ]
    assert writes == []
    assert counts() == before
    assert list(LedgerEntry.objects.order_by("pk").values_list("units", "money")) == ledger
    assert (
        Deal.objects.values("result", "rules", "request", "version", "updated_at").get() == stored
    )


@pytest.mark.parametrize(
    ("option", "value", "field", "named"),
    [
        ("nonsense", 1, "option", "'nonsense' is not an option"),
        ("preset", "standard", "option", "'preset' is not an option"),
        ("multipliers", [[10, 2]], "option", "'multipliers' does not apply to Chinese poker"),
        ("foul_penalty", "lots", "value", "rules.foul_penalty: 'lots' is not a number"),
        ("foul_penalty", 500, "value", "rules.foul_penalty: at most 100"),
        ("foul_penalty", "2.25", "value", "rules.foul_penalty: at most 1 decimal place"),
        ("bonus", "3-5", "value", "rules.bonus"),
        ("royalty_best_only", "yes", "value", "rules.royalty_best_only"),
        ("royalties", "golden", "value", "rules.royalties"),
        ("max_players", 9, "value", "rules.max_players"),
        # Valid alone, but the deal has four players.
        ("max_players", 2, "value", "this deal cannot be scored with max_players 2"),
        # Di's six pairs no longer count: a false natural, refused without a penalty.
        ("naturals", "none", "value", "this deal cannot be scored with naturals 'none'"),
        (5, 1, "option", "option: a string is expected"),
    ],
)
def test_refusals_name_the_option(
    session: Session,
    alice: User,
    as_bob: APIClient,
    option: Any,
    value: Any,
    field: str,
    named: str,
) -> None:
    services.record_deal(
        session,
        [
            *deal(Ann="A", Bob="B", Cy="C"),
            {"name": "Di", **deal(Di="D")[0], "natural": "six_pairs"},
        ],
        alice,
    )
    refused = what_if(as_bob, session, 1, option, value)
    assert refused.status_code == 400
    assert refused.json()["field"] == field
    assert named in refused.json()["error"]


def test_a_missing_value_is_refused(session: Session, alice: User, as_bob: APIClient) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    refused = as_bob.post(
        f"{API}/sessions/{session.pk}/deals/1/what-if/", {"option": "bonus"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["field"] == "value"


def test_members_only(
    session: Session, alice: User, as_bob: APIClient, as_mallory: APIClient
) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    # A member who is no owner may ask, as they may read the deal.
    assert what_if(as_bob, session, 1, "bonus", "2-4").status_code == 200
    # An outsider is told there is no such session, as for reading the deal.
    assert what_if(as_mallory, session, 1, "bonus", "2-4").status_code == 404
    assert as_mallory.get(f"{API}/sessions/{session.pk}/deals/1/").status_code == 404
    # Nobody signed in.
    assert what_if(APIClient(), session, 1, "bonus", "2-4").status_code in (401, 403)
    # No such deal.
    assert what_if(as_bob, session, 7, "bonus", "2-4").status_code == 404


def test_void_deals_and_closed_sessions_are_answered(
    session: Session, alice: User, as_bob: APIClient
) -> None:
    first = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    services.record_deal(session, deal(Ann="B", Bob="A", Cy="C", Di="D"), alice)
    services.void_deal(first, alice)
    services.close_session(session, alice)
    for number in (1, 2):
        answer = what_if(as_bob, session, number, "bonus", "none")
        assert answer.status_code == 200
    assert Deal.objects.get(pk=first.pk).status == Deal.Status.VOID


def test_the_schema_describes_it(client: Client) -> None:
    schema = yaml.safe_load(client.get("/api/schema/").content)
    operation = schema["paths"]["/api/v1/sessions/{session_pk}/deals/{number}/what-if/"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/WhatIf")
    assert {"200", "400", "404"} <= set(operation["responses"])
    answer = schema["components"]["schemas"]["WhatIfAnswer"]
    assert {"deal", "option", "value", "recorded_value", "players", "result"} <= set(
        answer["properties"]
    )
