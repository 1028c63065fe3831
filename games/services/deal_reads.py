"""What recording a deal reads before it writes, in few round trips.

A deal needs its session's seats and its group's pair stakes before it is scored. They
come in the same query as the session itself (``with_deal_table``: JSON columns added to
the view's query; ``session_for_deal``), or in one plain query when the session was read
without them (``deal_table``); through the API with a device token, the session comes in
the same statement as the token that signs the request in (``token_and_session``), so
reading is one round trip. The deal is then scored once and written by the ORM, in one
transaction (``games.services.deals``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import QuerySet, TextField
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext as _

from games.engine import ScoreError
from games.lib import hot_sql
from games.models import (
    Deal,
    Group,
    LedgerEntry,
    Membership,
    PairStake,
    Session,
    SessionSeat,
)
from games.models.accounts import (
    DeviceToken,
    by_key,
    key_hash,
    token_columns,
    token_from,
    token_join,
)


class DealTable(NamedTuple):
    seated: dict[str, int]  # player ids by seat name, in seat order
    pair_stakes: list[tuple[int, int, Decimal]]  # the group's (player a, player b, multiple)
    seats: dict[str, int]  # seat numbers by seat name, in seat order
    last: tuple[int, int | None] | None  # the last deal's (number, dealer), None before one


_quoted = hot_sql.quoted


def _table_sql() -> list[tuple[str, str]]:
    """The columns ``with_deal_table`` adds, as (name, SQL) pairs: subqueries on the
    session's table (under its own name) giving the seats, the group's pair stakes and
    the last deal's (number, dealer) as JSON text."""
    seats, stakes, session = _quoted(SessionSeat), _quoted(PairStake), _quoted(Session)
    deals = _quoted(Deal)
    if connection.vendor == "postgresql":
        agg, row = "json_agg", "json_build_array"
    else:
        agg, row = "json_group_array", "json_array"
    seats_sql = (
        f"SELECT CAST({agg}({row}(s.seat, s.name, s.player_id)) AS TEXT) FROM {seats} s"
        f" WHERE s.session_id = {session}.id"
    )
    stakes_sql = (
        f"SELECT CAST({agg}({row}(p.player_a_id, p.player_b_id, CAST(p.multiplier AS TEXT)))"
        f" AS TEXT) FROM {stakes} p WHERE p.group_id = {session}.group_id"
    )
    # The last deal's number and dealer, for the next deal's default dealer.
    last_sql = (
        f"SELECT CAST({row}(d.number, d.dealer) AS TEXT) FROM {deals} d"
        f" WHERE d.session_id = {session}.id ORDER BY d.number DESC LIMIT 1"
    )
    return list(zip(_TABLE_COLUMNS, (seats_sql, stakes_sql, last_sql), strict=True))


# The names of ``with_deal_table``'s columns, in their order.
_TABLE_COLUMNS = ("deal_table_seats", "deal_table_stakes", "deal_table_last")


def with_deal_table(sessions: QuerySet[Session]) -> QuerySet[Session]:
    """``sessions`` with each one's seats and its group's pair stakes read in the same
    query (as JSON text), for ``deal_table`` to take without a query of its own."""
    return sessions.annotate(
        **{name: RawSQL(sql, (), output_field=TextField()) for name, sql in _table_sql()}
    )


def deal_table_sql() -> list[tuple[str, str]]:
    """``with_deal_table``'s columns as (name, SQL) pairs, for a statement of another
    module that reads the session's table under its own name (``keep_deal_table`` then
    keeps the values read)."""
    return _table_sql()


def keep_deal_table(session: Session, values: Sequence[Any]) -> None:
    """Keep on ``session`` the values of ``deal_table_sql()``'s columns, in their order,
    for ``deal_table`` to take without a query of its own."""
    for name, value in zip(_TABLE_COLUMNS, values, strict=True):
        session.__dict__[name] = value


_BIGGEST_ID = 2**63 - 1


def session_for_deal(user: User, session_pk: int) -> Session | None:
    """The session a deal is about to be recorded into, None unless ``user`` belongs to
    its group: with its group, the user's role (``viewer_role``) and ``with_deal_table``'s
    columns, as the ORM would read them, in one statement written from the
    models' column lists (``games.lib.hot_sql``: compiling the same query with the ORM costs
    more than running it).
    """
    if not 0 < session_pk <= _BIGGEST_ID:
        return None
    sessions, members = _quoted(Session), _quoted(Membership)
    sql = (
        f"SELECT {_session_columns()} FROM {_session_join()}"
        f" AND {members}.user_id = %s WHERE {sessions}.id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk, session_pk])
        row = cursor.fetchone()
    return None if row is None else _session_from(row)


def token_and_session(key: str, session_pk: int) -> tuple[DeviceToken | None, Session | None]:
    """``DeviceToken.for_key(key)`` and, when there is such a token,
    ``session_for_deal(token.user, session_pk)``, in one statement: the two reads
    recording a deal through the API begins with, in one round trip instead of two."""
    if not 0 < session_pk <= _BIGGEST_ID:
        return DeviceToken.for_key(key), None
    sessions, members, tokens = _quoted(Session), _quoted(Membership), _quoted(DeviceToken)
    user_id = connection.ops.quote_name(DeviceToken._meta.get_field("user").column)
    # Every token's row, with the session's columns when its user belongs to the group
    # (NULL otherwise: then the subqueries of the deal table give NULL too).
    sql = (
        f"SELECT {token_columns()}, {_session_columns()}"
        f" FROM {token_join()} LEFT JOIN ({_session_join()})"
        f" ON {members}.user_id = {tokens}.{user_id} AND {sessions}.id = %s"
        f" WHERE {by_key()}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [session_pk, key_hash(key)])
        row = cursor.fetchone()
    if row is None:
        return None, None
    token, rest = token_from(row)
    return token, None if rest[0] is None else _session_from(rest)


def _session_columns() -> str:
    """The SQL selecting a session's columns, its group's, the reader's role in the group
    and ``with_deal_table``'s columns (``_session_from`` reads them)."""
    role = connection.ops.quote_name("role")
    table = ", ".join(f"({sql})" for _, sql in _table_sql())
    columns = f"{hot_sql.columns(Session).sql}, {hot_sql.columns(Group).sql}"
    return f"{columns}, {_quoted(Membership)}.{role}, {table}"


def _session_join() -> str:
    """Sessions joined to their groups and the groups' memberships (the member to be
    chosen by the condition that follows)."""
    sessions, groups, members = _quoted(Session), _quoted(Group), _quoted(Membership)
    return (
        f"{sessions} INNER JOIN {groups} ON {groups}.id = {sessions}.group_id"
        f" INNER JOIN {members} ON {members}.group_id = {sessions}.group_id"
    )


def _session_from(row: Sequence[Any]) -> Session:
    """The session from a row of ``_session_columns()``, as ``session_for_deal`` gives it."""
    session_columns, group_columns = hot_sql.columns(Session), hot_sql.columns(Group)
    session = session_columns.instance(row[: session_columns.width])
    rest = row[session_columns.width :]
    session.group = group_columns.instance(rest[: group_columns.width])
    role, *table = rest[group_columns.width :]
    session.__dict__["viewer_role"] = role
    for name, value in zip(_TABLE_COLUMNS, table, strict=True):
        session.__dict__[name] = value
    return session


def deal_table(session: Session) -> DealTable:
    """The session's seats and its group's pair stakes: from ``with_deal_table``'s columns
    when the session was read with them (once: a stake may change between two deals
    recorded on the same object), else in one plain query."""
    if "deal_table_seats" in session.__dict__:
        seat_rows = json.loads(session.__dict__.pop("deal_table_seats") or "[]")
        stake_rows = json.loads(session.__dict__.pop("deal_table_stakes") or "[]")
        last_row = json.loads(session.__dict__.pop("deal_table_last", None) or "null")
    else:
        seat_rows, stake_rows, last_row = _read_table(session)
    seated = {name: int(player) for _, name, player in sorted(seat_rows)}
    seats = {name: int(seat) for seat, name, _ in sorted(seat_rows)}
    pair_stakes = sorted((int(a), int(b), Decimal(m)) for a, b, m in stake_rows)
    last = None
    if last_row is not None:
        number, dealer = last_row
        last = (int(number), None if dealer is None else int(dealer))
    return DealTable(seated, pair_stakes, seats, last)


def names_read_with(session: Session) -> list[str] | None:
    """The seated names in seat order, when ``with_deal_table`` read them with the session
    (left there for ``deal_table``); None otherwise."""
    if "deal_table_seats" not in session.__dict__:
        return None
    return [name for _, name, _ in sorted(json.loads(session.__dict__["deal_table_seats"]))]


def _read_table(session: Session) -> tuple[list[Any], list[Any], list[Any] | None]:
    """Seats, stakes and the last deal's (number, dealer) in one round trip; multipliers
    as text, which both databases give exactly (SQLite keeps a decimal as a number)."""
    deals = _quoted(Deal)
    query = (
        f"SELECT seat, name, player_id, NULL, NULL FROM {_quoted(SessionSeat)}"
        " WHERE session_id = %s UNION ALL SELECT NULL, NULL, player_a_id, player_b_id,"
        f" CAST(multiplier AS TEXT) FROM {_quoted(PairStake)} WHERE group_id = %s"
        f" UNION ALL SELECT NULL, 'last', number, dealer, NULL FROM {deals}"
        f" WHERE session_id = %s AND number = (SELECT MAX(number) FROM {deals}"
        " WHERE session_id = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [session.pk, session.group_id, session.pk, session.pk])
        rows = cursor.fetchall()
    seats = [(seat, name, player) for seat, name, player, _, _ in rows if seat is not None]
    stakes = [(a, b, m) for seat, name, a, b, m in rows if seat is None and name is None]
    last = next(([n, d] for seat, name, n, d, _ in rows if seat is None and name), None)
    return seats, stakes, last


_LEDGER_FIELD = LedgerEntry._meta.get_field("money")
_LEDGER_STEP = Decimal(1).scaleb(-_LEDGER_FIELD.decimal_places)
_LEDGER_LIMIT = Decimal(10) ** (_LEDGER_FIELD.max_digits - _LEDGER_FIELD.decimal_places)


def ledger_amount(pair: Mapping[str, Any], key: str) -> Decimal:
    """A pair's units or money as the ledger keeps it; ScoreError when the ledger could not
    keep it exactly, so that balances (sums of ledger rows) always equal the engine's
    results. Only odd stakes get here, such as 0.0125 a unit on a 0.5-unit deal."""
    amount = Decimal(pair.get(key, "0"))
    # The size first: quantizing a huge amount would overflow the decimal context.
    if abs(amount) < _LEDGER_LIMIT and amount == amount.quantize(_LEDGER_STEP):
        return amount
    a, b = pair["players"]
    raise ScoreError(
        _(
            "%(a)s and %(b)s: %(key)s %(amount)s cannot be kept exactly (the ledger keeps"
            " %(step)s steps below %(limit)s); choose a unit value or pair stake with fewer"
            " decimal places"
        )
        % {
            "a": a,
            "b": b,
            "key": key,
            "amount": pair[key],
            "step": _LEDGER_STEP,
            "limit": f"{_LEDGER_LIMIT:,}",
        },
        "stakes",
    )
