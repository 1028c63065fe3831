"""Seat links: a link per seat of a session, so a friend without an account enters the
hands of that seat from their own phone (``games.live.table``).

The token is ``{"s": session, "k": link, "n": nonce}`` signed with the site's key
(``django.core.signing``, salted for seat links): an altered token fails its signature
before any lookup. It carries no time, so a link reads the same each time it is shown (a
page reloaded, a QR code printed); tokens made before that carried the signing time and are
still read. Whether it still holds (the link not revoked, its session open) is read
from the rows each time. A session gets one link per seat when it starts; a session
started before links existed gets them the first time they are asked for.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.lib import hot_sql
from games.live import push
from games.models import Group, SeatLink, Session, SessionSeat
from games.permissions import require_owner

SALT = "games.seat-link"


class SeatLinkRefused(ServiceError):
    """The seat link cannot be used: altered, revoked, or its session closed or gone."""


@dataclass(frozen=True)
class Seat:
    """Who a valid seat link speaks for: one seat of one open session."""

    link: SeatLink
    session: Session
    seat: int
    player_id: int
    name: str
    # The request comes from the phone that holds the seat (``claim``); any other holder
    # of the link (a member who was shown every seat's link) may not read or write it.
    own: bool = True
    # When the phone was heard from, while that is still to be written: a write of the
    # deal in progress writes it with its lock (``games.live.table``), else ``settle``.
    owed: list[datetime] = field(default_factory=list, compare=False)


def token_for(link: SeatLink) -> str:
    """The token the seat link carries (in its URL, the X-Seat-Token header, ``?seat=``)."""
    payload = {"s": link.session_id, "k": link.pk, "n": link.nonce}
    return signing.Signer(salt=SALT).sign_object(payload)


def _payload(token: str) -> Any:
    """The signed payload; BadSignature or ValueError when the token is not one of ours.

    A token has one separator, or two when it was made with its signing time
    (``signing.dumps``) before links read the same each time.
    """
    if token.count(":") == 2:
        return signing.loads(token, salt=SALT)
    return signing.Signer(salt=SALT).unsign_object(token)


def _new_link(session: Session, player_id: int) -> SeatLink:
    return SeatLink.objects.create(
        session=session, player_id=player_id, nonce=secrets.token_urlsafe(24)
    )


def make_links(session: Session) -> list[SeatLink]:
    """Each seat's working link, made for the seats that have none, in seat order.

    Two requests making the same session's links at once are kept apart by the unique
    constraint on a seat's working link: the loser reads the winner's.
    """
    seats = list(session.seats.order_by("seat").values_list("player_id", flat=True))
    links = {link.player_id: link for link in _active(session)}
    for player_id in seats:
        if player_id in links:
            continue
        try:
            with transaction.atomic():
                links[player_id] = _new_link(session, player_id)
        except IntegrityError:
            links[player_id] = _active(session).get(player_id=player_id)
    return [links[player_id] for player_id in seats]


def _active(session: Session) -> Any:
    return SeatLink.objects.filter(session=session, revoked_at=None)


def revoke_link(link: SeatLink, by: User) -> SeatLink:
    """Owners revoke a seat link (a phone that should no longer write) and get the
    seat's new link, which they share instead. Revoking a revoked link revokes nothing
    and answers the seat's working link."""
    session = link.session
    with transaction.atomic():
        require_owner(by, session.group)
        locked = SeatLink.objects.select_for_update().get(pk=link.pk)
        if locked.revoked_at is None:
            locked.revoked_at = timezone.now()
            locked.save(update_fields=["revoked_at"])
            push.revoked(session.pk, locked.pk)  # its open sockets are closed
            return _new_link(session, locked.player_id)
    current = _active(session).filter(player_id=locked.player_id).first()
    if current is not None:
        return current
    fresh = [link for link in make_links(session) if link.player_id == locked.player_id]
    if not fresh:
        raise ServiceError(_("this player no longer has a seat at the session"))
    return fresh[0]


def open_seat(token: str, session_id: int | None = None) -> Seat:
    """The seat a token speaks for; SeatLinkRefused, saying why, when it cannot be used.

    ``session_id``: the session the request is about; a token of another session is
    refused as not valid here.
    """
    refused = SeatLinkRefused(
        _("This seat link is not valid: it may have been copied incompletely."), "token"
    )
    try:
        payload = _payload(str(token).strip())
    except (signing.BadSignature, ValueError):
        raise refused from None
    if not isinstance(payload, dict) or not all(
        isinstance(payload.get(key), want) for key, want in (("s", int), ("k", int), ("n", str))
    ):
        raise refused
    if session_id is not None and payload["s"] != session_id:
        raise refused
    row = _link_row(payload["k"], payload["s"], payload["n"])
    if row is None:
        raise refused
    link, number, name = row
    if link.revoked_at is not None:
        raise SeatLinkRefused(
            _("This seat link was revoked: ask the host for the new one."), "token"
        )
    if not link.session.is_open:
        raise SeatLinkRefused(_("This session is closed: its seat links no longer work."), "token")
    if number is None:
        raise refused
    return Seat(link, link.session, number, link.player_id, name)


def _link_row(pk: int, session_id: int, nonce: str) -> tuple[SeatLink, int | None, str] | None:
    """The link with its session and group, and its player's seat number and name in the
    session (None and "" when the player has no seat): one statement, without the ORM,
    since every request of a seat's phone makes it (``games.lib.hot_sql``)."""
    q = hot_sql.quoted
    links, sessions, groups, seats = q(SeatLink), q(Session), q(Group), q(SessionSeat)
    link_columns, session_columns = hot_sql.columns(SeatLink), hot_sql.columns(Session)
    group_columns = hot_sql.columns(Group)
    sql = (
        f"SELECT {link_columns.sql}, {session_columns.sql}, {group_columns.sql},"
        f" {seats}.seat, {seats}.name"
        f" FROM {links} INNER JOIN {sessions} ON {sessions}.id = {links}.session_id"
        f" INNER JOIN {groups} ON {groups}.id = {sessions}.group_id"
        f" LEFT JOIN {seats} ON {seats}.session_id = {links}.session_id"
        f" AND {seats}.player_id = {links}.player_id"
        f" WHERE {links}.id = %s AND {links}.session_id = %s AND {links}.nonce = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk, session_id, nonce])
        found = cursor.fetchone()
    if found is None:
        return None
    link = link_columns.instance(found[: link_columns.width])
    rest = found[link_columns.width :]
    link.session = session_columns.instance(rest[: session_columns.width])
    rest = rest[session_columns.width :]
    link.session.group = group_columns.instance(rest[: group_columns.width])
    number, name = rest[group_columns.width :]
    return link, number, name or ""


def _digest(device: str) -> str:
    return hashlib.sha256(device.encode()).hexdigest()


def claim(seat: Seat, device: str) -> Seat:
    """The seat as the phone ``device`` (its own random secret, ``X-Seat-Device``) may use
    it: the first phone to come with a secret holds the seat until the host frees it
    (``release``); a request with no secret holds it only while no phone does."""
    link = seat.link
    if not device:
        return replace(seat, own=not link.device)
    digest = _digest(device[:200])
    if not link.device:
        SeatLink.objects.filter(pk=link.pk, device="").update(device=digest)
        link.device = SeatLink.objects.filter(pk=link.pk).values_list("device", flat=True)[0]
    return replace(seat, own=link.device == digest)


def release(session: Session, player_id: int) -> None:
    """The seat is freed: the next phone to open its link holds it."""
    SeatLink.objects.filter(session=session, player_id=player_id, revoked_at=None).update(device="")


# How often a phone's presence is written (a request or a ping within it writes nothing).
HEARD_EVERY = timedelta(seconds=5)


def heard(seat: Seat, *, later: bool = False) -> None:
    """The seat's own phone was heard from (a request, its socket opened, a ping).

    ``later``: the presence is only noted on ``seat`` (``owed``), for a write about to
    lock the session to write with its lock, in one statement (``take_owed``), or for
    ``settle`` once the request is answered."""
    link = seat.link
    now = timezone.now()
    fresh = link.seen_at is not None and now - link.seen_at < HEARD_EVERY
    if not seat.own or (fresh and link.gone_at is None):
        return
    if later:
        seat.owed[:] = [now]
        return
    SeatLink.objects.filter(pk=link.pk).update(seen_at=now, gone_at=None)
    written(seat, now)


def take_owed(seat: Seat | None) -> datetime | None:
    """The moment the seat's phone was heard from, when it is still to be written: the
    caller writes it (``seen_at``, ``gone_at`` cleared) in its transaction, calls
    ``written`` and clears ``owed`` once that commits."""
    if seat is None or not seat.owed:
        return None
    return seat.owed[0]


def settle(seat: Seat | None) -> None:
    """Write the presence still owed once the request is answered (no write that
    committed took it)."""
    now = take_owed(seat)
    if seat is not None and now is not None:
        seat.owed.clear()
        SeatLink.objects.filter(pk=seat.link.pk).update(seen_at=now, gone_at=None)
        written(seat, now)


def written(seat: Seat, now: datetime) -> None:
    """Once the phone's presence is written: the link as this request holds it, and an
    announcement when the phone is back."""
    link = seat.link
    back = (
        link.seen_at is None
        or link.gone_at is not None
        or now - link.seen_at > SeatLink.QUIET_AFTER
    )
    link.seen_at, link.gone_at = now, None
    if back:  # the host's page shows the phone online again
        push.announce(link.session_id, "live")


def gone(link_id: int) -> None:
    """The seat's own phone closed its socket."""
    now = timezone.now()
    found = SeatLink.objects.filter(pk=link_id).values_list("session_id", flat=True).first()
    if found is None:
        return
    SeatLink.objects.filter(pk=link_id).update(seen_at=now, gone_at=now)
    push.announce(found, "live")
