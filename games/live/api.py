"""The live table through the API: seat links, and the deal in progress entered seat by
seat (``games.live.table``); every answer about the deal is its STATE
(``games.live.state``) for whoever asked.

A caller is a member (token or session cookie, as elsewhere; another group's user gets
404) or a seat link's holder (``X-Seat-Token``; a link of another session is refused).
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth.models import User
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.authentication import DealTokenAuthentication
from games.api.schema import CONFLICT
from games.errors import error_body
from games.lib.public_url import public_url
from games.live import check, push, seat_links, table
from games.live import rows as live_rows
from games.live.rows import TableRows
from games.live.seat_auth import MemberOrSeat, SeatTokenAuthentication
from games.live.seat_links import Seat
from games.live.state import public_part, public_state, state_of
from games.live.table import Actor, LiveConflict
from games.models import Player, SeatLink, Session
from games.permissions import remember_role
from games.services.deal_reads import session_for_deal

KEY_SIZE = 100  # characters of an Idempotency-Key, as the deals' own


class LiveTokenAuthentication(DealTokenAuthentication):
    """A member's device token, read in one statement with the session of the URL (its
    ``pk``) and the member's role in its group, as for recording a deal."""

    def __init__(self) -> None:
        super().__init__(0)

    def authenticate(self, request: Request) -> Any:
        pk = (request.parser_context or {}).get("kwargs", {}).get("pk", 0)
        self.session_pk = int(pk)
        return super().authenticate(request)


LIVE_AUTH = (SeatTokenAuthentication, LiveTokenAuthentication, SessionAuthentication)


class EntryBody(serializers.Serializer[Any]):
    entry = serializers.JSONField(
        allow_null=True, help_text="the seat's hand: a player object of the deal format"
    )


# What a write of the deal in progress answers: its STATE, or 409 when the deal's state
# does not allow it (games.live.table.LiveConflict).
WRITTEN = {200: OpenApiTypes.OBJECT, 409: CONFLICT}


def _live_view(methods: list[str]) -> Any:
    """``api_view`` for the live table: members or seat holders."""

    def wrap(view: Any) -> Any:
        handler = view

        @functools.wraps(handler)
        def settled(request: Request, *args: Any, **kwargs: Any) -> Any:
            try:
                return handler(request, *args, **kwargs)
            finally:  # a phone's presence no write took (games.live.seat_links)
                seat_links.settle(_seat_of(request))

        view = permission_classes([MemberOrSeat])(settled)
        view = authentication_classes(list(LIVE_AUTH))(view)
        return api_view(methods)(view)

    return wrap


def _seat_of(request: Request) -> Seat | None:
    return request.auth if isinstance(request.auth, Seat) else None


def _session(request: Request, pk: int) -> tuple[Session, Actor]:
    """The session and who asks: 404 for another group's user; a seat link of another
    session is refused."""
    seat = _seat_of(request)
    if seat is not None:
        if seat.session.pk != pk:
            raise PermissionDenied("this seat link is for another session")
        return seat.session, Actor(seat=seat)
    user = request.user
    assert isinstance(user, User)
    # The session with its group and the user's role: read with the token, or alone.
    found = request.successful_authenticator
    if isinstance(found, LiveTokenAuthentication) and found.session_pk == pk:
        session = found.session
    else:
        session = session_for_deal(user, pk)
    if session is None:
        raise Http404("No Session matches the given query.")
    remember_role(session.group, user, session.__dict__["viewer_role"])
    return session, Actor(user=user)


def _member(actor: Actor) -> User:
    if actor.user is None:
        raise PermissionDenied("only a member of the group may do this")
    return actor.user


def _viewer(session: Session, actor: Actor, rows: TableRows | None) -> int | None:
    if actor.seat is not None:
        # Another phone holding the seat's link (a member shown every link) sees what
        # everyone sees, never the seat's draft.
        return actor.seat.player_id if actor.seat.own else None
    if rows is not None and rows.viewer is not None:
        return rows.viewer
    found = Player.objects.filter(group_id=session.group_id, user=actor.user).first()
    return found.pk if found is not None else None


def _state(session: Session, actor: Actor, code: int = status.HTTP_200_OK) -> Response:
    return Response(_read(session, actor), status=code)


def _read(session: Session, actor: Actor, rows: TableRows | None = None) -> dict[str, Any]:
    """The viewer's STATE: from the rows a write left (``games.live.rows.kept``), or read."""
    if rows is None:
        user_id = None if actor.user is None else int(actor.user.pk)
        rows = live_rows.read(session, user_id=user_id)
    state = state_of(session, rows, _viewer(session, actor, rows))
    if actor.seat is not None and not actor.seat.own:
        state["elsewhere"] = _(
            "%(name)s's seat is open on another phone: the host can free it for this one"
        ) % {"name": actor.seat.name}
    return state


def _changing(session: Session, actor: Actor, change: Any) -> tuple[Any, dict[str, Any]]:
    """Run ``change`` (a write of the deal in progress) and read the STATE to answer; the
    followers are told with its public part (read once for both: games.live.push). A
    refused write still tells them what it changed (a refused submit keeps its draft)."""
    with push.collected_live() as changed, live_rows.kept() as kept:
        try:
            outcome = change()
        except BaseException:
            if changed:
                push.announce_state(session.pk, public_state(session))
            raise
    # The rows the write read under its lock and changed: its STATE needs no new read.
    state = _read(session, actor, kept[-1] if kept else None)
    if changed:
        push.announce_state(session.pk, public_part(state))
    return outcome, state


def _conflict(refused: LiveConflict) -> Response:
    body = {**error_body(refused.message, refused.field), "detail": refused.message}
    return Response({**body, "code": refused.code}, status=status.HTTP_409_CONFLICT)


def _link_body(request: Request, link: SeatLink, seats: dict[int, tuple[int, str]]) -> Any:
    token = seat_links.token_for(link)
    seat, name = seats.get(link.player_id, (None, ""))
    return {
        "id": link.pk,
        "seat": seat,
        "player": name,
        "url": public_url(request, reverse("web:seat", args=[token])),
        "token": token,
        "revoked": link.revoked_at is not None,
    }


def _seats(session: Session) -> dict[int, tuple[int, str]]:
    rows = session.seats.values_list("player_id", "seat", "name")
    return {player: (seat, name) for player, seat, name in rows}


@extend_schema(
    responses={200: {"type": "array", "items": {"type": "object"}}},
    operation_id="v1_sessions_seat_links_list",
)
@_live_view(["GET"])
def seat_link_list(request: Request, pk: int) -> Response:
    """Members: each seat's working link (``url``, ``token``), in seat order."""
    session, actor = _session(request, pk)
    _member(actor)
    seats = _seats(session)
    return Response([_link_body(request, link, seats) for link in seat_links.make_links(session)])


@extend_schema(request=None, responses=OpenApiTypes.OBJECT)
@_live_view(["POST"])
def seat_link_revoke(request: Request, pk: int, link_pk: int) -> Response:
    """Owners: the link stops working; the answer is the seat's new link."""
    session, actor = _session(request, pk)
    user = _member(actor)
    link = get_object_or_404(
        SeatLink.objects.select_related("session__group"), pk=link_pk, session=session
    )
    new = seat_links.revoke_link(link, by=user)
    return Response(_link_body(request, new, _seats(session)))


@extend_schema(methods=["GET"], responses=OpenApiTypes.OBJECT, operation_id="v1_sessions_live_read")
@extend_schema(
    methods=["POST"],
    request=None,
    responses={200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT, 409: CONFLICT},
    operation_id="v1_sessions_live_open",
)
@_live_view(["GET", "POST"])
def live_detail(request: Request, pk: int) -> Response:
    """GET: STATE. POST: open a deal in progress (201), or the open one's STATE (200)."""
    session, actor = _session(request, pk)
    if request.method == "POST":
        try:
            (_opened, created), state = _changing(
                session, actor, lambda: table.open_live(session, actor)
            )
        except LiveConflict as refused:
            return _conflict(refused)
        return Response(state, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
    return _state(session, actor)


def _write(request: Request, pk: int, action: Any, *args: Any, entry: bool = False) -> Response:
    """Run a write once the session is found (the body is read after: another group's
    user gets 404 whatever they send)."""
    session, actor = _session(request, pk)
    if entry:
        args = (*args, _entry(request))
    try:
        _done, state = _changing(session, actor, lambda: action(session, *args, actor))
    except LiveConflict as refused:
        return _conflict(refused)
    return Response(state)


def _entry(request: Request) -> Any:
    serializer = EntryBody(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data["entry"]


@extend_schema(request=EntryBody, responses=WRITTEN)
@_live_view(["PUT"])
def live_seat(request: Request, pk: int, seat: int) -> Response:
    """Save the seat's draft (a seat holder: their own seat; a member: any seat)."""
    return _write(request, pk, table.save_draft, seat, entry=True)


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="a submit sent again with the same key answers the STATE and changes nothing",
)


@extend_schema(request=EntryBody, responses=WRITTEN, parameters=[IDEMPOTENCY_KEY])
@_live_view(["POST"])
def live_submit(request: Request, pk: int, seat: int) -> Response:
    """Submit the seat's hand; the last seat's submit records the deal (STATE.live.deal).
    A phone that lost the answer sends it again with the same ``Idempotency-Key``."""
    key = request.headers.get("Idempotency-Key", "")
    if len(key) > KEY_SIZE:
        raise ValidationError({"Idempotency-Key": f"at most {KEY_SIZE} characters"})

    def submit(session: Session, seat: int, entry: Any, actor: Actor) -> Any:
        return table.submit(session, seat, entry, actor, key=key)

    return _write(request, pk, submit, seat, entry=True)


@extend_schema(request=EntryBody, responses=check.SEAT_CHECK)
@_live_view(["POST"])
def live_check(request: Request, pk: int, seat: int) -> Response:
    """The seat's entry as typed, checked for that seat alone: each row's hand, progress or
    error, the foul three complete rows make, a natural or a surrender declared. Reads no
    other seat and writes nothing (who may ask: as for a draft)."""
    session, actor = _session(request, pk)
    return Response(check.check_entry(session, seat, _entry(request), actor))


@extend_schema(request=None, responses=WRITTEN)
@_live_view(["POST"])
def live_withdraw(request: Request, pk: int, seat: int) -> Response:
    """Take the seat's submitted hand back to a draft."""
    return _write(request, pk, table.withdraw, seat)


def _as_member(action: Any) -> Any:
    def run(session: Session, *args: Any) -> Any:
        *rest, actor = args
        return action(session, *rest, _member(actor))

    return run


@extend_schema(request=None, responses=WRITTEN)
@_live_view(["POST"])
def live_take_over(request: Request, pk: int, seat: int) -> Response:
    """Members: take the seat over (its link may no longer write this deal); the answer's
    ``taken`` holds the seat's entry so far, for the host to go on with."""
    answer = _write(request, pk, _as_member(table.take_over), seat)
    if answer.status_code == status.HTTP_200_OK:
        session, _actor = _session(request, pk)
        answer.data["taken"] = {"seat": seat, "entry": table.taken_entry(session, seat)}
    return answer


@extend_schema(request=None, responses=WRITTEN)
@_live_view(["POST"])
def live_release(request: Request, pk: int, seat: int) -> Response:
    """Members: free the seat from the phone that holds it; the next phone to open its
    link holds it."""
    return _write(request, pk, _as_member(table.release), seat)


@extend_schema(request=None, responses=WRITTEN)
@_live_view(["POST"])
def live_nudge(request: Request, pk: int, seat: int) -> Response:
    """Members: ask the seat's phone to finish its hand (it shows the request at once)."""
    return _write(request, pk, _as_member(table.nudge), seat)


@extend_schema(request=None, responses=WRITTEN)
@_live_view(["POST"])
def live_cancel(request: Request, pk: int) -> Response:
    """Members: cancel the deal in progress."""
    return _write(request, pk, _as_member(table.cancel))
