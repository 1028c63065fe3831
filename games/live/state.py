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

from decimal import Decimal
from typing import Any

from django.db.models import Count, Max
from django.urls import reverse
from django.utils import timezone, translation

from games.engine.games import player_hands
from games.engine.rules import Rules, decimal_text
from games.live.cards import entry_cards, submitted_clashes
from games.models import Deal, LiveDeal, LiveEntry, SeatLink, Session
from games.present import money_in, pair_detail, pair_royalties, pair_sides, rows_score
from games.reports.ledger import balances


def live_state(session: Session, viewer_player: int | None) -> dict[str, Any]:
    """STATE of ``session`` for the viewer seated as player ``viewer_player`` (or none)."""
    return _state_for(session, viewer_player, public=False)


def public_state(session: Session) -> dict[str, Any]:
    """STATE as everyone following the session sees it: no seat's entry (``you`` None)."""
    return _state_for(session, None, public=True)


def public_part(state: dict[str, Any]) -> dict[str, Any]:
    """A viewer's STATE without their own seat: ``public_state`` of the same moment."""
    live = state.get("live")
    return state if live is None else {**state, "live": {**live, "you": None}}


def _state_for(session: Session, viewer: int | None, *, public: bool) -> dict[str, Any]:
    counted = session.deals.filter(status=Deal.Status.ACTIVE).aggregate(
        deals=Count("pk"), last=Max("number")
    )
    fresh = Session.objects.filter(pk=session.pk).values_list("status", flat=True)[:1]
    status = next(iter(fresh), session.status)
    head = {"id": session.pk, "status": status, "deals": counted["deals"]}
    live = LiveDeal.objects.filter(session=session).select_related("deal").order_by("-pk")[:1]
    latest = next(iter(live), None)
    shown = None if latest is None else _live(session, latest, None if public else viewer)
    return {"session": {**head, "last_deal": counted["last"]}, "live": shown}


def _live(session: Session, live: LiveDeal, viewer: int | None) -> dict[str, Any]:
    entries = {e.player_id: e for e in LiveEntry.objects.filter(live_deal=live).order_by()}
    seated = list(session.seats.order_by("seat").values_list("player_id", "seat", "name"))
    seat_of = {player: seat for player, seat, _ in seated}
    names = {player: name for player, _, name in seated}
    # Only submitted hands are compared: a draft of guessed cards learns nothing of any
    # other seat, and a clash names its card once both hands are in.
    clashes = submitted_clashes(e for p, e in entries.items() if p in seat_of)
    phones = _phones(session) if live.is_open else {}
    seats = []
    for player_id, name in names.items():
        entry = entries.get(player_id)
        seats.append(
            {
                "seat": seat_of[player_id],
                "player": name,
                "state": _state(entry),
                "by": entry.by if entry is not None and entry.entry is not None else None,
                "taken_over": entry is not None and entry.taken_over,
                "conflict": bool(clashes.get(player_id)),
                "cards": len(entry_cards(entry.entry)) if entry is not None else 0,
                **phones.get(player_id, {"phone": "none", "quiet": None}),
            }
        )
    you = None
    if viewer is not None and viewer in names:
        entry = entries.get(viewer)
        you = {
            "seat": seat_of[viewer],
            "player": names[viewer],
            "entry": entry.entry if entry is not None else None,
            "submitted": entry is not None and entry.submitted_at is not None,
            "taken_over": entry is not None and entry.taken_over,
            "conflicts": [
                {"card": card, "seat": seat_of[other], "player": names[other]}
                for card, other in clashes.get(viewer, [])
            ],
        }
    return {
        "id": live.pk,
        "status": live.status,
        "version": live.version,
        "message": live.message or None,
        "seats": seats,
        "you": you,
        "deal": _deal(session, live.deal),
    }


def _phones(session: Session) -> dict[int, dict[str, Any]]:
    """Player -> whether the seat's phone is here: ``phone`` "none" (its link never
    opened), "online" or "offline", and ``quiet``, the seconds since it was last heard."""
    now = timezone.now()
    links = SeatLink.objects.filter(session=session, revoked_at=None).only(
        "player_id", "seen_at", "gone_at"
    )
    phones: dict[int, dict[str, Any]] = {}
    for link in links:
        phone, quiet = link.phone(now)
        phones[link.player_id] = {"phone": phone, "quiet": quiet}
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
