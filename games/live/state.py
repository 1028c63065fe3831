"""STATE: what a phone at the live table shows, for one viewer (``games.live.api``).

Everyone sees who is done, how many cards each seat has entered and whether its phone is
here; only the viewer's own seat (a seat link's held by its own phone, or a member's own
player's) comes with its entry. A card two submitted hands share is named to both seats;
drafts are never compared, so nothing typed reveals anything of another seat.

``public_state`` is the same without any viewer's seat (``you`` is None): what every
follower of the session may see, which the WebSocket carries with each change of the deal
in progress (``games.live.push``), so that a phone fetches only what is its own.

A recorded deal (``deal``) is public, every hand having been shown: its ``pairs`` carry what
a program reads (``winner``, ``loser``, ``units``, ``kind``, ``scoop``, ``naturals``) beside
a ``reason`` for people, and its money comes as amounts and as ``money_text``. The words
are in ``language``, the language of the request that built the STATE; the WebSocket hands
the writer's STATE to every phone, so a page read in another language fetches its own
STATE over HTTP once for that deal (``seat_check.js``). The pushed message thus grows by a
few short strings per pair, rather than by the words of every language.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from decimal import Decimal
from typing import Any

from django.db import connection
from django.urls import reverse
from django.utils import timezone, translation

from games.engine.games import player_hands
from games.engine.rules import Rules, decimal_text
from games.live import rows as live_rows
from games.live import said
from games.live.cards import entry_cards, submitted_clashes
from games.live.rows import TableRows
from games.models import Deal, LiveDeal, LiveEntry, SeatLink, Session
from games.present import money_in, pair_detail, pair_royalties, pair_sides, rows_score
from games.reports.ledger import balances


def live_state(session: Session, viewer_player: int | None) -> dict[str, Any]:
    """STATE of ``session`` for the viewer seated as player ``viewer_player`` (or none)."""
    return state_of(session, live_rows.read(session), viewer_player)


def public_state(session: Session) -> dict[str, Any]:
    """STATE as everyone following the session sees it: no seat's entry (``you`` None)."""
    return state_of(session, live_rows.read(session), None)


def public_part(state: dict[str, Any]) -> dict[str, Any]:
    """A viewer's STATE without their own seat: ``public_state`` of the same moment."""
    live = state.get("live")
    return state if live is None else {**state, "live": {**live, "you": None}}


def state_of(session: Session, rows: TableRows | None, viewer: int | None) -> dict[str, Any]:
    """STATE from the live table's rows (``games.live.rows``), as read or as a write left
    them, for the viewer seated as player ``viewer`` (None: the public STATE)."""
    if rows is None:  # the session is gone
        head = {"id": session.pk, "status": session.status, "deals": 0, "last_deal": None}
        return {"session": head, "live": None}
    state = _public(session, rows)
    if viewer is None or rows.live is None or viewer not in rows.names():
        return state
    return {**state, "live": {**state["live"], "you": _you(rows, viewer)}}


# The public STATE of the latest versions, built once each (``_public``).
CACHED = 512
_built: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
_building = threading.Lock()


def _public(session: Session, rows: TableRows) -> dict[str, Any]:
    """The public STATE of these rows, built once per version of the deal in progress and
    shared by every answer and announcement of that version: each gets its own copy of
    the two outer levels, the phones as they are now (which change between versions), and
    never a seat's own part (``you``), which is added to the copy.

    The key holds everything else the STATE shows that can change: the session's status
    and deals, the deal in progress (its id and when it opened, which no other deal
    shares even in a database whose ids start again, its version, bumped by every write
    of it and its entries, its status and message) and, once it is recorded, the ledger's
    mark, the currency and the language of the words.

    Only what is committed is kept: inside a transaction (which may yet roll back, and
    its version be written again otherwise) the STATE is built afresh, as it is."""
    live = rows.live
    if live is None or connection.in_atomic_block:
        return _with_phones(_build(session, rows), rows)
    key: tuple[Any, ...] = (
        connection.alias,
        session.pk,
        rows.status,
        rows.deals,
        rows.last_deal,
        live.pk,
        live.opened_at,
        live.version,
        live.status,
        live.message,
        live.deal_id,
    )
    if live.message_code:  # said in the reader's language
        key += (translation.get_language(),)
    if live.deal_id is not None:
        key += (rows.mark, session.group.currency, translation.get_language())
    with _building:
        found = _built.get(key)
        if found is not None:
            _built.move_to_end(key)
    if found is None:
        found = _build(session, rows)
        with _building:
            _built[key] = found
            while len(_built) > CACHED:
                _built.popitem(last=False)
    return _with_phones(found, rows)


def _with_phones(built: dict[str, Any], rows: TableRows) -> dict[str, Any]:
    """A copy of a built public STATE with each seat's phone as it is now."""
    shown = built["live"]
    if shown is None:
        return {**built}
    phones = _phones(rows) if shown["status"] == LiveDeal.Status.OPEN else {}
    seats = [{**seat, **phones.get(seat["seat"], _NO_PHONE)} for seat in shown["seats"]]
    return {**built, "live": {**shown, "seats": seats}}


_NO_PHONE = {"phone": "none", "quiet": None}


def _build(session: Session, rows: TableRows) -> dict[str, Any]:
    head = {
        "id": session.pk,
        "status": rows.status,
        "deals": rows.deals,
        "last_deal": rows.last_deal,
    }
    live = rows.live
    return {"session": head, "live": None if live is None else _live(session, rows, live)}


def _live(session: Session, rows: TableRows, live: LiveDeal) -> dict[str, Any]:
    entries = rows.entries
    # Only submitted hands are compared: a draft of guessed cards learns nothing of any
    # other seat, and a clash names its card once both hands are in.
    clashes = submitted_clashes(entries.values())
    seats = []
    for player_id, seat, name, _user in rows.seated:
        entry = entries.get(player_id)
        seats.append(
            {
                "seat": seat,
                "player": name,
                "state": _state(entry),
                "by": entry.by if entry is not None and entry.entry is not None else None,
                "taken_over": entry is not None and entry.taken_over,
                "conflict": bool(clashes.get(player_id)),
                "cards": len(entry_cards(entry.entry)) if entry is not None else 0,
                **_NO_PHONE,
            }
        )
    return {
        "id": live.pk,
        "status": live.status,
        "version": live.version,
        **_message(live),
        "seats": seats,
        "you": None,
        "deal": _deal(session, _recorded(live)),
    }


def _recorded(live: LiveDeal) -> Deal | None:
    """The deal in progress's recorded deal: as the write that recorded it left it, or
    read (once per version: the STATE is then kept)."""
    if live.deal_id is None:
        return None
    if LiveDeal._meta.get_field("deal").is_cached(live):
        return live.deal
    return Deal.objects.filter(pk=live.deal_id).first()


def _message(live: LiveDeal) -> dict[str, Any]:
    """Why the deal was cancelled, or why the last submit could not be scored: in the
    active language with any hand's cards hidden (``games.live.said``), and as its code so
    that a socket says it again in its reader's language."""
    if not live.message_code:
        return {"message": live.message or None, "message_code": None}
    public = said.public(live.message_code)
    return {"message": said.text(public), "message_code": public}


def _you(rows: TableRows, viewer: int) -> dict[str, Any]:
    """The viewer's own seat: their entry, the cards they share with another submitted
    hand (with whom), and the refusal of their hand whole when the last submit's refusal
    names it (``refusal``; None otherwise)."""
    seat_of = {player: seat for player, seat, _name, _user in rows.seated}
    names = rows.names()
    entry = rows.entries.get(viewer)
    clashes = submitted_clashes(rows.entries.values())
    return {
        "seat": seat_of[viewer],
        "player": names[viewer],
        "entry": entry.entry if entry is not None else None,
        "submitted": entry is not None and entry.submitted_at is not None,
        "taken_over": entry is not None and entry.taken_over,
        "conflicts": [
            {"card": card, "seat": seat_of[other], "player": names[other]}
            for card, other in clashes.get(viewer, [])
        ],
        "refusal": said.own(rows.live.message_code if rows.live else None, viewer),
    }


def _phones(rows: TableRows) -> dict[int, dict[str, Any]]:
    """Seat -> whether the seat's phone is here: ``phone`` "none" (its link never
    opened), "online" or "offline", and ``quiet``, the seconds since it was last heard."""
    now = timezone.now()
    seat_of = {player: seat for player, seat, _name, _user in rows.seated}
    phones: dict[int, dict[str, Any]] = {}
    for player, (seen_at, gone_at) in rows.phones.items():
        phone, quiet = SeatLink(seen_at=seen_at, gone_at=gone_at).phone(now)
        phones[seat_of[player]] = {"phone": phone, "quiet": quiet}
    return phones


def _state(entry: LiveEntry | None) -> str:
    if entry is None or (entry.entry is None and entry.submitted_at is None):
        return "waiting"
    return "submitted" if entry.submitted_at is not None else "entering"


def _deal(session: Session, deal: Deal | None) -> dict[str, Any] | None:
    if deal is None:
        return None
    players = deal.result.get("players", [])
    # The scoreboard as it stands: a seat link's holder may have no account to open it.
    totals = balances(session)
    staked = deal.request.get("stakes") is not None
    currency = session.group.currency
    return {
        "number": deal.number,
        "units": {p["name"]: str(p.get("units", "0")) for p in players},
        "money": {p["name"]: str(p.get("money", "0")) for p in players} if staked else None,
        "totals": {name: decimal_text(amounts.units) for name, amounts in totals.items()},
        "total_money": (
            {name: decimal_text(amounts.money) for name, amounts in totals.items()}
            if staked
            else None
        ),
        "url": reverse("web:session", args=[session.pk]) + f"#deal-{deal.number}",
        "pairs": _pairs(deal, [p["name"] for p in players]),
        # The texts below are in the language of whoever's request built this STATE.
        "language": translation.get_language(),
        "money_text": (
            {p["name"]: money_in(Decimal(p.get("money", "0")), currency) for p in players}
            if staked
            else None
        ),
        "total_money_text": (
            {name: money_in(amounts.money, currency) for name, amounts in totals.items()}
            if staked
            else None
        ),
    }


def _pairs(deal: Deal, order: list[str]) -> list[dict[str, Any]]:
    """Each pair of the recorded deal from its winner's side: what a program reads (the
    names, units, kind, scooper, naturals declared) and the reason people read."""
    rules = Rules.from_mapping(deal.rules)
    hands = {p["name"]: player_hands(p) for p in deal.result.get("players", [])}
    told = []
    for pair in deal.result.get("pairs", []):
        winner, loser, won = pair_sides(pair, order)
        how = pair_detail(pair, hands, rules) or rows_score(pair, winner)
        told.append(
            {
                "winner": winner,
                "loser": loser,
                "units": decimal_text(won),
                "kind": pair.get("kind"),
                "scoop": pair.get("scoop"),
                "naturals": {
                    name: hand["natural"]
                    for name in pair["players"]
                    for hand in hands.get(name, ())
                    if hand.get("natural")
                },
                "reason": "; ".join(filter(None, (how, pair_royalties(pair, hands)))),
            }
        )
    return told
