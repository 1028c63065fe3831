"""The per-opponent ledger (``games.reports.opponents``) as CSV, written as it is read: one
row per deal or payment per opponent, every cell spreadsheet-safe. The header is in the
reader's language; amounts of money carry their currency's decimals (``plain_amount``)."""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterator

from django.utils.translation import pgettext_lazy

from games.lib.locales import plain_amount
from games.models import Group, Player, Session
from games.reports import opponents
from games.reports.opponents import Line, amount_text, ledger_rows, spreadsheet_safe

# The columns of the deals first (as before payments were lines), then the others.
LEDGER_CSV_HEADER = (
    "player",
    "opponent",
    "session",
    "date",
    "deal",
    "multiplier",
    "units",
    "money",
    "balance_units",
    "balance_money",
    "kind",
    "payment",
    "unit_value",
    "direction",
    "note",
)

# Every CSV column's name in the reader's language. English keeps the column's own name
# ("balance_money"), which programs reading an English export already expect.
CSV_COLUMNS = {
    "player": pgettext_lazy("CSV column", "player"),
    "opponent": pgettext_lazy("CSV column", "opponent"),
    "session": pgettext_lazy("CSV column", "session"),
    "date": pgettext_lazy("CSV column", "date"),
    "deal": pgettext_lazy("CSV column", "deal"),
    "multiplier": pgettext_lazy("CSV column", "multiplier"),
    "units": pgettext_lazy("CSV column", "units"),
    "money": pgettext_lazy("CSV column", "money"),
    "balance_units": pgettext_lazy("CSV column", "balance_units"),
    "balance_money": pgettext_lazy("CSV column", "balance_money"),
    "kind": pgettext_lazy("CSV column", "kind"),
    "payment": pgettext_lazy("CSV column", "payment"),
    "unit_value": pgettext_lazy("CSV column", "unit_value"),
    "direction": pgettext_lazy("CSV column", "direction"),
    "note": pgettext_lazy("CSV column", "note"),
    "stake": pgettext_lazy("CSV column", "stake"),
}


def csv_header(columns: tuple[str, ...]) -> list[str]:
    """A CSV header row in the active language: "player", "balance_money" in English,
    "người chơi", "số dư (tiền)" in Vietnamese."""
    return [str(CSV_COLUMNS.get(column, column)) for column in columns]


def _csv_cells(line: Line, currency: str) -> tuple[str, ...]:
    """A line's cells after the player and opponent, in ``LEDGER_CSV_HEADER``'s order."""
    session = line["session"]
    deal = line["kind"] == "deal"
    return (
        "" if session is None else str(session),
        line["date"].isoformat(),
        str(line["deal"]) if deal else "",
        amount_text(line["multiplier"]) if deal else "",
        amount_text(line["units"]),
        plain_amount(line["money"], currency),
        amount_text(line["balance_units"]),
        plain_amount(line["balance_money"], currency),
        line["kind"],
        "" if deal else str(line["payment"]),
        plain_amount(line["unit_value"], currency) if deal else "",
        "" if deal else line["direction"],
        "" if deal else line["note"],
    )


def opponent_ledger_csv_stream(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Iterator[str]:
    """``opponent_ledger`` as CSV text in pieces: a header row, then one row per deal or
    payment per opponent (``ledger_rows``' lines), reading the database as it goes."""
    rows = ledger_rows(group, player, session=session, date_from=date_from, date_to=date_to)
    # Translated now, while the request's language is active, not when the stream is read.
    header = csv_header(LEDGER_CSV_HEADER)
    currency = group.currency

    def parts() -> Iterator[str]:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        # The header goes out at once, before the database is asked anything.
        yield out.getvalue()
        out.seek(0)
        out.truncate()
        for row in rows:
            if row.opponent is None:  # the head, the totals, an opponent's sums
                continue
            cells = (player.name, row.opponent["name"], *_csv_cells(row.value, currency))
            writer.writerow([spreadsheet_safe(value) for value in cells])
            if out.tell() >= opponents.STREAM_PIECE:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    return parts()


def opponent_ledger_csv(
    group: Group,
    player: Player,
    *,
    session: Session | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> str:
    """``opponent_ledger`` as CSV: a header row, then one row per deal per opponent."""
    return "".join(
        opponent_ledger_csv_stream(
            group, player, session=session, date_from=date_from, date_to=date_to
        )
    )
