"""The PDF documents of a session: what they show, and their life as ``Document`` rows.

What they show is built here from ``games.reports`` (totals, pair matrix, settlement,
running totals, each player's ledger) and from the engine's stored results (each deal's
units and marks); nothing is scored or summed again. ``games.pdf`` turns it into a PDF.

A document is requested (``request_document``: a ``pending`` row, its task queued after
the transaction commits), rendered by ``games.tasks.render_document`` (``render``), and then
``ready`` with its file stored, or ``failed`` with the reason. A worker killed while
rendering does not lose the task: the broker hands it to a worker again (see
``games.tasks``), and a document whose rendering has stopped its worker
``MAX_LOST_RENDERS`` times is failed rather than tried again. A row left ``pending`` longer
than ``settings.DOCUMENT_PENDING_TIMEOUT`` (no worker running, say) is marked failed when
its status is next read, or by ``expire_overdue`` (``manage.py expire_documents``), so no
row stays pending for ever; asking again renders a new one. A ready document whose session
has changed since is reported stale.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from kombu.exceptions import OperationalError as BrokerError

from games import reports
from games.charts import PLAYER_COLOURS, running_totals_svg
from games.engine.rules import Rules, decimal_text
from games.models import Deal, Document, Player, Session
from games.permissions import require_member
from games.rules_text import describe_rules, game_name, is_mau_binh, natural_name

logger = logging.getLogger(__name__)

# Renders begun but never finished (their worker killed) before a document is given up on.
MAX_LOST_RENDERS = 2
ZERO = Decimal(0)

RED_SUITS = frozenset("hd")
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


# --- formatting ------------------------------------------------------------------------------


def signed(value: Decimal) -> str:
    """Units with their sign: "+7.5", "-3", "0"."""
    text = decimal_text(value)
    return f"+{text}" if value > 0 else text


def money(value: Decimal, *, sign: bool = False) -> str:
    """An amount with at least two decimals and never fewer than it has: "4.50", "0.125"."""
    places = max(2, -value.normalize().as_tuple().exponent)  # type: ignore[operator]
    text = f"{value:.{places}f}"
    if text.startswith("-") and not value.quantize(Decimal(10) ** -places):
        text = text[1:]  # "-0.00" -> "0.00"
    return f"+{text}" if sign and value > 0 else text


def cards(text: str | None) -> list[dict[str, Any]]:
    """Card strings ("Ah Td") as rank and suit symbol, with whether the suit is red."""
    out = []
    for card in (text or "").split():
        rank, suit = card[:-1], card[-1].lower()
        out.append(
            {
                "rank": "10" if rank.upper() == "T" else rank.upper(),
                "suit": SUIT_SYMBOLS.get(suit, suit),
                "red": suit in RED_SUITS,
            }
        )
    return out


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "session"


# --- what a document shows ---------------------------------------------------------------------


def fingerprint(session: Session, player: Player | None = None) -> str:
    """A hash of what a document of the session shows, cheap to take on every status read.

    Any deal recorded, edited or voided changes the count or the sum of versions; the
    session's details, the group's name and currency, and (for a ledger) the player's name
    and stakes are included as they are.
    """
    deals = session.deals.aggregate(
        count=Count("pk"), versions=Sum("version"), reviewed=Count("review")
    )
    parts: dict[str, Any] = {
        # Reviews (units missed) are added in the background after each deal.
        "deals": [deals["count"], deals["versions"] or 0, deals["reviewed"]],
        "session": [str(session.date), session.place, session.status, session.rules],
        "group": [session.group.name, session.group.currency],
        "seats": list(session.seats.order_by("seat").values_list("name", flat=True)),
    }
    if player is not None:
        parts["player"] = player.name
        stakes = session.group.pair_stakes.filter(Q(player_a=player) | Q(player_b=player))
        parts["stakes"] = sorted(
            (a, b, str(m))
            for a, b, m in stakes.values_list("player_a_id", "player_b_id", "multiplier")
        )
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _header(session: Session, produced_at: datetime.datetime) -> dict[str, Any]:
    rules = Rules.from_mapping(session.rules)
    local = timezone.localtime(produced_at)
    return {
        "group": session.group.name,
        "currency": session.group.currency,
        "date": session.date,
        "place": session.place,
        "status": session.status,
        "game": game_name(rules),
        "preset": rules.preset,
        "rules_version": session.rule_set.version,
        "produced_at": local.strftime("%Y-%m-%d %H:%M %Z"),
        "rule_lines": describe_rules(rules),
        "mau_binh": is_mau_binh(rules),
    }


def _stakes_lines(session: Session, deals: Sequence[Deal]) -> list[str]:
    """The unit value and each pair's multiple as the active deals were played."""
    unit_values: list[Decimal] = []
    played: list[dict[tuple[str, ...], Decimal]] = []
    for deal in deals:
        stakes = deal.request.get("stakes") or {}
        if "unit_value" in stakes:
            value = Decimal(stakes["unit_value"])
            if value not in unit_values:
                unit_values.append(value)
        played.append(
            {
                tuple(sorted(pair["players"])): Decimal(pair["multiplier"])
                for pair in stakes.get("pairs", ())
            }
        )
    # A pair without an agreed multiple at a deal played it at the unit (x1).
    pairs: dict[tuple[str, ...], list[Decimal]] = {key: [] for deal in played for key in deal}
    for deal_pairs in played:
        for key, multipliers in pairs.items():
            multiplier = deal_pairs.get(key, Decimal(1))
            if multiplier not in multipliers:
                multipliers.append(multiplier)
    currency = session.group.currency
    if not unit_values:
        unit_values = [session.group.unit_value]
    values = ", then ".join(f"{money(v)} {currency}" for v in unit_values)
    lines = [f"One unit is worth {values}."]
    for players, multipliers in pairs.items():
        listed = ", then ".join(f"x{decimal_text(m)}" for m in multipliers)
        lines.append(f"{' and '.join(players)} play at {listed} the unit.")
    if not pairs:
        lines.append("Every pair plays at the unit.")
    return lines


# Long listings (a deal per line) are set as monospaced text rather than HTML tables, and
# without a span per cell: WeasyPrint lays out every table cell and every inline box on its
# own, and a 200-deal table took several seconds where these lines take well under one.
ROWS_PER_BLOCK = 50


@dataclass(frozen=True)
class Column:
    title: str
    width: int  # characters; 0 for a last column of free text
    align: str = ">"


def _pad(text: str, column: Column) -> str:
    if not column.width:
        return text
    return f"{text[: column.width]:{column.align}{column.width}}"


def _line(columns: Sequence[Column], cells: Sequence[str]) -> str:
    return " ".join(_pad(text, column) for column, text in zip(columns, cells, strict=True))


def mono_blocks(
    columns: Sequence[Column], rows: Sequence[Sequence[str]], total: Sequence[str] = ()
) -> list[SafeString]:
    """Rows as aligned monospaced lines under a bold header line, ``ROWS_PER_BLOCK`` a block,
    and an optional bold ``total`` line at the end.

    Each block is the escaped HTML content of a ``<pre>``.
    """
    header = f'<span class="head">{escape(_line(columns, [c.title for c in columns]))}</span>'
    blocks = []
    for start in range(0, max(len(rows), 1), ROWS_PER_BLOCK):
        lines = [header]
        lines += [
            escape(_line(columns, row).rstrip()) for row in rows[start : start + ROWS_PER_BLOCK]
        ]
        blocks.append(lines)
    if total:
        blocks[-1].append(f'<span class="total">{escape(_line(columns, total).rstrip())}</span>')
    # Every text in them was escaped above.
    return [mark_safe("\n".join(lines)) for lines in blocks]


def _scoops(result: Mapping[str, Any]) -> dict[str, list[str]]:
    """Who scooped whom in a deal's result (Criss Cross: per hand)."""
    scoops: dict[str, list[str]] = {}
    for pair in result.get("pairs", ()):
        for hand in pair.get("hands") or (pair,):
            winner = hand.get("scoop")
            if winner:
                loser = next(name for name in pair["players"] if name != winner)
                scoops.setdefault(winner, []).append(loser)
    return scoops


def _deal_cells(deal: Deal, names: Sequence[str], rules: Rules) -> list[str]:
    """A deal's line of the deal-by-deal listing: each player's units and marks, then notes."""
    number = str(deal.number)
    if deal.status == Deal.Status.VOID:
        return [number, *("" for _ in names), "void: counts nowhere"]
    by_name = {player["name"]: player for player in deal.result["players"]}
    scoops = _scoops(deal.result)
    cells, notes = [number], []
    for name in names:
        player = by_name.get(name)
        if player is None:
            cells.append("")
            continue
        marks = []
        if player.get("fouled"):
            marks.append("F")
            false = player.get("false_natural")
            notes.append(
                f"{name}: false {natural_name(false, rules)}" if false else f"{name} fouls"
            )
        if player.get("surrendered"):
            marks.append("X")
            notes.append(f"{name} surrenders")
        for hand in player.get("hands") or (player,):
            if hand.get("natural"):
                marks.append("N")
                notes.append(f"{name}: {natural_name(hand['natural'], rules)}")
        if name in scoops:
            count = len(scoops[name])
            marks.append("S" if count == 1 else f"S{count}")
            notes.append(f"{name} scoops {'+'.join(scoops[name])}")
        if player.get("fantasyland_next"):
            marks.append("L")
        units = Decimal(player["units"])
        cells.append(f"{signed(units):>7} {''.join(marks):<3}")
    cells.append("; ".join(notes))
    return cells


def _deal_blocks(
    deals: Sequence[Deal], names: Sequence[str], rules: Rules, totals: Sequence[Mapping[str, Any]]
) -> list[SafeString]:
    columns = [
        Column("Deal", 5),
        *(Column(f"{name[:10]:>7}", 11, "<") for name in names),
        Column("Notes", 0, "<"),
    ]
    rows = [_deal_cells(deal, names, rules) for deal in deals]
    total = ["Total", *(f"{row['units']:>7}    " for row in totals), "units"]
    return mono_blocks(columns, rows, total)


NOTABLE_ROYALTIES = 12


def _notable_hands(deals: Iterable[Deal], rules: Rules) -> list[dict[str, Any]]:
    """The hands of the night, with their cards: every natural, then the rows that earned
    the biggest royalties (at most ``NOTABLE_ROYALTIES``), in deal order."""
    naturals: list[dict[str, Any]] = []
    royalties: list[tuple[Decimal, dict[str, Any]]] = []
    for deal in deals:
        if deal.status != Deal.Status.ACTIVE:
            continue
        for player in deal.result["players"]:
            for hand in player.get("hands") or (player,):
                natural = hand.get("natural")
                if natural:
                    rows = hand.get("rows") or {}
                    shown = " ".join(
                        rows[row]["cards"] for row in ("front", "middle", "back") if row in rows
                    )
                    naturals.append(
                        {
                            "deal": deal.number,
                            "player": player["name"],
                            "what": natural_name(natural, rules),
                            "cards": cards(shown),
                            "value": "",
                        }
                    )
                    continue
                if player.get("fouled"):
                    continue
                for row, data in (hand.get("rows") or {}).items():
                    royalty = Decimal(data.get("royalty") or 0)
                    if royalty:
                        entry = {
                            "deal": deal.number,
                            "player": player["name"],
                            "what": f"{row}: {data['label']}",
                            "cards": data["cards"],
                            "value": f"royalty {decimal_text(royalty)}",
                        }
                        royalties.append((royalty, entry))
    royalties.sort(key=lambda item: (-item[0], item[1]["deal"]))
    best = [entry | {"cards": cards(entry["cards"])} for _, entry in royalties[:NOTABLE_ROYALTIES]]
    return sorted(naturals + best, key=lambda entry: entry["deal"])


def sheet_data(session: Session, produced_at: datetime.datetime | None = None) -> dict[str, Any]:
    """Everything the session's settlement sheet shows, formatted for the page."""
    produced_at = produced_at or timezone.now()
    summary = reports.session_summary(session)
    settled = reports.settlement(session)
    rules = Rules.from_mapping(session.rules)
    deals = list(session.deals.order_by("number"))
    names = [player["name"] for player in summary["players"]]
    currency = session.group.currency

    running_deals = [entry["deal"] for entry in summary["running"]]
    running = {name: [entry["units"][name] for entry in summary["running"]] for name in names}

    totals = [
        {
            "name": p["name"],
            "colour": PLAYER_COLOURS[k % len(PLAYER_COLOURS)],
            "units": signed(p["units"]),
            "money": money(p["money"], sign=True),
            "deals": p["deals"],
            "fouls": p["fouls"],
            "surrenders": p["surrenders"],
            "scoops": p["scoops"],
            "naturals": p["naturals"],
            "royalties": decimal_text(p["royalties"]),
            "negative": p["money"] < 0,
            "units_missed": decimal_text(p.get("units_missed", ZERO)),
        }
        for k, p in enumerate(summary["players"])
    ]
    matrix = [
        {
            "name": x,
            "cells": [
                None
                if x == y
                else {
                    "units": signed(summary["pairs"][x][y]["units"]),
                    "money": money(summary["pairs"][x][y]["money"], sign=True),
                }
                for y in names
            ],
        }
        for x in names
    ]

    def transfers(listed: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
        return [
            {"payer": t["from"], "payee": t["to"], "amount": money(t["amount"])} for t in listed
        ]

    active = [deal for deal in deals if deal.status == Deal.Status.ACTIVE]
    return {
        **_header(session, produced_at),
        "title": f"{session.group.name}: settlement of {session.date:%d %B %Y}",
        "names": names,
        "stakes_lines": _stakes_lines(session, active),
        "deal_blocks": _deal_blocks(deals, names, rules, totals),
        "active_deals": summary["deals"],
        "void_deals": summary["void_deals"],
        "totals": totals,
        "reviewed_deals": summary.get("reviewed_deals", 0),
        "rows_game": rules.game != "big-two",
        "matrix": matrix,
        "fewest_transfers": transfers(settled["fewest_transfers"]),
        "pair_by_pair": transfers(settled["pair_by_pair"]),
        "chart": running_totals_svg(
            running_deals, running, title="Running total of each player, in units"
        )
        if running_deals
        else "",
        "notable": _notable_hands(deals, rules),
        "currency": currency,
        "settled": not settled["fewest_transfers"],
    }


def _ledger_columns(currency: str) -> list[Column]:
    return [
        Column("Deal", 4),
        Column("Stake", 6),
        Column("Units", 8),
        Column(currency, 11),
        Column("Balance", 9),
        Column(f"Balance {currency}", 14),
    ]


def _ledger_cells(deal: Mapping[str, Any]) -> list[str]:
    """A deal of a ledger: its stake, units and money, and the balances after it."""
    return [
        str(deal["deal"]),
        f"x{decimal_text(deal['multiplier'])}",
        signed(deal["units"]),
        money(deal["money"], sign=True),
        signed(deal["balance_units"]),
        money(deal["balance_money"], sign=True),
    ]


def ledger_data(
    session: Session, player: Player, produced_at: datetime.datetime | None = None
) -> dict[str, Any]:
    """Everything the player's per-opponent ledger of the session shows, formatted."""
    produced_at = produced_at or timezone.now()
    ledger = reports.opponent_ledger(session.group, player, session=session)
    # The names they sat down with, as on the sheet, even if renamed since.
    seat_names = dict(session.seats.values_list("player_id", "name"))
    seat_name = seat_names.get(player.pk, player.name)
    currency = session.group.currency
    opponents = []
    for entry in ledger["opponents"]:
        entry["name"] = seat_names.get(entry["id"], entry["name"])
        net = entry["money"]
        if net > 0:
            settle = f"{entry['name']} pays {seat_name} {money(net)} {currency}"
        elif net < 0:
            settle = f"{seat_name} pays {entry['name']} {money(-net)} {currency}"
        else:
            settle = f"{seat_name} and {entry['name']} are even"
        multipliers = []
        for deal in entry["deals"]:
            if deal["multiplier"] not in multipliers:
                multipliers.append(deal["multiplier"])
        opponents.append(
            {
                "name": entry["name"],
                "stake": ", then ".join(f"x{decimal_text(m)}" for m in multipliers),
                "stake_now": f"x{decimal_text(entry['stake'])}",
                "units": signed(entry["units"]),
                "money": money(net, sign=True),
                "settle": settle,
                "blocks": mono_blocks(
                    _ledger_columns(currency), [_ledger_cells(deal) for deal in entry["deals"]]
                ),
            }
        )
    return {
        **_header(session, produced_at),
        "title": f"{seat_name}'s ledger: {session.group.name}, {session.date:%d %B %Y}",
        "player": seat_name,
        "units": signed(ledger["units"]),
        "money": money(ledger["money"], sign=True),
        "opponents": opponents,
    }


# --- the life of a Document row ------------------------------------------------------------------


def _fresh_existing(
    session: Session, kind: str, paper: str, player: Player | None
) -> Document | None:
    """A document of the same kind already ready and not stale, or pending and not overdue."""
    candidates = Document.objects.filter(
        session=session,
        kind=kind,
        paper=paper,
        player=player,
        status__in=(Document.Status.PENDING, Document.Status.READY),
    ).order_by("-requested_at", "-pk")
    current = None
    for document in candidates[:5]:
        if document.status == Document.Status.PENDING:
            if not _overdue(document):
                return document
            continue
        current = current or fingerprint(session, player)
        if document.fingerprint == current:
            return document
    return None


def request_document(
    session: Session,
    kind: str,
    by: User,
    *,
    player: Player | None = None,
    paper: str = Document.Paper.A4,
) -> tuple[Document, bool]:
    """A document of the session for a member of its group: ``(document, created)``.

    An up-to-date one (ready and not stale, or still pending) is returned as it is;
    otherwise a new ``pending`` row is made and its rendering queued once the transaction
    commits. ``player`` names whose ledger (ledgers only).
    """
    require_member(by, session.group)
    if (kind == Document.Kind.LEDGER) != (player is not None):
        raise ValueError("a ledger needs a player, and only a ledger")
    existing = _fresh_existing(session, kind, paper, player)
    if existing is not None:
        return existing, False
    with transaction.atomic():
        document = Document.objects.create(
            session=session, kind=kind, player=player, paper=paper, requested_by=by
        )
        transaction.on_commit(lambda: queue(document.pk))
    return document, True


def queue(document_id: int) -> None:
    """Send the document's task to the workers; a broker that cannot be reached fails it."""
    from games.tasks import render_document  # the tasks module imports this one

    try:
        render_document.delay(document_id)
    except BrokerError as exc:
        logger.exception("could not queue document %s", document_id)
        mark_failed(document_id, f"could not queue the rendering: {exc}")


def render(document_id: int, tries: int = 0) -> Document | None:
    """Render a pending document and store its file: the task's work. None if not pending.

    ``tries``: the renders of it the task began before and saw fail (retried errors). Any
    other render begun (``attempts``) was lost with its worker; after ``MAX_LOST_RENDERS``
    of them, the document is marked failed instead of rendered, so a document that kills
    its worker every time ends. Rendering again is safe: a file left by a lost render is
    never referenced by the row, and the new one is saved under a name of its own.

    The fingerprint is taken before the data is read, so a change made while rendering
    can only make the document look stale, never hide that it is.
    """
    document = (
        Document.objects.select_related("session__group", "session__rule_set", "player")
        .filter(pk=document_id)
        .first()
    )
    if document is None or document.status != Document.Status.PENDING:
        return None
    lost = document.attempts - tries
    if lost >= MAX_LOST_RENDERS:
        logger.error("document %s: %s renders lost with their worker; giving up", document_id, lost)
        mark_failed(
            document_id,
            f"the worker rendering it stopped {lost} times (killed, or out of memory); "
            "ask for the document again",
        )
        document.refresh_from_db()
        return document
    Document.objects.filter(pk=document_id).update(attempts=F("attempts") + 1)
    from games import pdf  # WeasyPrint is imported only where a PDF is made

    session = document.session
    taken = fingerprint(session, document.player)
    content = pdf.render(document.kind, session, document.player, document.paper)
    name = f"{slug(session.group.name)}-{session.date}-{file_stem(document)}.pdf"
    document.file.save(name, ContentFile(content), save=False)
    document.fingerprint = taken
    document.status = Document.Status.READY
    document.error = ""
    document.finished_at = timezone.now()
    document.save(update_fields=["file", "fingerprint", "status", "error", "finished_at"])
    return document


def file_stem(document: Document) -> str:
    if document.kind == Document.Kind.SHEET:
        return f"sheet-{document.paper.lower()}"
    assert document.player is not None
    return f"ledger-{slug(document.player.name)}-{document.paper.lower()}"


def mark_failed(document_id: int, reason: str) -> None:
    """Record why a document could not be made (only while it is still pending)."""
    Document.objects.filter(pk=document_id, status=Document.Status.PENDING).update(
        status=Document.Status.FAILED, error=reason[:2000], finished_at=timezone.now()
    )


def pending_timeout() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.DOCUMENT_PENDING_TIMEOUT)


def duration_text(seconds: int) -> str:
    """A duration in words: whole minutes as minutes ("10 minutes", "1 minute"), anything
    else in seconds ("45 seconds", "90 seconds")."""
    if seconds >= 60 and not seconds % 60:
        count, unit = seconds // 60, "minute"
    else:
        count, unit = seconds, "second"
    return f"{count} {unit}{'' if count == 1 else 's'}"


def overdue_reason() -> str:
    return (
        f"not rendered within {duration_text(settings.DOCUMENT_PENDING_TIMEOUT)}: no worker "
        "took the task, or it was lost; ask for the document again"
    )


def _overdue(document: Document) -> bool:
    return (
        document.status == Document.Status.PENDING
        and timezone.now() - document.requested_at > pending_timeout()
    )


def refresh(document: Document) -> Document:
    """The document as it stands, an overdue pending one marked failed first."""
    if _overdue(document):
        mark_failed(document.pk, overdue_reason())
        document.refresh_from_db()
    return document


def expire_overdue() -> int:
    """Mark every overdue pending document failed, read or not; how many were."""
    return Document.objects.filter(
        status=Document.Status.PENDING, requested_at__lt=timezone.now() - pending_timeout()
    ).update(status=Document.Status.FAILED, error=overdue_reason(), finished_at=timezone.now())


def is_stale(document: Document) -> bool:
    """Whether a ready document no longer shows its session as it is now."""
    if document.status != Document.Status.READY:
        return False
    return document.fingerprint != fingerprint(document.session, document.player)


def download_name(document: Document) -> str:
    """The file name offered to the browser."""
    return (document.file.name or "document.pdf").rsplit("/", 1)[-1]
