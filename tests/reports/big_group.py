"""A group with one long session, built fast: random deals scored by the engine and bulk
inserted with their ledger rows, as benchmarks/ledger.py builds its 10,000-deal session
(recording each through the services would take minutes).

Hands are dealt from a shuffled deck into rows as they come, so many foul: the engine
scores them all the same. One deal in a hundred is void (with the revision that voided it).
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Value

from games import services
from games.engine import score_request
from games.engine.cards import DECK, cards_text
from games.engine.tally import tally
from games.models import Deal, DealRevision, Group, LedgerEntry, Session
from games.services.deals import ledger_entries

NAMES = ("Ann", "Bob", "Cy", "Di")


def random_players(rng: random.Random) -> list[dict[str, Any]]:
    deck = list(DECK)
    rng.shuffle(deck)
    players = []
    for k, name in enumerate(NAMES):
        hand = deck[13 * k : 13 * k + 13]
        players.append(
            {
                "name": name,
                "front": cards_text(hand[:3]),
                "middle": cards_text(hand[3:8]),
                "back": cards_text(hand[8:]),
            }
        )
    return players


def build_group(owner: User, deals: int, seed: int = 1, name: str = "Big club") -> Group:
    """A group owned by ``owner`` with four players and one session of ``deals`` deals."""
    group = services.create_group(owner, name, "EUR", "0.5", "classic-1-6")
    seats = [services.add_player(group, player, by=owner) for player in NAMES]
    services.set_pair_stake(group, seats[0], seats[1], 2, by=owner)
    session = services.start_session(group, seats, owner, place="the long table")
    stakes = {"unit_value": "0.5", "pairs": [{"players": ["Ann", "Bob"], "multiplier": "2"}]}
    rng = random.Random(seed)
    rows = []
    for number in range(1, deals + 1):
        request = {"players": random_players(rng), "stakes": stakes}
        result = score_request({"rules": session.rules, **request})
        void = number % 100 == 50
        rows.append(
            Deal(
                session=session,
                number=number,
                request=request,
                rules=session.rules,
                result=result,
                tally=tally(result),
                status=Deal.Status.VOID if void else Deal.Status.ACTIVE,
                version=2 if void else 1,
                created_by=owner,
            )
        )
    # A value as an expression: a VALUES list rather than PostgreSQL's UNNEST of arrays,
    # which psycopg writes slowly for JSON (as games.services.transfer does).
    for deal in rows[::500]:
        deal.version = Value(deal.version)
    Deal.objects.bulk_create(rows, batch_size=500)
    for deal in rows[::500]:
        deal.version = 2 if deal.status == Deal.Status.VOID else 1
    seated = session.seated()
    LedgerEntry.objects.bulk_create(
        (
            entry
            for deal in rows
            if deal.status == Deal.Status.ACTIVE
            for entry in ledger_entries(deal, deal.result, seated)
        ),
        batch_size=2000,
    )
    DealRevision.objects.bulk_create(
        DealRevision(
            deal=deal,
            version=1,
            request=deal.request,
            result=deal.result,
            action=DealRevision.Action.VOID,
            changed_by=owner,
        )
        for deal in rows
        if deal.status == Deal.Status.VOID
    )
    Session.objects.filter(pk=session.pk).update(last_deal_number=deals)
    return group
