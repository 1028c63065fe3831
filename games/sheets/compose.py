"""What a settlement sheet or a ledger shows: a session's reports turned into a template's
context, then into HTML (and, through ``games.sheets.pdf``, into a PDF).

Everything is read from ``games.reports`` (totals, pair matrix, settlement, running totals,
each player's ledger) and from the engine's stored results (each deal's units and marks);
nothing is scored or summed again. Numbers, cards and names read as ``games.present``
writes them.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from games import reports
from games import stakes as stored_stakes
from games.engine.games import GAMES, player_hands
from games.engine.rules import Rules, decimal_text
from games.models import Deal, Document, Player, Session
from games.present import (
    big_two_lines,
    day,
    game_name,
    is_mau_binh,
    moment,
    money,
    money_in,
    multiple,
    natural_name,
    signed,
    text_faces,
    units,
)
from games.rules_text import describe_rules
from games.sheets.charts import PLAYER_COLOURS, running_totals_svg
from games.sheets.listing import deal_blocks
from games.sheets.monospace import Column, mono_blocks
from games.sheets.statements import deal_changes, ledger_payment_line, night_money, unreviewed_deals
from games.words import row_labels

ZERO = Decimal(0)
TEMPLATES = {
    Document.Kind.SHEET: "pdf/settlement_sheet.html",
    Document.Kind.LEDGER: "pdf/ledger.html",
}
PAPER_SIZES = {Document.Paper.A4: "A4", Document.Paper.LETTER: "letter"}


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
        "produced_at": f"{moment(local)} {local:%Z}",
        "rule_lines": describe_rules(rules),
        "mau_binh": is_mau_binh(rules),
    }


def _stakes_lines(session: Session, deals: Sequence[Deal]) -> list[str]:
    """The unit value and each pair's multiple as the active deals were played."""
    unit_values: list[Decimal] = []
    played: list[dict[stored_stakes.Pair, Decimal]] = []
    for deal in deals:
        stakes = deal.request.get("stakes")
        value = stored_stakes.unit_value(stakes)
        if value is not None and value not in unit_values:
            unit_values.append(value)
        played.append(stored_stakes.pair_multiples(stakes))
    # A pair without an agreed multiple at a deal played it at the unit (x1).
    pairs: dict[stored_stakes.Pair, list[Decimal]] = {key: [] for deal in played for key in deal}
    for deal_pairs in played:
        for key, multipliers in pairs.items():
            multiplier = deal_pairs.get(key, Decimal(1))
            if multiplier not in multipliers:
                multipliers.append(multiplier)
    currency = session.group.currency
    if not unit_values:
        unit_values = [session.group.unit_value]
    then = _(", then ")
    values = then.join(money_in(v, currency, sign=False) for v in unit_values)
    lines = [_("One unit is worth %(values)s.") % {"values": values}]
    for (first, second), multipliers in pairs.items():
        listed = then.join(multiple(m) for m in multipliers)
        lines.append(
            _("%(first)s and %(second)s play at %(multiples)s the unit.")
            % {"first": first, "second": second, "multiples": listed}
        )
    if not pairs:
        lines.append(_("Every pair plays at the unit."))
    return lines


# Long listings (a deal per line) are set as monospaced text rather than HTML tables, and
# without a span per cell: WeasyPrint lays out every table cell and every inline box on its


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
            for hand in player_hands(player):
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
                            "cards": text_faces(shown),
                            "value": "",
                        }
                    )
                    continue
                if player.get("fouled"):
                    continue
                rows = hand.get("rows") or {}
                paid = [row for row in rows if Decimal(rows[row].get("royalty") or 0)]
                labels = row_labels(hand, rules) if paid else {}
                for row in paid:
                    data = rows[row]
                    royalty = Decimal(data["royalty"])
                    entry = {
                        "deal": deal.number,
                        "player": player["name"],
                        "what": _("%(row)s: %(hand)s") % {"row": _(row), "hand": labels[row]},
                        "cards": data["cards"],
                        "value": _("royalty %(units)s") % {"units": decimal_text(royalty)},
                    }
                    royalties.append((royalty, entry))
    royalties.sort(key=lambda item: (-item[0], item[1]["deal"]))
    best = [
        entry | {"cards": text_faces(entry["cards"])} for _, entry in royalties[:NOTABLE_ROYALTIES]
    ]
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
            "money": money(p["money"], currency, sign=True),
            "deals": p["deals"],
            "fouls": p["fouls"],
            "surrenders": p["surrenders"],
            "scoops": p["scoops"],
            "naturals": p["naturals"],
            "royalties": decimal_text(p["royalties"]),
            "negative": p["money"] < 0,
            # Its own sign: at a x2 pair stake a player can be down in units, up in money.
            "units_negative": p["units"] < 0,
            "units_missed": decimal_text(p.get("units_missed", ZERO)),
            "wins": p["wins"],
            "cards_left_average": units(p.get("cards_left_average", ZERO)),
            "multiplied": p["multiplied"],
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
                    "money": money(summary["pairs"][x][y]["money"], currency, sign=True),
                }
                for y in names
            ],
        }
        for x in names
    ]

    def transfers(listed: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
        return [
            {"payer": t["from"], "payee": t["to"], "amount": money(t["amount"], currency)}
            for t in listed
        ]

    active = [deal for deal in deals if deal.status == Deal.Status.ACTIVE]
    changes = deal_changes(session)
    return {
        **_header(session, produced_at),
        "title": _("%(group)s: settlement of %(date)s")
        % {"group": session.group.name, "date": day(session.date, "long")},
        "names": names,
        "stakes_lines": _stakes_lines(session, active),
        "deal_blocks": deal_blocks(deals, names, rules, totals, changes),
        "changes": changes,
        "active_deals": summary["deals"],
        "void_deals": summary["void_deals"],
        "totals": totals,
        "reviewed_deals": summary.get("reviewed_deals", 0),
        "reviewed_game": GAMES[rules.game].reviewed,
        "unreviewed": unreviewed_deals(session),
        **night_money(session),
        "rows_game": bool(GAMES[rules.game].rows),
        "big_two": big_two_lines(summary["big_two"]) if "big_two" in summary else None,
        "fantasyland": GAMES[rules.game].has_fantasyland,
        "matrix": matrix,
        "fewest_transfers": transfers(settled["fewest_transfers"]),
        "pair_by_pair": transfers(settled["pair_by_pair"]),
        "chart": running_totals_svg(  # x: deal numbers, evenly spaced (voids leave gaps)
            running_deals, running, title=_("Running total of each player, in units")
        )
        if running_deals
        else "",
        "notable": _notable_hands(deals, rules),
        "currency": currency,
        "settled": not settled["fewest_transfers"],
    }


def _ledger_columns(currency: str) -> list[Column]:
    return [
        Column(_("Deal"), 4),
        Column(_("Stake"), 6),
        Column(_("Units"), 8),
        Column(currency, 11),
        Column(_("Balance"), 9),
        Column(_("Balance %(currency)s") % {"currency": currency}, 14),
    ]


def _ledger_cells(deal: Mapping[str, Any], currency: str, mark: str = "") -> list[str]:
    """A deal of a ledger: its stake, units and money, and the balances after it; a payment
    (``mark`` in the deal's place): its money and the balances after it."""
    if deal["kind"] == "payment":
        return [
            mark,
            "",
            "",
            money(deal["money"], currency, sign=True),
            signed(deal["balance_units"]),
            money(deal["balance_money"], currency, sign=True),
        ]
    return [
        str(deal["deal"]),
        multiple(deal["multiplier"]),
        signed(deal["units"]),
        money(deal["money"], currency, sign=True),
        signed(deal["balance_units"]),
        money(deal["balance_money"], currency, sign=True),
    ]


def ledger_data(
    session: Session, player: Player, produced_at: datetime.datetime | None = None
) -> dict[str, Any]:
    """Everything the player's per-opponent ledger of the session shows, formatted."""
    produced_at = produced_at or timezone.now()
    ledger = reports.opponent_ledger(session.group, player, session=session)
    # The names they sat down with, as on the sheet, even if renamed since.
    seat_names = session.seat_names()
    seat_name = seat_names.get(player.pk, player.name)
    currency = session.group.currency
    opponents = []
    for entry in ledger["opponents"]:
        entry["name"] = seat_names.get(entry["id"], entry["name"])
        # What is left to settle once the payments between them are counted.
        net = entry["balance_money"]
        if net:
            payer, payee = (entry["name"], seat_name) if net > 0 else (seat_name, entry["name"])
            settle = _("%(payer)s pays %(payee)s %(amount)s") % {
                "payer": payer,
                "payee": payee,
                "amount": money_in(abs(net), currency, sign=False),
            }
        else:
            settle = _("%(first)s and %(second)s are even") % {
                "first": seat_name,
                "second": entry["name"],
            }
        multipliers = []
        cells: list[list[str]] = []
        payments: list[str] = []
        for deal in entry["deals"]:
            if deal["kind"] == "payment":
                mark = f"P{len(payments) + 1}"
                payments.append(ledger_payment_line(deal, mark, seat_name, entry["name"], currency))
                cells.append(_ledger_cells(deal, currency, mark))
                continue
            cells.append(_ledger_cells(deal, currency))
            if deal["multiplier"] not in multipliers:
                multipliers.append(deal["multiplier"])
        opponents.append(
            {
                "name": entry["name"],
                "stake": ", then ".join(multiple(m) for m in multipliers),
                "stake_now": multiple(entry["stake"]),
                "units": signed(entry["units"]),
                "money": money(entry["money"], currency, sign=True),
                "paid": money(entry["paid"], currency, sign=True),
                "balance": money(net, currency, sign=True),
                "settle": settle,
                "payments": payments,
                "blocks": mono_blocks(_ledger_columns(currency), cells),
            }
        )
    return {
        **_header(session, produced_at),
        "title": _("%(player)s's ledger: %(group)s, %(date)s")
        % {
            "player": seat_name,
            "group": session.group.name,
            "date": day(session.date, "long"),
        },
        "player": seat_name,
        "stakes_lines": _stakes_lines(
            session, list(session.deals.filter(status=Deal.Status.ACTIVE).order_by("number"))
        ),
        "units": signed(ledger["units"]),
        "money": money(ledger["money"], currency, sign=True),
        "paid": money(ledger["paid"], currency, sign=True),
        "balance": money(ledger["balance_money"], currency, sign=True),
        "opponents": opponents,
    }


def document_html(
    kind: str,
    session: Session,
    player: Player | None,
    paper: str,
    produced_at: datetime.datetime | None = None,
) -> str:
    """The filled template of a session's sheet, or of a player's ledger."""
    data: dict[str, Any]
    if kind == Document.Kind.SHEET:
        data = sheet_data(session, produced_at)
    else:
        if player is None:
            raise ValueError("a ledger needs a player")
        data = ledger_data(session, player, produced_at)
    data["page_size"] = PAPER_SIZES[Document.Paper(paper)]
    return render_to_string(TEMPLATES[Document.Kind(kind)], data)


def render(
    kind: str,
    session: Session,
    player: Player | None = None,
    paper: str = Document.Paper.A4,
    produced_at: datetime.datetime | None = None,
) -> bytes:
    """The PDF of a session's settlement sheet (``kind`` "sheet") or a player's ledger."""
    return pdf_bytes(document_html(kind, session, player, paper, produced_at))


def pdf_bytes(html: str) -> bytes:
    """A filled template as a PDF."""
    from games.sheets import pdf  # WeasyPrint is imported only where a PDF is made

    return pdf.html_to_pdf(html)
