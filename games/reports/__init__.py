"""Reads only: what the ledger and the stored results say about a night, a player, a group.

``ledger`` is the one reader of the ledger (balances, pair sums, running totals,
settlement); ``summary``, ``opponents``, ``standings`` and ``season`` build the reports
on it. Amounts are ``Decimal``; ``jsonable`` turns a report into JSON-ready data. Nothing
here writes.
"""

from games.reports.balances import (
    clear_everything,
    group_balances,
    night_settlement,
    payment_data,
    payment_list,
)
from games.reports.jsonable import jsonable
from games.reports.ledger import (
    Amounts,
    PairSums,
    RunningTotal,
    balances,
    pair_matrix,
    running_totals,
    sums_of,
    transfers,
)
from games.reports.opponents import opponent_ledger, opponent_ledger_stream
from games.reports.opponents_csv import (
    LEDGER_CSV_HEADER,
    opponent_ledger_csv,
    opponent_ledger_csv_stream,
)
from games.reports.season import Span, group_rates, season, span
from games.reports.season_player import season_player
from games.reports.standings import group_standings
from games.reports.summary import pair_rows, session_opponents, session_summary, settlement
from games.reports.what_if import deal_what_if

__all__ = [
    "LEDGER_CSV_HEADER",
    "Amounts",
    "PairSums",
    "RunningTotal",
    "Span",
    "balances",
    "clear_everything",
    "deal_what_if",
    "group_balances",
    "group_rates",
    "group_standings",
    "jsonable",
    "night_settlement",
    "opponent_ledger",
    "opponent_ledger_csv",
    "opponent_ledger_csv_stream",
    "opponent_ledger_stream",
    "pair_matrix",
    "pair_rows",
    "payment_data",
    "payment_list",
    "running_totals",
    "season",
    "season_player",
    "session_opponents",
    "session_summary",
    "settlement",
    "span",
    "sums_of",
    "transfers",
]
