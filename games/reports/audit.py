"""The ledger checked against the deals: what ``manage.py verify_ledger`` reports.

Every balance is a sum of ledger rows, written from each active deal's result when it was
recorded; nothing else keeps them in step. This reads everything back and says where they
disagree: an active deal whose stored request no longer gives its stored result under its
stored rules, a ledger row missing, extra, or with other units or money than the result's
pair, a player's rows adding up to other than the result's total for them, a result whose
players' units do not sum to zero, a void deal with ledger rows, and a session's deal
numbers not running 1, 2, 3... without a gap (or past the session's counter). It only reads.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from games.engine import ScoreError
from games.engine.rules import decimal_text as shown
from games.models import Deal, Group, LedgerEntry, Session
from games.sitting_out import score_playing

ZERO = Decimal(0)

# (player a id, player b id) -> (units, money)
Rows = dict[tuple[int, int], tuple[Decimal, Decimal]]


@dataclass(frozen=True)
class Mismatch:
    """One disagreement, located: group, session, deal (None: the session as a whole)."""

    group: Group
    session: Session
    deal: int | None
    what: str

    def __str__(self) -> str:
        at = (
            f"group {self.group.pk} ({self.group.name}),"
            f" session {self.session.pk} ({self.session.date})"
        )
        if self.deal is not None:
            at += f", deal {self.deal}"
        return f"{at}: {self.what}"


class Audit:
    """Walks groups and counts what it checked; ``mismatches`` yields as it goes."""

    def __init__(self) -> None:
        self.groups = 0
        self.sessions = 0
        self.deals = 0
        self.active = 0

    def mismatches(self, groups: Iterable[Group]) -> Iterator[Mismatch]:
        for group in groups:
            self.groups += 1
            for session in group.sessions.order_by("date", "pk"):
                self.sessions += 1
                yield from self._session(group, session)

    def _session(self, group: Group, session: Session) -> Iterator[Mismatch]:
        def mismatch(deal: int | None, what: str) -> Mismatch:
            return Mismatch(group, session, deal, what)

        numbers = list(session.deals.order_by("number").values_list("number", flat=True))
        for number, times in sorted(Counter(numbers).items()):
            if times > 1:
                yield mismatch(number, f"{times} deals have this number")
        skipped = sorted(set(range(1, max(numbers, default=0) + 1)) - set(numbers))
        if skipped:
            yield mismatch(None, f"deal numbers skip {_runs(skipped)}")
        if 0 in numbers:
            yield mismatch(0, "numbered 0: deals are numbered from 1")
        if numbers and numbers[-1] > session.last_deal_number:
            yield mismatch(
                None,
                f"its last deal number is {session.last_deal_number},"
                f" but deal {numbers[-1]} exists",
            )
        seated = session.seated()
        names = session.seat_names()
        ledger: dict[int, Rows] = defaultdict(dict)
        rows = LedgerEntry.objects.filter(deal__session=session).values_list(
            "deal_id", "player_a_id", "player_b_id", "units", "money"
        )
        for deal_id, a, b, units, money in rows.iterator(chunk_size=2000):
            ledger[deal_id][(a, b)] = (units, money)
        deals = session.deals.order_by("number").only(
            "pk", "number", "status", "request", "rules", "result"
        )
        for deal in deals.iterator(chunk_size=500):
            self.deals += 1
            mine = ledger.pop(deal.pk, {})
            if deal.status == Deal.Status.VOID:
                if mine:
                    count = len(mine)
                    yield mismatch(
                        deal.number, f"void, but it has {count} ledger row{'s' * (count != 1)}"
                    )
                continue
            if deal.status != Deal.Status.ACTIVE:
                yield mismatch(
                    deal.number, f"its status {deal.status!r} is neither active nor void"
                )
                continue
            self.active += 1
            for what in _deal(deal, mine, seated, names):
                yield mismatch(deal.number, what)


def _deal(
    deal: Deal, rows: Rows, seated: Mapping[str, int], names: Mapping[int, str]
) -> Iterator[str]:
    """What is wrong with one active deal and its ledger rows."""
    try:
        rescored = score_playing({"rules": deal.rules, **deal.request})
    except (ScoreError, TypeError) as exc:
        yield f"its stored request no longer scores: {exc}"
    else:
        if rescored != deal.result:
            yield "its stored result is not what its request gives under its rules"
    result = deal.result
    try:
        expected = _result_rows(result, seated)
    except (KeyError, TypeError, ArithmeticError, ValueError) as exc:
        yield f"its stored result cannot be read as pairs of seated players ({exc!r})"
        return
    for pair, (units, money) in expected.items():
        who = "-".join(names[pk] for pk in pair)
        if pair not in rows:
            yield f"no ledger row for {who}"
            continue
        got_units, got_money = rows[pair]
        if got_units != units:
            yield f"ledger row {who}: units {shown(got_units)} where the result says {shown(units)}"
        if got_money != money:
            yield f"ledger row {who}: money {shown(got_money)} where the result says {shown(money)}"
    for pair in rows.keys() - expected.keys():
        who = "-".join(names.get(pk, str(pk)) for pk in pair)
        yield f"a ledger row for {who}, who are no pair of its result"
    if rows == expected:  # otherwise the totals are off for the reasons just given
        yield from _totals(result, rows, seated)


def _result_rows(result: Mapping[str, Any], seated: Mapping[str, int]) -> Rows:
    out: Rows = {}
    for pair in result["pairs"]:
        a, b = pair["players"]
        out[(seated[a], seated[b])] = (
            Decimal(pair["units"]),
            Decimal(pair.get("money", "0")),
        )
    return out


def _totals(result: Mapping[str, Any], rows: Rows, seated: Mapping[str, int]) -> Iterator[str]:
    """Each player's rows add up to what the result says they won; the result sums to 0."""
    won: dict[int, list[Decimal]] = {pk: [ZERO, ZERO] for pk in seated.values()}
    for (a, b), (units, money) in rows.items():
        for pk, sign in ((a, 1), (b, -1)):
            if pk in won:
                won[pk][0] += sign * units
                won[pk][1] += sign * money
    total = ZERO
    for player in result.get("players", ()):
        units = Decimal(player["units"])
        money = Decimal(player.get("money", "0"))
        total += units
        rows_won = won.get(seated.get(player["name"], -1))
        if rows_won is not None and rows_won != [units, money]:
            yield (
                f"{player['name']}: the ledger rows add up to {shown(rows_won[0])} units and"
                f" {shown(rows_won[1])} money, the result says {shown(units)} and {shown(money)}"
            )
    if total:
        yield f"the players' units in its result add up to {shown(total)}, not 0"


def _runs(numbers: list[int]) -> str:
    """1, 2, 3, 7, 9, 10 -> "1-3, 7, 9-10"."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][-1] == number - 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
