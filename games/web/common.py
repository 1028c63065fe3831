"""What every page needs: the signed-in user, the group or session asked for and the
user's role in it (404 for anyone outside the group, 403 for a member where an owner is
needed)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import models
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from games.engine import Rules
from games.errors import ServiceError
from games.models import Group, Membership, Player, Session
from games.permissions import NotAllowed, remember_role, role_of
from games.services.deal_reads import names_read_with, with_deal_table


def user_of(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # every view is behind login_required
    return user


def group_for(request: HttpRequest, pk: int) -> tuple[Group, str]:
    """The group and the user's role in it; 404 for anyone outside it."""
    group = get_object_or_404(Group, pk=pk)
    role = role_of(user_of(request), group)
    if role is None:
        raise Http404("no such group")
    return group, role


def player_for(group: Group, pk: str) -> Player:
    """The group's player whose id is ``pk`` (as a URL or a form gives it); 404 otherwise."""
    if not pk.isdigit():
        raise Http404("no such player")
    return get_object_or_404(group.players, pk=pk)


def session_for(request: HttpRequest, pk: int) -> tuple[Session, str]:
    session = get_object_or_404(Session.objects.select_related("group"), pk=pk)
    role = role_of(user_of(request), session.group)
    if role is None:
        raise Http404("no such session")
    return session, role


def deal_session_for(request: HttpRequest, pk: int) -> tuple[Session, str]:
    """``session_for`` for the deal form: the session, the user's role, its seats and its
    group's pair stakes in one query (what recording a deal reads first)."""
    user = user_of(request)
    sessions = (
        Session.objects.filter(group__memberships__user=user)
        .annotate(viewer_role=models.F("group__memberships__role"))
        .select_related("group")
    )
    session = get_object_or_404(with_deal_table(sessions), pk=pk)
    role = str(session.__dict__["viewer_role"])
    remember_role(session.group, user, role)
    return session, role


def require_owner_role(role: str) -> None:
    if role != Membership.Role.OWNER:
        raise NotAllowed("only an owner of the group may do this")


def seat_names(session: Session) -> list[str]:
    read = names_read_with(session)
    return list(session.seat_names().values()) if read is None else read


def session_rules(session: Session) -> Rules:
    return Rules.from_mapping(session.rules)


# How many of a session's latest deals a page names the keys of: a phone's queue or draft
# lands within a few deals, and a 10,000-deal session's page stays small.
SAVED_KEYS = 200


def saved_keys(session: Session) -> list[str]:
    """The idempotency keys the session's latest deals were saved with: a phone that
    queued or kept a deal sees here that it has landed."""
    latest = session.deals.exclude(idempotency_key=None).order_by("-number")[:SAVED_KEYS]
    keys = latest.values_list("idempotency_key", flat=True)
    return [key for key in keys if key and " " not in key]


def typed_text(value: str, field: str, model: type[models.Model], column: str = "") -> str:
    """Text typed in a form field, checked as the API's serializers check it before it
    reaches a service: no NUL character, no longer than its column; else a ServiceError
    naming the field (the form is shown again with what was typed)."""
    if "\x00" in value:
        raise ServiceError(f"{field}: no NUL characters", field)
    limit = getattr(model._meta.get_field(column or field), "max_length", None)
    if limit is not None and len(value) > limit:
        raise ServiceError(f"{field}: at most {limit} characters, got {len(value):,}", field)
    return value
