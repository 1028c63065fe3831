"""The deal in progress under random nights: drafts, submits, withdrawals, take-overs,
cancels and opens, by the seats' links and by two members, in any order, with hands dealt
from one shuffled deck and now and then a card of another seat swapped in (a clash) or a
card left out (a hand the engine refuses).

After every step: each deal in progress is recorded at most once, as one Deal (key
``live-<id>``); a submit records exactly when every seat has then submitted, no card is in
two submitted hands and the engine accepts the hands; a hand clashing with another
submitted one is kept, and blocks the deal until one changes; a recorded deal's units sum
to zero and are what the engine gives for the entries;
and a seat's link never changes another seat, nor its own once the host took it over.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from games.engine import ScoreError, score_request
from games.live import table
from games.models import Deal, LiveDeal, LiveEntry, Session
from games.permissions import NotAllowed
from tests.live.helpers import member, seat_actor

pytestmark = pytest.mark.django_db

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
ROWS = (("front", 0, 3), ("middle", 3, 8), ("back", 8, 13))

# A step: (kind, seat, writer, how its entry is made). Writers: the seat's own link (most
# often), the next seat's link, or a member. An entry: as dealt (most often); with the
# card at one position swapped for the card at another position of another seat (seat + k);
# or one card short. Drawn with weights from a seeded random, so that whole deals get
# submitted often enough (uniform choices rarely get four seats past their clashes).
KINDS = {"submit": 12, "save_draft": 2, "withdraw": 2, "take_over": 1, "cancel": 1, "open": 2}
WRITERS = {"link": 4, "other link": 1, "ann": 1, "bob": 1}
HOWS = {"dealt": 12, "swap": 2, "short": 1}


def _operations(rnd: random.Random, count: int) -> list[tuple[Any, ...]]:
    def pick(weights: dict[str, int]) -> str:
        return rnd.choices(list(weights), weights=list(weights.values()))[0]

    steps = []
    for _ in range(count):
        how: tuple[Any, ...] = (pick(HOWS),)
        if how[0] == "swap":
            how = ("swap", rnd.randint(1, 3), rnd.randrange(13), rnd.randrange(13))
        steps.append((pick(KINDS), rnd.randint(1, 4), pick(WRITERS), how))
    return steps


def _entry(cards: list[list[str]], seat: int, how: tuple[Any, ...]) -> dict[str, str]:
    mine = list(cards[seat - 1])
    if how[0] == "swap":
        _, k, at, theirs = how
        mine[at] = cards[(seat - 1 + k) % 4][theirs]
    rows = {row: " ".join(mine[start:end]) for row, start, end in ROWS}
    if how[0] == "short":
        rows["back"] = " ".join(mine[8:12])
    return rows


def _cards(entry: Any) -> set[str]:
    """The cards of an entry as this test writes them (space-separated, as dealt)."""
    if not entry:
        return set()
    return {card for row, _start, _end in ROWS for card in entry.get(row, "").split()}


class Night:
    """The session, the writers, and what the test expects of each step."""

    def __init__(self, session: Session, ann: User, bob: User) -> None:
        self.session = session
        self.users = {"ann": ann, "bob": bob}
        self.links = {seat: seat_actor(session, seat) for seat in (1, 2, 3, 4)}
        self.names = dict(session.seats.values_list("seat", "name"))
        self.player_of = dict(session.seats.values_list("seat", "player_id"))

    def actor(self, seat: int, writer: str) -> table.Actor:
        if writer == "link":
            return self.links[seat]
        if writer == "other link":
            return self.links[seat % 4 + 1]
        return member(self.users[writer])

    def open_deal(self) -> LiveDeal | None:
        return LiveDeal.objects.filter(session=self.session, status="open").first()

    def entries(self, deal: LiveDeal) -> dict[int, LiveEntry]:
        seat_of = {p: s for s, p in self.player_of.items()}
        return {seat_of[e.player_id]: e for e in LiveEntry.objects.filter(live_deal=deal)}

    def snapshot(self) -> list[tuple[Any, ...]]:
        return list(
            LiveEntry.objects.filter(live_deal__session=self.session)
            .order_by("pk")
            .values_list("pk", "entry", "submitted_at", "taken_over", "by")
        ) + list(
            LiveDeal.objects.filter(session=self.session)
            .order_by("pk")
            .values_list("pk", "status", "deal_id")
        )

    def players(self, entries: dict[int, Any]) -> list[dict[str, Any]]:
        return [{**entries[seat], "name": self.names[seat]} for seat in sorted(entries)]

    def engine_units(self, entries: dict[int, Any]) -> dict[str, Decimal] | None:
        """What the engine gives each seat for these entries; None when it refuses them."""
        try:
            result = score_request({"rules": self.session.rules, "players": self.players(entries)})
        except ScoreError:
            return None
        return {p["name"]: Decimal(p["units"]) for p in result["players"]}


def _expected_refusal(night: Night, kind: str, seat: int, writer: str) -> str | None:
    """The refusal a write of ``seat`` by ``writer`` meets before its entry is looked at."""
    deal = night.open_deal()
    if deal is None:
        return "no_deal"
    by_link = writer in ("link", "other link")
    if by_link and writer == "other link":
        return "not_allowed"
    row = night.entries(deal)[seat]
    if by_link and row.taken_over:
        return "taken_over"
    if kind in ("submit", "save_draft") and row.submitted_at is not None:
        return "already_submitted"
    return None


def _outcome(call: Any) -> str | None:
    try:
        call()
    except NotAllowed:
        return "not_allowed"
    except table.LiveConflict as conflict:
        return conflict.code
    except ScoreError:
        return "engine"
    return None


def _step(night: Night, op: tuple[Any, ...], cards: list[list[str]]) -> None:
    kind, seat, writer, how = op
    session, actor = night.session, night.actor(seat, writer)
    host = night.users["bob" if writer == "bob" else "ann"]
    before = night.snapshot()
    deal = night.open_deal()
    if kind in ("open", "cancel", "take_over"):
        call = {
            "open": lambda: table.open_live(session, actor),
            "cancel": lambda: table.cancel(session, host),
            "take_over": lambda: table.take_over(session, seat, host),
        }[kind]
        assert _outcome(call) == (None if kind == "open" or deal else "no_deal")
        return
    refusal = _expected_refusal(night, kind, seat, writer)
    entry = _entry(cards, seat, how)
    # Whether every other seat had submitted before this write (a refusal may take one back).
    others_in = deal is not None and all(
        e.submitted_at is not None for s, e in night.entries(deal).items() if s != seat
    )
    if kind == "withdraw":
        outcome = _outcome(lambda: table.withdraw(session, seat, actor))
    elif kind == "save_draft":
        outcome = _outcome(lambda: table.save_draft(session, seat, entry, actor))
    else:
        outcome = _outcome(lambda: table.submit(session, seat, entry, actor))
    event(f"{kind}: {(outcome or 'done').split(':')[0]}")
    if refusal is not None:
        assert outcome == refusal
        assert night.snapshot() == before, "a refused write changed nothing"
        return
    assert deal is not None
    deal.refresh_from_db()
    rows = night.entries(deal)
    if kind == "withdraw":
        assert outcome is None and rows[seat].submitted_at is None and deal.is_open
        return
    assert rows[seat].entry == entry, "the entry is kept, even when it is refused"
    if kind == "save_draft":
        assert outcome is None and rows[seat].submitted_at is None and deal.is_open
        return
    _check_submit(night, deal, seat, outcome, rows, others_in)


def _check_submit(
    night: Night,
    deal: LiveDeal,
    seat: int,
    outcome: str | None,
    rows: dict[int, LiveEntry],
    others_in: bool,
) -> None:
    if _clash(rows):
        # Kept as submitted (both seats are told); nothing is recorded while it stands.
        assert outcome is None and rows[seat].submitted_at is not None and deal.is_open
        return
    if not others_in:
        assert outcome is None and rows[seat].submitted_at is not None and deal.is_open
        return
    units = night.engine_units({s: e.entry for s, e in rows.items()})
    if units is None:
        # The seat whose hand the engine names (the first short one) takes it back to fix
        # it; every other seat, the one submitting included, stays submitted.
        shorts = [s for s, e in sorted(rows.items()) if len(_cards(e.entry)) < 13]
        named = shorts[0] if shorts else seat
        assert outcome == "engine" and rows[named].submitted_at is None and deal.is_open
        assert all(e.submitted_at is not None for s, e in rows.items() if s != named)
        assert deal.message, "the deal in progress says why it could not score"
        return
    assert outcome is None and deal.status == LiveDeal.Status.RECORDED
    event("a deal recorded")
    assert deal.deal is not None
    assert {p["name"]: Decimal(p["units"]) for p in deal.deal.result["players"]} == units


def _clash(rows: dict[int, LiveEntry]) -> bool:
    """Whether two submitted hands share a card (drafts are never compared)."""
    submitted = [e for e in rows.values() if e.submitted_at is not None]
    return any(
        _cards(first.entry) & _cards(second.entry)
        for k, first in enumerate(submitted)
        for second in submitted[k + 1 :]
    )


def _check_invariants(night: Night) -> None:
    deals = list(LiveDeal.objects.filter(session=night.session))
    assert sum(d.is_open for d in deals) <= 1
    for deal in deals:
        keyed = list(Deal.objects.filter(idempotency_key=f"live-{deal.pk}"))
        recorded = deal.status == LiveDeal.Status.RECORDED
        assert len(keyed) == (1 if recorded else 0), deal
        entries = night.entries(deal)
        submitted = [e for e in entries.values() if e.submitted_at is not None]
        if deal.is_open and len(submitted) == len(entries):
            assert _clash(entries), "every seat submitted, nothing recorded"
        if recorded:
            assert deal.deal_id == keyed[0].pk and len(submitted) == len(entries)
            units = {p["name"]: Decimal(p["units"]) for p in keyed[0].result["players"]}
            assert sum(units.values()) == 0
            assert units == night.engine_units({s: e.entry for s, e in entries.items()})


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    deck=st.permutations(DECK),
    seed=st.integers(0, 2**32),
    count=st.integers(10, 40),
)
def test_no_order_of_writes_records_a_deal_twice_or_wrongly(
    session: Session,
    ann_user: User,
    bob_user: User,
    deck: list[str],
    seed: int,
    count: int,
) -> None:
    cards = [deck[13 * k : 13 * k + 13] for k in range(4)]
    operations = _operations(random.Random(seed), count)
    with transaction.atomic():
        night = Night(session, ann_user, bob_user)
        table.open_live(session, member(ann_user))
        for op in operations:
            note(f"step {op}")
            _step(night, op, cards)
            _check_invariants(night)
        transaction.set_rollback(True)
