"""The per-opponent ledger (``games.reports.opponents``) as CSV, written as it is read: one
row per deal or payment per opponent, every cell spreadsheet-safe."""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterator

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


def _csv_cells(line: Line) -> tuple[str, ...]:
    """A line's cells after the player and opponent, in ``LEDGER_CSV_HEADER``'s order."""
    session = line["session"]
    deal = line["kind"] == "deal"
    return (
        "" if session is None else str(session),
        line["date"].isoformat(),
        str(line["deal"]) if deal else "",
        amount_text(line["multiplier"]) if deal else "",
        amount_text(line["units"]),
        amount_text(line["money"]),
        amount_text(line["balance_units"]),
        amount_text(line["balance_money"]),
        line["kind"],
        "" if deal else str(line["payment"]),
        amount_text(line["unit_value"]) if deal else "",
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

    def parts() -> Iterator[str]:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(LEDGER_CSV_HEADER)
        # The header goes out at once, before the database is asked anything.
        yield out.getvalue()
        out.seek(0)
        out.truncate()
        for row in rows:
            if row.opponent is None:  # the head, the totals, an opponent's sums
                continue
            cells = (player.name, row.opponent["name"], *_csv_cells(row.value))
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
