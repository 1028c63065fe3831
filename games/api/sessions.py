"""Sessions (nights) and their deals.

Deals are recorded, edited and voided through ``games.services``, which score them with the
engine under the session's stored rules. A retried ``POST`` with the same
``Idempotency-Key`` header and the same players gets the deal it already recorded (200)
instead of a second one; the same key with other players is a conflict (409).
"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.conf import settings
from django.db.models import F, Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.authentication import BaseAuthentication
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from games import reports, services
from games.api import serializers as s
from games.api.authentication import DealTokenAuthentication, DeviceTokenAuthentication
from games.api.groups import current_user, member_groups, validated
from games.api.schema import CONFLICT, refusal
from games.errors import ServiceError
from games.models import Deal, DealRevision, Player, Session, SessionSeat
from games.permissions import remember_role
from games.services.deal_reads import session_for_deal
from games.services.names import same_as

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="a key unique to this deal (at most 100 characters): a retried request"
    " with the same key and the same players returns the deal already recorded instead of"
    " recording it again; the same key with other players answers 409",
)


class IdFilter(django_filters.NumberFilter):
    """An object's id: a whole number (``NumberFilter`` would take 0.5 too)."""

    field_class = forms.IntegerField  # type: ignore[assignment]


class NoEmptyDates(forms.Form):
    """``?date_after=`` is refused, not read as no date (as the reports' dates)."""

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        for name in ("date_after", "date_before"):
            if self.data.get(name) == "":
                self.add_error("date", _("%(field)s: a value is expected") % {"field": name})
        return cleaned


class SessionFilter(django_filters.FilterSet):
    """``?date_after=&date_before=`` (inclusive), ``?player=ID``, ``?game=``, ``?group=ID``."""

    date = django_filters.DateFromToRangeFilter()
    # A number, as ``player``: a group that is not the user's lists no session (as any
    # other filter that matches nothing) rather than refusing the request.
    group = IdFilter(field_name="group", label="group id")
    player = IdFilter(field_name="seats__player", label="seated player id")

    class Meta:
        model = Session
        fields = ("group", "game", "status", "date", "player")
        form = NoEmptyDates


@extend_schema_view(
    partial_update=extend_schema(
        request=s.SessionUpdateSerializer, responses={200: s.SessionSerializer, 409: CONFLICT}
    )
)
class SessionViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Session],
):
    """Nights of the user's groups. Any member starts one, corrects its date, place and
    notes, closes it, or deletes it while it is open and has no deals; closed sessions
    are read-only."""

    serializer_class = s.SessionSerializer
    filterset_class = SessionFilter

    def get_queryset(self) -> QuerySet[Session]:
        return (
            Session.objects.filter(group__in=member_groups(self.request.user))
            .select_related("rule_set")
            .prefetch_related(
                Prefetch("seats", SessionSeat.objects.select_related("player").order_by("seat"))
            )
            .distinct()
        )

    @extend_schema(
        request=s.SessionCreateSerializer,
        responses={201: s.SessionSerializer, 404: refusal("No such group among the user's.")},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.SessionCreateSerializer, request.data)
        group = get_object_or_404(member_groups(request.user), pk=data.pop("group"))
        players = [
            seat_player(group.players.all(), name, k) for k, name in enumerate(data.pop("players"))
        ]
        session = services.start_session(group, players, current_user(request), **data)
        return Response(
            self.get_serializer(self.get_queryset().get(pk=session.pk)).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        request=s.SessionUpdateSerializer, responses={200: s.SessionSerializer, 409: CONFLICT}
    )
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.SessionUpdateSerializer, request.data)
        session = services.update_session(self.get_object(), current_user(request), **data)
        return Response(self.get_serializer(self.get_queryset().get(pk=session.pk)).data)

    @extend_schema(responses={204: None, 409: CONFLICT})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        services.delete_session(self.get_object(), current_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: s.SessionSerializer, 409: CONFLICT})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        session = services.close_session(self.get_object(), current_user(request))
        return Response(self.get_serializer(self.get_queryset().get(pk=session.pk)).data)

    @extend_schema(request=s.ReopenSerializer, responses={200: s.SessionSerializer, 409: CONFLICT})
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Owners only: a closed session takes deals again (kept in its history)."""
        data = validated(s.ReopenSerializer, request.data)
        session = services.reopen_session(
            self.get_object(), current_user(request), reason=data["reason"]
        )
        return Response(self.get_serializer(self.get_queryset().get(pk=session.pk)).data)


def seat_player(players: QuerySet[Player], name: str, k: int) -> Player:
    player = players.filter(name=name).first()
    if player is None:  # typed in another case or width: the same name
        player = next((p for p in players if same_as(name, [p.name])), None)
    if player is None:
        raise ServiceError(
            f"players[{k}]: no player of the group is named {name!r}", f"players[{k}]"
        )
    return player


class DealViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Deal],
):
    """A session's deals, numbered from 1, with every earlier version under ``revisions``.

    ``POST`` records a deal, ``PUT``/``PATCH`` corrects it (rescored; the previous version
    is kept), ``POST .../void/`` voids it (owners only; it stays listed as void).
    """

    serializer_class = s.DealSerializer
    lookup_field = "number"

    @property
    def session(self) -> Session:
        """The session, 404 unless the user belongs to its group; the user's role comes in
        the same query, so the services' membership check needs none."""
        if not hasattr(self, "_session"):
            user = current_user(self.request)
            if self.action == "create":  # with the seats and stakes a deal is scored with
                found = self._read_with_token()
                if found is None:
                    raise Http404
                self._session = found
            else:
                sessions: QuerySet[Session] = (
                    Session.objects.filter(group__memberships__user=user)
                    .annotate(viewer_role=F("group__memberships__role"))
                    .select_related("group")
                )
                self._session = get_object_or_404(sessions, pk=self.kwargs["session_pk"])
            remember_role(self._session.group, user, self._session.__dict__["viewer_role"])
        return self._session

    def get_authenticators(self) -> list[BaseAuthentication]:
        """For recording a deal, the device token is read with the session (one round trip
        for both: ``DealTokenAuthentication``)."""
        authenticators = super().get_authenticators()
        actions = getattr(self, "action_map", {})
        request = getattr(self, "request", None)
        pk = getattr(self, "kwargs", {}).get("session_pk")  # none for the schema's pass
        if request is None or actions.get(request.method.lower()) != "create" or pk is None:
            return authenticators
        return [
            DealTokenAuthentication(int(pk)) if type(found) is DeviceTokenAuthentication else found
            for found in authenticators
        ]

    def _read_with_token(self) -> Session | None:
        """The session a deal goes into: as read with the device token that signed the
        request in, else (a signed-in browser) on its own (``session_for_deal``)."""
        authenticator = self.request.successful_authenticator
        if isinstance(authenticator, DealTokenAuthentication):
            return authenticator.session
        return session_for_deal(current_user(self.request), int(self.kwargs["session_pk"]))

    def get_queryset(self) -> QuerySet[Deal]:
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular's schema pass
            return Deal.objects.none()
        revisions = DealRevision.objects.select_related("changed_by").order_by("version")
        return (
            self.session.deals.select_related("created_by")
            .prefetch_related(Prefetch("revisions", revisions))
            .order_by("number")
        )

    def _render(self, deal: Deal, code: int = status.HTTP_200_OK) -> Response:
        return Response(self.get_serializer(self.get_queryset().get(pk=deal.pk)).data, status=code)

    @extend_schema(
        request=s.DealInputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: s.DealSerializer, 200: s.DealSerializer, 409: CONFLICT},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get("Idempotency-Key") or None
        data = validated(s.DealInputSerializer, request.data)
        deal, created = services.record_or_replay(
            self.session, data["players"], current_user(request), key, data["dealer"]
        )
        if not created:  # a replay answers as the deal was first answered
            answer = self.get_serializer(self.get_queryset().get(pk=deal.pk)).data
            return Response(self._closing(answer))
        if settings.CELERY_TASK_ALWAYS_EAGER:
            # The review ran inline at the commit (no broker): answer with it.
            deal.refresh_from_db(fields=["review"])
        # A deal just recorded is complete in memory and has no revisions yet.
        context = {**self.get_serializer_context(), "just_recorded": True}
        answer = s.DealSerializer(deal, context=context).data
        return Response(self._closing(answer), status=status.HTTP_201_CREATED)

    def _closing(self, answer: dict[str, Any]) -> dict[str, Any]:
        """A deal's answer; once its session's target score has closed it (Big Two), with
        ``session_closed`` saying why ("Di lost 33, the target is 30")."""
        closed = services.closed_at_target(self.session)
        return answer if closed is None else {**answer, "session_closed": closed}

    @extend_schema(request=s.DealInputSerializer, responses={200: s.DealSerializer, 409: CONFLICT})
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.DealInputSerializer, request.data)
        deal = services.edit_deal(
            self.get_object(),
            data["players"],
            current_user(request),
            reason=data["reason"],
            dealer=data["dealer"],
        )
        answer = self.get_serializer(self.get_queryset().get(pk=deal.pk)).data
        return Response(self._closing(answer))

    @extend_schema(request=s.DealInputSerializer, responses={200: s.DealSerializer, 409: CONFLICT})
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.update(request, *args, **kwargs)

    @extend_schema(
        request=s.WhatIfSerializer,
        responses={
            200: s.WhatIfAnswerSerializer,
            400: refusal(
                "An unknown option, one that does not apply to the deal's game, a value the"
                " option refuses, or a deal that cannot be scored with it; the error names"
                " the option."
            ),
        },
    )
    @action(detail=True, methods=["post"], url_path="what-if")
    def what_if(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The deal scored again with one rule option changed, beside what was recorded.

        Any member of the group may ask, as for reading the deal; a void deal or a closed
        session's is answered too. Nothing is stored: no deal, revision or ledger row."""
        # The deal first: someone outside the group learns nothing from the body's errors.
        deal = get_object_or_404(self.session.deals, number=self.kwargs["number"])
        data = validated(s.WhatIfSerializer, request.data)
        answer = reports.deal_what_if(deal, data["option"], data["value"])
        return Response(reports.jsonable(answer))

    @extend_schema(request=s.VoidSerializer, responses={200: s.DealSerializer, 409: CONFLICT})
    @action(detail=True, methods=["post"])
    def void(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.VoidSerializer, request.data)
        deal = services.void_deal(self.get_object(), current_user(request), reason=data["reason"])
        return self._render(deal)
