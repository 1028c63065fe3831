"""One player's season (games/reports/season_player.py) over the hand-worked night.

Ann's units per active deal (tests/services/test_night.py): 1 -8, 2 +1, 3 +3, 4 +4,
5 +1, 6 +4.5, 7 -1, 8 +4 (corrected), 10 -8, 11 +4, 12 +3 (9 is void).
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Group, Player, Session
from games.reports.season import QUERIES
from games.reports.season_player import season_player
from tests.services.test_night import PAIRS

D = Decimal


def test_best_and_worst_deals(night: Session, players: dict[str, Player]) -> None:
    report = season_player(night.group, players["Ann"])
    assert [(d["number"], d["units"]) for d in report["best"]] == [(6, D("4.5")), (4, 4), (8, 4)]
    assert [(d["number"], d["units"]) for d in report["worst"]] == [(1, -8), (10, -8), (7, -1)]
    # Money at 0.5 a unit.
    assert report["best"][0]["money"] == D("2.25")


def test_record_against_each_opponent_is_the_pair_ledger(
    night: Session, players: dict[str, Player]
) -> None:
    report = season_player(night.group, players["Bob"])
    against = {o["name"]: (o["units"], o["deals"]) for o in report["opponents"]}
    expected = {}
    for (a, b), units in PAIRS.items():
        if "Bob" in (a, b):
            other, sign = (b, 1) if a == "Bob" else (a, -1)
            expected[other] = (sign * D(units), 11)
    assert against == expected


def test_rates_against_the_group(night: Session, players: dict[str, Player]) -> None:
    report = season_player(night.group, players["Bob"])
    # Bob fouled once in 11 deals; the table fouled once in 44 player-deals.
    assert report["player"]["foul_rate"] == D("0.0909")
    assert report["group_rates"]["foul_rate"] == D("0.0227")
    assert report["group_rates"]["missed_per_deal"] is None


def test_balance_across_nights_with_payments(
    night: Session,
    next_night: Session,
    group: Group,
    players: dict[str, Player],
    ann_user: User,
) -> None:
    # Di lost 7.25 on the first night and paid Cy 7.25 the next day; Di won 0.5 then.
    services.record_payment(
        group,
        players["Di"],
        players["Cy"],
        "7.25",
        ann_user,
        date=next_night.date,
        confirmed=True,
    )
    services.record_payment(
        group, players["Di"], players["Ann"], "1", ann_user, date=next_night.date
    )  # pending: not in the ledger, so not in the balance
    report = season_player(group, players["Di"])
    lines = [(line["kind"], line["money"], line["balance"]) for line in report["balance"]]
    assert lines == [
        ("night", D("-7.25"), D("-7.25")),
        ("night", D("0.5"), D("-6.75")),
        ("payment", D("7.25"), D("0.5")),
    ]
    assert report["balance"][2]["other_name"] == "Cy"


def test_a_player_without_nights_and_the_query_count(
    night: Session, group: Group, ann_user: User
) -> None:
    newcomer = services.add_player(group, "Eve", by=ann_user)
    with CaptureQueriesContext(connection) as queries:
        report = season_player(group, newcomer, night.date, night.date + datetime.timedelta(1))
    # The season's queries, the best and worst deals, the payments.
    assert len(queries) == QUERIES + 3
    assert report["player"]["deals"] == 0 and report["player"]["foul_rate"] is None
    assert report["nights"] == [] and report["best"] == [] and report["balance"] == []
