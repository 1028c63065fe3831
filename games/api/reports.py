"""Reports: a session's summary and settlement, a player's ledger against each opponent
(JSON or CSV), a group's standings, and the export and import of a group's history (an
upload imported in the background, its status read at ``imports/{id}/``).

Read-only except the import. Like every other view, they see only the user's groups:
another group's session or group id answers 404. Amounts are decimal strings.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, renderer_classes
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from games import reports, services
from games.api.groups import current_user, member_groups, validated
from games.api.limits import OWN_BODY_LIMIT
from games.api.schema import refusal
from games.engine.games import GAMES
from games.errors import ServiceError, error_body
from games.models import Deal, Group, ImportJob, Session
from games.services import imports, transfer
from games.services.names import file_part


class CSVRenderer(BaseRenderer):
    """``text/csv``, chosen with ``?format=csv`` or ``Accept: text/csv``."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        if not isinstance(data, str):  # an error: still readable, as JSON text
            data = json.dumps(data)
        return data.encode(self.charset)


class DateRange(serializers.Serializer[Any]):
    date_from = serializers.DateField(required=False)
    date_to = serializers.DateField(required=False)


class LedgerQuery(DateRange):
    player = serializers.IntegerField()
    session = serializers.IntegerField(required=False)


DATE_PARAMETERS = [
    OpenApiParameter("date_from", OpenApiTypes.DATE, description="sessions on or after"),
    OpenApiParameter("date_to", OpenApiTypes.DATE, description="sessions on or before"),
]


def user_session(request: Request, pk: int) -> Session:
    sessions = Session.objects.filter(group__in=member_groups(request.user))
    return get_object_or_404(sessions.select_related("group"), pk=pk)


def user_group(request: Request, pk: int) -> Group:
    return get_object_or_404(member_groups(request.user), pk=pk)


RUNNING_LIMIT = 200  # running totals listed unless ?running_limit= says otherwise
RUNNING_MOST = 1000
RUNNING_OFFSET_MOST = 2**31 - 1  # past any session's deals; larger numbers overflow SQL


class SummaryQuery(serializers.Serializer[Any]):
    running_offset = serializers.IntegerField(
        min_value=0, max_value=RUNNING_OFFSET_MOST, required=False
    )
    running_limit = serializers.IntegerField(
        min_value=1, max_value=RUNNING_MOST, default=RUNNING_LIMIT
    )


@extend_schema(
    parameters=[
        OpenApiParameter(
            "running_limit",
            {"type": "integer", "minimum": 1, "maximum": RUNNING_MOST},
            description=f"running totals listed (1 to {RUNNING_MOST}; {RUNNING_LIMIT})",
        ),
        OpenApiParameter(
            "running_offset",
            {"type": "integer", "minimum": 0, "maximum": RUNNING_OFFSET_MOST},
            description="the first running total listed, 0 for the first deal (default:"
            " the last running_limit)",
        ),
    ],
    responses=OpenApiTypes.OBJECT,
)
@api_view(["GET"])
def session_summary(request: Request, pk: int) -> Response:
    """Totals per player (units, money), the pair matrix, fouls, scoops, royalties and
    naturals per player, and everyone's running total after each deal, the last 200 unless
    asked otherwise (``running_count``, ``running_offset``, ``running_previous`` and
    ``running_next`` page through them); void deals listed."""
    query = validated(SummaryQuery, request.query_params)
    limit = query["running_limit"]
    window = (query.get("running_offset"), limit)
    summary = reports.session_summary(user_session(request, pk), window=window)
    start, count = summary["running_offset"], summary["running_count"]
    end = start + len(summary["running"])

    def page(offset: int) -> str:
        url = request.build_absolute_uri()
        url = replace_query_param(url, "running_limit", limit)
        return str(replace_query_param(url, "running_offset", offset))

    summary["running_previous"] = page(max(0, start - limit)) if start > 0 else None
    summary["running_next"] = page(end) if end < count else None
    return Response(reports.jsonable(summary))


@extend_schema(responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def session_settlement(request: Request, pk: int) -> Response:
    """Who pays whom: the fewest transfers that settle everyone's net, and pair by pair."""
    return Response(reports.jsonable(reports.settlement(user_session(request, pk))))


@extend_schema(
    parameters=[
        OpenApiParameter("player", OpenApiTypes.INT, required=True, description="player id"),
        OpenApiParameter("session", OpenApiTypes.INT, description="one session only"),
        *DATE_PARAMETERS,
        OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"]),
    ],
    responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): OpenApiTypes.STR},
)
@api_view(["GET"])
@renderer_classes([JSONRenderer, BrowsableAPIRenderer, CSVRenderer])
def group_ledger(request: Request, pk: int) -> Response | StreamingHttpResponse:
    """One player against each opponent, deal by deal, with running balances: over one
    session or a date range of sessions. ``?format=csv`` gives one row per deal per
    opponent. JSON and CSV are written as the rows are read (streamed)."""
    group = user_group(request, pk)
    query = validated(LedgerQuery, request.query_params)
    player = group.players.filter(pk=query["player"]).first()
    if player is None:
        raise ServiceError(f"player: {group.name} has no player {query['player']}", "player")
    session = None
    if "session" in query:
        session = group.sessions.filter(pk=query["session"]).first()
        if session is None:
            raise ServiceError(
                f"session: {group.name} has no session {query['session']}", "session"
            )
    options: dict[str, Any] = {
        "session": session,
        "date_from": query.get("date_from"),
        "date_to": query.get("date_to"),
    }
    renderer = request.accepted_renderer.format
    if renderer == CSVRenderer.format:
        filename = f"ledger-{group.pk}-{file_part(player.name)}.csv"
        pieces = reports.opponent_ledger_csv_stream(group, player, **options)
        response = StreamingHttpResponse(
            (piece.encode() for piece in pieces), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = content_disposition_header(True, filename)
        return response
    if renderer == JSONRenderer.format:
        # Written as it is read: a ledger of any length in little memory.
        pieces = reports.opponent_ledger_stream(group, player, **options)
        return StreamingHttpResponse(
            (piece.encode() for piece in pieces), content_type="application/json"
        )
    return Response(reports.jsonable(reports.opponent_ledger(group, player, **options)))


@extend_schema(parameters=DATE_PARAMETERS, responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def group_standings(request: Request, pk: int) -> Response:
    """Every player's totals across the group's sessions (or a date range of them), deals
    played and average units per deal."""
    group = user_group(request, pk)
    query = validated(DateRange, request.query_params)
    standings = reports.group_standings(group, query.get("date_from"), query.get("date_to"))
    return Response(reports.jsonable(standings))


class SeasonQuery(serializers.Serializer[Any]):
    """``from``, ``to`` (both included, either open) and ``game``: the season's nights."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "from": serializers.DateField(required=False),
            "to": serializers.DateField(required=False),
            "game": serializers.ChoiceField(choices=sorted(GAMES), required=False),
        }


SEASON_PARAMETERS = [
    OpenApiParameter("from", OpenApiTypes.DATE, description="nights on or after (YYYY-MM-DD)"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="nights on or before (YYYY-MM-DD)"),
    OpenApiParameter("game", OpenApiTypes.STR, enum=sorted(GAMES), description="one game only"),
]


class SeasonPlayer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="the player's name now")
    nights = serializers.IntegerField(help_text="nights seated")
    deals = serializers.IntegerField(help_text="active deals played")
    units = serializers.DecimalField(max_digits=20, decimal_places=4, coerce_to_string=True)
    money = serializers.DecimalField(max_digits=20, decimal_places=4, coerce_to_string=True)
    units_per_deal = serializers.CharField(allow_null=True)
    fouls = serializers.IntegerField()
    surrenders = serializers.IntegerField()
    scoops = serializers.IntegerField(help_text="pairs won on all three rows")
    scooped = serializers.IntegerField(help_text="pairs lost on all three rows")
    naturals = serializers.IntegerField()
    royalties = serializers.CharField(help_text="the sum of the player's royalties")
    royalty_rows = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="Big Two: deals the player went out")
    cards_left = serializers.IntegerField(help_text="Big Two: cards still held, in all")
    fantasy_entries = serializers.IntegerField(help_text="open-face: fantasy land earned")
    fantasy_stays = serializers.IntegerField(help_text="open-face: fantasy land kept")
    reviewed_deals = serializers.IntegerField()
    units_missed = serializers.CharField()
    missed_per_deal = serializers.CharField(
        allow_null=True, help_text="units missed per reviewed deal; null without any"
    )
    missed_trend = serializers.CharField(
        allow_null=True,
        help_text="how missed per deal moves from one night to the next (below 0: less)",
    )


class SeasonNight(serializers.Serializer[Any]):
    session = serializers.IntegerField()
    date = serializers.DateField()
    game = serializers.CharField()
    deals = serializers.IntegerField()
    players = serializers.DictField(
        child=serializers.DictField(),
        help_text="by player id: units, money, deals, missed, reviewed",
    )


class SeasonPair(serializers.Serializer[Any]):
    a = serializers.IntegerField(help_text="the lower player id")
    b = serializers.IntegerField()
    units = serializers.CharField(help_text="what a won from b")
    money = serializers.CharField(help_text="what a won from b")
    deals = serializers.IntegerField(help_text="deals they played together")


class SeasonAnswer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    currency = serializers.CharField()
    date_from = serializers.DateField(allow_null=True)
    date_to = serializers.DateField(allow_null=True)
    game = serializers.CharField(allow_null=True)
    games = serializers.ListField(child=serializers.CharField())
    deals = serializers.IntegerField()
    players = SeasonPlayer(many=True)
    nights = SeasonNight(many=True)
    head_to_head = SeasonPair(many=True)


@extend_schema(parameters=SEASON_PARAMETERS, responses=SeasonAnswer)
@api_view(["GET"])
def group_season(request: Request, pk: int) -> Response:
    """The group's season: every player across the nights between ``from`` and ``to``
    (both included, either open; of one ``game`` or all): nights, deals, units, money,
    units per deal, fouls, surrenders, scoops taken and given, naturals, royalties, Big
    Two's wins and cards left, open-face fantasy land, units missed per reviewed deal and
    its trend; each night's figures per player; and the head-to-head of every pair."""
    group = user_group(request, pk)
    query = validated(SeasonQuery, request.query_params)
    report = reports.season(group, query.get("from"), query.get("to"), game=query.get("game"))
    return Response(reports.jsonable(report))


@extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT})
@api_view(["GET"])
def group_export(request: Request, pk: int) -> StreamingHttpResponse:
    """The group's whole history as one JSON file, for ``import`` into an empty group;
    written as it is read, so a group of any size is exported in little memory."""
    group = user_group(request, pk)
    response = StreamingHttpResponse(
        (piece.encode() for piece in transfer.export_stream(group)),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="group-{group.pk}.json"'
    return response


class ImportUpload(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="a group export, as GET groups/{id}/export/ gives it")


# Room for the multipart framing around the file itself.
MULTIPART_SLACK = 64 * 1024


def _too_big(message: str) -> Response:
    return Response(error_body(message, "file"), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:g} MB"


@extend_schema(
    request={"multipart/form-data": ImportUpload, "application/json": OpenApiTypes.OBJECT},
    responses={
        202: OpenApiTypes.OBJECT,
        201: OpenApiTypes.OBJECT,
        413: refusal("The upload or the JSON body is over its size limit: `error` says which."),
    },
)
@api_view(["POST"])
def group_import(request: Request, pk: int) -> Response:
    """Owners only: rebuild an exported history into this group, which must be empty (no
    players, no sessions). Every value is checked and every deal re-scored; the first bad
    one refuses the file with its path, and nothing is stored.

    The export as an upload (multipart field ``file``, up to ``IMPORT_MAX_UPLOAD_MB``):
    202 and the import's status URL (``imports/{id}/``); it runs in the background. A small
    export as the JSON body: imported at once, 201 with what was stored."""
    group = user_group(request, pk)
    limit = settings.IMPORT_MAX_UPLOAD_SIZE
    too_big = f"an export of at most {_megabytes(limit)} is taken (IMPORT_MAX_UPLOAD_MB)"
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit + MULTIPART_SLACK:
        return _too_big(f"file: the request is {length:,} bytes; {too_big}")
    try:
        upload = request.FILES.get("file")
        data = request.data
    except RequestDataTooBig:
        return _too_big(
            f"file: a JSON body of at most {_megabytes(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}"
            ' is taken; upload a larger export as a file (multipart/form-data, field "file")'
        )
    if upload is not None:
        if (upload.size or 0) > limit:
            return _too_big(f"file: the file is {upload.size:,} bytes; {too_big}")
        job = imports.request_import(group, upload, current_user(request))
        body = import_status(request, job)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})
    if request.content_type.startswith(("multipart/form-data", "application/x-www-form")):
        raise ServiceError('file: upload the group export in the field "file"', "file")
    if not isinstance(data, dict):
        raise ServiceError("the body must be a JSON object: a group export")
    restored = services.import_group(data, group, current_user(request))
    return Response(
        {
            "group": restored.pk,
            "players": restored.players.count(),
            "sessions": restored.sessions.count(),
            "deals": Deal.objects.filter(session__group=restored).count(),
        },
        status=status.HTTP_201_CREATED,
    )


# Its own 413 says to upload the file (games.api.limits).
setattr(group_import, OWN_BODY_LIMIT, True)


def import_status(request: Request, job: ImportJob) -> dict[str, Any]:
    """An import's status body: ``pending``, ``done`` (with the counts stored) or
    ``failed`` (with ``error`` and ``field``, as a 400 would give them)."""
    job = imports.refresh(job)
    url = reverse("api:import-detail", kwargs={"pk": job.pk})
    return {
        "id": job.pk,
        "url": request.build_absolute_uri(url),
        "group": job.group_id,
        "status": job.status,
        "error": job.error or None,
        "field": job.field or None,
        "size": job.size,
        "players": job.players,
        "sessions": job.sessions,
        "deals": job.deals,
        "requested_at": job.requested_at,
        "started_at": job.started_at,
        "finished_at": job.finished_at,
    }


@extend_schema(responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def import_detail(request: Request, pk: int) -> Response:
    """An import's status: pending, done (with what it stored) or failed (why, and the
    path of the culprit in the file)."""
    visible = ImportJob.objects.filter(group__in=member_groups(request.user))
    return Response(import_status(request, get_object_or_404(visible, pk=pk)))
