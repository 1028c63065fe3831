"""PDF documents of a session: ask for one (202 and a status URL), poll it, download it.

``POST sessions/{id}/sheets/``, ``POST sessions/{id}/ledgers/?player=ID`` and ``POST
groups/{id}/season/pdf/?from=&to=`` queue the rendering; ``GET documents/{id}/`` reads its
status from the ``Document`` row; ``GET documents/{id}/download/`` serves the stored file.
Documents are as private as the rest of the group's data: another group's session,
group or document answers 404.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import FileResponse, QueryDict
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.groups import current_user, member_groups, validated
from games.api.reports import SEASON_PARAMETERS, SeasonQuery, user_group, user_session
from games.api.schema import CONFLICT
from games.errors import ServiceError, error_body
from games.models import Document, Player, Session
from games.sheets import documents


class PaperChoice(serializers.Serializer[Any]):
    paper = serializers.ChoiceField(choices=Document.Paper.choices, default=Document.Paper.A4)


class LedgerChoice(PaperChoice):
    player = serializers.IntegerField()


def _api_url(request: Request, name: str, pk: int) -> str:
    return request.build_absolute_uri(reverse(f"api:{name}", kwargs={"pk": pk}))


def document_status(request: Request, document: Document) -> dict[str, Any]:
    """The status body: ``status`` pending, ready (with ``download``) or failed (``error``)."""
    document = documents.refresh(document)
    ready = document.status == Document.Status.READY
    return {
        "id": document.pk,
        "url": _api_url(request, "document-detail", document.pk),
        "kind": document.kind,
        "session": document.session_id,
        "group": document.group_id if document.session_id is None else None,
        "date_from": document.date_from,
        "date_to": document.date_to,
        "player": document.player_id,
        "paper": document.paper,
        "status": document.status,
        "stale": documents.is_stale(document),
        "error": document.error or None,
        "download": _api_url(request, "document-download", document.pk) if ready else None,
        "requested_at": document.requested_at,
        "finished_at": document.finished_at,
    }


def _requested(request: Request, document: Document, created: bool) -> Response:
    body = document_status(request, document)
    return Response(
        body,
        status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK,
        headers={"Location": body["url"]},
    )


def _body(request: Request) -> dict[str, Any]:
    """The JSON body's fields, with query parameters as a fallback (``?paper=Letter``)."""
    data = request.data
    if not isinstance(data, dict):
        raise ServiceError(_('the body must be a JSON object, such as {"paper": "A4"}'))
    fields = data.dict() if isinstance(data, QueryDict) else data
    return {**request.query_params.dict(), **fields}


REQUEST_DOC = (
    "202 with the status of a new document, queued for rendering; 200 with an up-to-date "
    "one (ready and not stale, or still pending) when there is one. ``paper``: A4 (default) "
    "or Letter."
)


@extend_schema(
    request=PaperChoice,
    responses={202: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT},
    description=REQUEST_DOC,
)
@api_view(["POST"])
def session_sheets(request: Request, pk: int) -> Response:
    """Ask for the session's settlement sheet as a PDF."""
    session = user_session(request, pk)
    query = validated(PaperChoice, _body(request))
    document, created = documents.request_document(
        session, Document.Kind.SHEET, current_user(request), paper=query["paper"]
    )
    return _requested(request, document, created)


@extend_schema(
    request=PaperChoice,
    parameters=[OpenApiParameter("player", OpenApiTypes.INT, required=True)],
    responses={202: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT},
    description=REQUEST_DOC,
)
@api_view(["POST"])
def session_ledgers(request: Request, pk: int) -> Response:
    """Ask for one seated player's ledger against each opponent at the session, as a PDF."""
    session = user_session(request, pk)
    query = validated(LedgerChoice, _body(request))
    player = _seated_player(session, query["player"])
    document, created = documents.request_document(
        session,
        Document.Kind.LEDGER,
        current_user(request),
        player=player,
        paper=query["paper"],
    )
    return _requested(request, document, created)


@extend_schema(
    request=PaperChoice,
    parameters=SEASON_PARAMETERS,
    responses={202: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT},
    description=REQUEST_DOC,
)
@api_view(["POST"])
def group_season_pdf(request: Request, pk: int) -> Response:
    """Ask for the group's season between ``from`` and ``to`` (of one ``game``, or all) as
    a PDF: the players' table, the charts and the head-to-head."""
    group = user_group(request, pk)
    body = _body(request)
    query = validated(SeasonQuery, body)
    paper = validated(PaperChoice, body)["paper"]
    document, created = documents.request_season_document(
        group,
        current_user(request),
        date_from=query.get("from"),
        date_to=query.get("to"),
        game=query.get("game", ""),
        paper=paper,
    )
    return _requested(request, document, created)


def _seated_player(session: Session, player_id: int) -> Player:
    player = session.players.filter(pk=player_id).first()
    if player is None:
        raise ServiceError(f"player: no player {player_id} sat at session {session.pk}", "player")
    return player


def user_document(request: Request, pk: int) -> Document:
    groups = member_groups(request.user)
    visible = Document.objects.filter(Q(session__group__in=groups) | Q(group__in=groups))
    return get_object_or_404(visible.select_related("session__group", "player", "group"), pk=pk)


@extend_schema(responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def document_detail(request: Request, pk: int) -> Response:
    """A document's status: pending, ready (with its download URL) or failed (with why);
    ``stale`` once its session has changed since it was rendered."""
    return Response(document_status(request, user_document(request, pk)))


@extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY, 409: CONFLICT})
@api_view(["GET"])
def document_download(request: Request, pk: int) -> FileResponse | Response:
    """The stored PDF of a ready document (409 while pending or failed)."""
    document = documents.refresh(user_document(request, pk))
    if document.status != Document.Status.READY:
        return Response(
            error_body(f"document {document.pk} is {document.status}"),
            status=status.HTTP_409_CONFLICT,
        )
    try:
        handle = document.file.open("rb")
    except FileNotFoundError:
        raise NotFound(f"the file of document {document.pk} is missing; ask again") from None
    return FileResponse(
        handle,
        as_attachment=True,
        filename=documents.download_name(document),
        content_type="application/pdf",
    )
