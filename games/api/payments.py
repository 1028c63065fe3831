"""Payments and what is still owed: record, confirm, correct, void; settle a night;
balances across nights; a player's statement against each opponent (JSON, CSV or PDF).

Like every other view these see only the user's groups (another group's ids answer 404);
who may confirm or void is the services' to say (``games.services.payments``).
Amounts are decimal strings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.http import content_disposition_header
from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, renderer_classes
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games import reports, services
from games.api.groups import current_user, validated
from games.api.reports import DATE_PARAMETERS, CSVRenderer, DateRange, user_group, user_session
from games.api.schema import CONFLICT
from games.api.serializers import FreeText
from games.errors import ServiceError
from games.languages import language_for
from games.models import Group, Payment, Player
from games.reports.statement import statement, statement_csv
from games.services.names import file_part
from games.services.payments import NOTE_LENGTH
from games.services.reasons import REASON_LENGTH
from games.sheets.statements import statement_pdf
from games.words import answer_language
from games.words.notes import payment_note


class PaymentCreate(serializers.Serializer[Any]):
    payer = serializers.IntegerField(help_text="the paying player's id")
    payee = serializers.IntegerField(help_text="the paid player's id")
    amount = serializers.CharField(help_text='in the group\'s currency, e.g. "12.50"')
    date = serializers.DateField(required=False, help_text="today unless given")
    note = FreeText(required=False, allow_blank=True, default="", max_length=NOTE_LENGTH)
    session = serializers.IntegerField(required=False, help_text="the night it settles")
    confirmed = serializers.BooleanField(
        required=False, default=False, help_text="the payee (or an owner) records it as received"
    )


class PaymentChange(serializers.Serializer[Any]):
    payer = serializers.IntegerField(required=False)
    payee = serializers.IntegerField(required=False)
    amount = serializers.CharField(required=False)
    date = serializers.DateField(required=False)
    note = FreeText(required=False, allow_blank=True, max_length=NOTE_LENGTH)
    reason = FreeText(required=False, allow_blank=True, default="", max_length=REASON_LENGTH)


class Reason(serializers.Serializer[Any]):
    reason = FreeText(required=False, allow_blank=True, default="", max_length=REASON_LENGTH)


class Settle(serializers.Serializer[Any]):
    pair_by_pair = serializers.BooleanField(required=False, default=False)


class PaymentQuery(DateRange):
    status = serializers.ChoiceField(choices=Payment.Status.choices, required=False)
    player = serializers.IntegerField(required=False)
    session = serializers.IntegerField(required=False)


class StatementQuery(DateRange):
    player = serializers.IntegerField()
    opponent = serializers.IntegerField(required=False)


# GET groups/{id}/payments/ and POST sessions/{id}/payments/ answer a list of payments.
LIST_OF_OBJECTS = build_array_type(build_basic_type(OpenApiTypes.OBJECT) or {})


def _player(group: Group, pk: int, field: str) -> Player:
    player = group.players.filter(pk=pk).first()
    if player is None:
        raise ServiceError(f"{field}: {group.name} has no player {pk}", field)
    return player


def _in_answer_language(request: Request, build: Callable[[], Any]) -> Any:
    """``build()``'s answer with its words (a settled night's note) in the caller's
    language (``?lang=``, else ``Accept-Language``), as a deal's result has them."""
    with translation.override(answer_language(request)):
        return reports.jsonable(build())


def _detail(request: Request, payment: Payment) -> dict[str, Any]:
    return cast(dict[str, Any], _in_answer_language(request, lambda: _payment_history(payment)))


def _payment_history(payment: Payment) -> dict[str, Any]:
    data = reports.payment_data(payment)
    night = payment.session.date if payment.session else None
    data["history"] = [
        {
            "version": revision.version,
            "action": revision.action,
            "reason": revision.reason,
            "payer": revision.payer_id,
            "payee": revision.payee_id,
            "amount": revision.amount,
            "date": revision.date,
            "note": payment_note(revision.note, revision.note_code, night),
            "note_code": revision.note_code,
            "status": revision.status,
            "changed_at": revision.changed_at,
        }
        for revision in payment.revisions.order_by("version")
    ]
    return data


@extend_schema(
    methods=["GET"],
    operation_id="v1_groups_payments_list",
    parameters=[
        *DATE_PARAMETERS,
        OpenApiParameter("status", OpenApiTypes.STR, enum=["pending", "confirmed", "void"]),
        OpenApiParameter("player", OpenApiTypes.INT, description="paid or received by"),
        OpenApiParameter("session", OpenApiTypes.INT, description="settling one night"),
    ],
    responses={200: LIST_OF_OBJECTS},
)
@extend_schema(methods=["POST"], request=PaymentCreate, responses={201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def group_payments(request: Request, pk: int) -> Response:
    """GET: the group's payments in date order (filters: dates, status, player, session).
    POST: record one (pending unless ``confirmed`` by the payee or an owner): 201."""
    group = user_group(request, pk)
    if request.method == "GET":
        query = validated(PaymentQuery, request.query_params)
        payments = group.payments.all()
        if "date_from" in query:
            payments = payments.filter(date__gte=query["date_from"])
        if "date_to" in query:
            payments = payments.filter(date__lte=query["date_to"])
        if "status" in query:
            payments = payments.filter(status=query["status"])
        if "player" in query:
            payments = payments.filter(payer_id=query["player"]) | payments.filter(
                payee_id=query["player"]
            )
        if "session" in query:
            payments = payments.filter(session_id=query["session"])
        return Response(_in_answer_language(request, lambda: reports.payment_list(payments)))
    data = validated(PaymentCreate, request.data)
    session = None
    if "session" in data:
        session = group.sessions.filter(pk=data["session"]).first()
        if session is None:
            raise ServiceError(f"session: {group.name} has no session {data['session']}", "session")
    payment = services.record_payment(
        group,
        _player(group, data["payer"], "payer"),
        _player(group, data["payee"], "payee"),
        data["amount"],
        current_user(request),
        date=data.get("date"),
        note=data["note"],
        session=session,
        confirmed=data["confirmed"],
    )
    return Response(_detail(request, payment), status=status.HTTP_201_CREATED)


def _payment(request: Request, pk: int, payment_pk: int) -> Payment:
    group = user_group(request, pk)
    return get_object_or_404(group.payments.select_related("group", "payee"), pk=payment_pk)


@extend_schema(methods=["GET"], responses=OpenApiTypes.OBJECT)
@extend_schema(
    methods=["PATCH"], request=PaymentChange, responses={200: OpenApiTypes.OBJECT, 409: CONFLICT}
)
@api_view(["GET", "PATCH"])
def payment_detail(request: Request, pk: int, payment_pk: int) -> Response:
    """GET: one payment with its history. PATCH: correct its payer, payee, amount, date or
    note (with a ``reason``); a confirmed payment corrected by someone other than its payee
    or an owner goes back to pending."""
    payment = _payment(request, pk, payment_pk)
    if request.method == "PATCH":
        data = validated(PaymentChange, request.data)
        reason = data.pop("reason")
        changes: dict[str, Any] = dict(data)
        for field in ("payer", "payee"):
            if field in changes:
                changes[field] = _player(payment.group, changes[field], field)
        payment = services.edit_payment(payment, changes, current_user(request), reason)
    return Response(_detail(request, payment))


@extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 409: CONFLICT})
@api_view(["POST"])
def payment_confirm(request: Request, pk: int, payment_pk: int) -> Response:
    """The payee (or an owner) confirms the money arrived: the payment counts from now."""
    payment = services.confirm_payment(_payment(request, pk, payment_pk), current_user(request))
    return Response(_detail(request, payment))


@extend_schema(request=Reason, responses={200: OpenApiTypes.OBJECT, 409: CONFLICT})
@api_view(["POST"])
def payment_void(request: Request, pk: int, payment_pk: int) -> Response:
    """The payee (or an owner) voids a payment (with a ``reason``): it stays, counting nowhere."""
    data = validated(Reason, request.data)
    payment = services.void_payment(
        _payment(request, pk, payment_pk), current_user(request), data["reason"]
    )
    return Response(_detail(request, payment))


@extend_schema(methods=["GET"], responses=OpenApiTypes.OBJECT)
@extend_schema(methods=["POST"], request=Settle, responses={201: LIST_OF_OBJECTS, 409: CONFLICT})
@api_view(["GET", "POST"])
def session_payments(request: Request, pk: int) -> Response:
    """GET: the night's payments and what each player still has outstanding, with the
    transfers still to make. POST: "settle this night": record those transfers (the fewest,
    or ``pair_by_pair``) as pending payments in one go: 201 with them."""
    session = user_session(request, pk)
    if request.method == "POST":
        data = validated(Settle, request.data)
        made = services.settle_session(
            session, current_user(request), pair_by_pair=data["pair_by_pair"]
        )
        body = _in_answer_language(request, lambda: [reports.payment_data(p) for p in made])
        return Response(body, status=status.HTTP_201_CREATED)
    return Response(_in_answer_language(request, lambda: reports.night_settlement(session)))


@extend_schema(parameters=DATE_PARAMETERS, responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def group_balances(request: Request, pk: int) -> Response:
    """What everyone is owed across nights (sessions' money less confirmed payments), per
    player and per opponent, over a date range, and the fewest transfers clearing it."""
    group = user_group(request, pk)
    query = validated(DateRange, request.query_params)
    body = reports.group_balances(group, query.get("date_from"), query.get("date_to"))
    return Response(reports.jsonable(body))


class PDFRenderer(BaseRenderer):
    """``application/pdf``, chosen with ``?format=pdf``; a refusal still reads as JSON."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        if isinstance(data, bytes):
            return data
        return json.dumps(data).encode()


@extend_schema(
    parameters=[
        OpenApiParameter("player", OpenApiTypes.INT, required=True, description="player id"),
        OpenApiParameter("opponent", OpenApiTypes.INT, description="one opponent only"),
        *DATE_PARAMETERS,
        OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv", "pdf"]),
    ],
    responses={
        (200, "application/json"): OpenApiTypes.OBJECT,
        (200, "text/csv"): OpenApiTypes.STR,
        (200, "application/pdf"): OpenApiTypes.BINARY,
    },
)
@api_view(["GET"])
@renderer_classes([JSONRenderer, BrowsableAPIRenderer, CSVRenderer, PDFRenderer])
def group_statement(request: Request, pk: int) -> Response | HttpResponse:
    """A player's statement against each opponent (or one): nights and payments in date
    order with running balances in money and units, carried in and out of the dates."""
    group = user_group(request, pk)
    query = validated(StatementQuery, request.query_params)
    player = _player(group, query["player"], "player")
    opponent = None
    if "opponent" in query:
        opponent = _player(group, query["opponent"], "opponent")
    data = statement(
        group,
        player,
        opponent=opponent,
        date_from=query.get("date_from"),
        date_to=query.get("date_to"),
    )
    renderer = request.accepted_renderer.format
    stem = f"statement-{group.pk}-{file_part(player.name)}"
    if renderer in (CSVRenderer.format, PDFRenderer.format):
        if renderer == CSVRenderer.format:
            response = HttpResponse(statement_csv(data), content_type="text/csv; charset=utf-8")
        else:
            # In the language of whoever asks: their stored choice, else the request's.
            with translation.override(language_for(request.user)):
                content = statement_pdf(group, data)
            response = HttpResponse(content, content_type="application/pdf")
        response["Content-Disposition"] = content_disposition_header(True, f"{stem}.{renderer}")
        return response
    return Response(reports.jsonable(data))
