"""The live table's rows, read in one statement: the session's status and seats, its
latest deal in progress with each seat's entry, each seat's phone, and the counts of its
deals; what a write of the deal in progress needs besides, when it asks (an
Idempotency-Key's earlier submit, who records the deal, the member's own player, the deal
table a deal is recorded with).

A write reads them once the session row is locked (``lock``): every write of a deal in
progress locks the session first (``games.live.table``, ``games.live.close``), so the deal
and its entries need no lock of their own, and the rows read stay true until the write
commits. The STATE (``games.live.state``) is built from the same rows, the write's own
changes applied to them in memory, so answering a write reads nothing more.

The SQL is written from the models' column lists (``games.lib.hot_sql``): compiling a
query of this shape with the ORM costs more than running it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection

from games.lib import hot_sql
from games.models import (
    Deal,
    LiveDeal,
    LiveEntry,
    Membership,
    Player,
    SeatLink,
    Session,
    SessionSeat,
)
from games.services.deal_reads import deal_table_sql, keep_deal_table


@dataclass
class TableRows:
    """One session's live table as read (and as a write then changed it)."""

    status: str  # the session's
    deals: int  # active deals
    last_deal: int | None  # the last active deal's number
    # Grows with every deal recorded, edited, voided or restored: the totals a recorded
    # deal's STATE shows are those of one mark (``games.live.state``'s cache).
    mark: int
    live: LiveDeal | None  # the latest deal in progress, open or not
    seated: list[tuple[int, int, str, int | None]]  # (player, seat, name, user), seat order
    entries: dict[int, LiveEntry] = field(default_factory=dict)  # the latest deal's, by player
    phones: dict[int, tuple[datetime | None, datetime | None]] = field(default_factory=dict)
    replayed: int | None = None  # the deal in progress the Idempotency-Key went to
    recorder: tuple[int, str] | None = None  # (user, role): who a recorded deal is by
    viewer: int | None = None  # the member's own player

    def names(self) -> dict[int, str]:
        """Player id -> seat name, in seat order."""
        return {player: name for player, _seat, name, _user in self.seated}


def read(
    session: Session,
    *,
    lock: bool = False,
    key: str = "",
    seat: int | None = None,
    user_id: int | None = None,
    for_deal: bool = False,
    heard: tuple[int, datetime] | None = None,
) -> TableRows | None:
    """The rows of ``session``'s live table (None when the session is gone).

    ``lock``: the session row is locked until the transaction ends. ``key`` and ``seat``:
    the deal in progress whose entry for that seat was last submitted with that key.
    ``user_id``: that member's own player in the group. ``for_deal``: the deal table a
    deal would be recorded with, kept on ``session`` (``deal_reads.deal_table``), and who
    it would be by. ``heard``: (seat link, moment) a phone was heard from, written first
    (with the lock, in the same statement, on PostgreSQL)."""
    q = hot_sql.quoted
    s, ss, ld, le = q(Session), q(SessionSeat), q(LiveDeal), q(LiveEntry)
    links, deals, members, players = q(SeatLink), q(Deal), q(Membership), q(Player)
    extra: list[str] = []
    params: list[Any] = [session.pk]
    if key and seat is not None:
        extra.append(
            f"(SELECT MAX(e.live_deal_id) FROM {le} e INNER JOIN {ld} l ON l.id = e.live_deal_id"
            f" WHERE l.session_id = {s}.id AND e.submit_key = %s AND e.player_id ="
            f" (SELECT x.player_id FROM {ss} x WHERE x.session_id = {s}.id AND x.seat = %s))"
        )
        params += [key, seat]
    else:
        extra.append("NULL")
    if user_id is not None:
        extra.append(
            f"(SELECT p.id FROM {players} p WHERE p.group_id = {s}.group_id AND p.user_id = %s"
            " ORDER BY p.name, p.id LIMIT 1)"
        )
        params.append(user_id)
    else:
        extra.append("NULL")
    if for_deal:
        # Whoever opened the deal in progress while still a member, else the first owner.
        owner = Membership.Role.OWNER
        extra += [
            f"(SELECT m.role FROM {members} m WHERE m.group_id = {s}.group_id"
            f" AND m.user_id = {ld}.opened_by_id)",
            f"(SELECT m.user_id FROM {members} m WHERE m.group_id = {s}.group_id"
            f" AND m.role = '{owner}' ORDER BY m.id LIMIT 1)",
        ]
        extra += [f"({sql})" for _name, sql in deal_table_sql()]
    live_columns, entry_columns = hot_sql.columns(LiveDeal), hot_sql.columns(LiveEntry)
    active = f"'{Deal.Status.ACTIVE}'"
    sql = (
        f"SELECT {s}.status, marks.active, marks.last, marks.mark, {ss}.player_id, {ss}.seat,"
        f" {ss}.name, {players}.user_id, {links}.seen_at, {links}.gone_at,"
        f" {live_columns.sql}, {entry_columns.sql}, {', '.join(extra)}"
        f" FROM {s} INNER JOIN {ss} ON {ss}.session_id = {s}.id"
        f" INNER JOIN {players} ON {players}.id = {ss}.player_id"
        f" LEFT JOIN (SELECT d.session_id,"
        f" SUM(CASE WHEN d.status = {active} THEN 1 ELSE 0 END) AS active,"
        f" MAX(CASE WHEN d.status = {active} THEN d.number END) AS last,"
        f" COUNT(*) + SUM(d.version) AS mark FROM {deals} d WHERE d.session_id = %s"
        f" GROUP BY d.session_id) marks ON marks.session_id = {s}.id"
        f" LEFT JOIN {ld} ON {ld}.id = (SELECT MAX(l.id) FROM {ld} l WHERE l.session_id = {s}.id)"
        f" LEFT JOIN {le} ON {le}.live_deal_id = {ld}.id AND {le}.player_id = {ss}.player_id"
        f" LEFT JOIN {links} ON {links}.session_id = {s}.id"
        f" AND {links}.player_id = {ss}.player_id AND {links}.revoked_at IS NULL"
        f" WHERE {s}.id = %s ORDER BY {ss}.seat"
    )
    # The placeholders in the order they appear: the extra columns', the marks', the id.
    ordered = [*params[1:], session.pk, session.pk]
    with connection.cursor() as cursor:
        presence = f"UPDATE {links} SET seen_at = %s, gone_at = NULL WHERE id = %s"
        moment = None if heard is None else connection.ops.adapt_datetimefield_value(heard[1])
        if lock and connection.features.has_select_for_update:
            # The lock first, on its own: a statement that waited for it would still read
            # the other rows as they were when it began (PostgreSQL), before the write it
            # waited for. (SQLite's write transactions begin by taking the database's lock,
            # so the one read after it is fresh.) A phone's presence goes with it.
            locking = f"SELECT 1 FROM {s} WHERE {s}.id = %s FOR UPDATE"
            if heard is not None and connection.vendor == "postgresql":
                cursor.execute(
                    f"WITH heard AS ({presence}) {locking}", [moment, heard[0], session.pk]
                )
                heard = None
            else:
                cursor.execute(locking, [session.pk])
        if heard is not None:
            cursor.execute(presence, [moment, heard[0]])
        cursor.execute(sql, ordered)
        fetched = cursor.fetchall()
    if not fetched:
        return None
    return _rows(session, fetched, for_deal=for_deal)


def _rows(session: Session, fetched: list[Any], *, for_deal: bool) -> TableRows:
    live_columns, entry_columns = hot_sql.columns(LiveDeal), hot_sql.columns(LiveEntry)
    first = fetched[0]
    status, active, last, mark = first[:4]
    start = 10
    live = None
    if first[start] is not None:
        live = live_columns.instance(first[start : start + live_columns.width])
    start += live_columns.width
    rows = TableRows(
        status=status,
        deals=int(active or 0),
        last_deal=None if last is None else int(last),
        mark=int(mark or 0),
        live=live,
        seated=[],
    )
    for row in fetched:
        player, seat, name, user, seen_at, gone_at = row[4:10]
        rows.seated.append((int(player), int(seat), name, user))
        if seen_at is not None or gone_at is not None:
            rows.phones[int(player)] = _moments(seen_at, gone_at)
        values = row[start : start + entry_columns.width]
        if values[0] is not None:
            rows.entries[int(player)] = entry_columns.instance(values)
    extra = first[start + entry_columns.width :]
    rows.replayed, rows.viewer = extra[0], extra[1]
    if for_deal:
        opener_role, owner, *table = extra[2:]
        live_opener = None if live is None else live.opened_by_id
        if opener_role is not None and live_opener is not None:
            rows.recorder = (int(live_opener), str(opener_role))
        elif owner is not None:
            rows.recorder = (int(owner), str(Membership.Role.OWNER))
        keep_deal_table(session, table)
    session.status = status
    session.__dict__["_seat_names"] = rows.names()
    return rows


def _moments(seen: Any, gone: Any) -> tuple[datetime | None, datetime | None]:
    """A link's ``seen_at`` and ``gone_at`` as the ORM gives them (SQLite keeps text)."""
    columns = hot_sql.columns(SeatLink)
    values: list[Any] = [None] * columns.width
    values[columns.attnames.index("seen_at")] = seen
    values[columns.attnames.index("gone_at")] = gone
    link = columns.instance(values)
    return link.seen_at, link.gone_at


# While a live API view writes: the rows each write left (``kept``), for the answer.
_keeping: ContextVar[list[TableRows] | None] = ContextVar("live_rows", default=None)


@contextmanager
def kept() -> Iterator[list[TableRows]]:
    """Within: the rows a write of the deal in progress read and changed are kept here,
    so that the caller builds its answer from them rather than reading them again."""
    found: list[TableRows] = []
    token = _keeping.set(found)
    try:
        yield found
    finally:
        _keeping.reset(token)


def keep(rows: TableRows) -> None:
    """Offer the rows of a write that is about to commit to whoever collects them."""
    found = _keeping.get()
    if found is not None:
        found.append(rows)
