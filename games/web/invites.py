"""Invite links from the pages: owners make and revoke them on the group page; a friend
opens one, signs up or in, joins and picks the player they are (games.services.invites)."""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import services
from games.lib.public_url import loopback_links, public_url
from games.models import Group, GroupInvite, Player
from games.present import moment
from games.services import invites
from games.web.common import group_for, require_owner_role, typed_text, user_of


def invite_url(request: HttpRequest, invite: GroupInvite) -> str:
    return public_url(request, reverse("web:invite", args=[invites.token_for(invite)]))


def qr_svg(url: str) -> SafeString:
    """The link as a QR code, inline SVG (segno writes only its own markup: safe)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, title=_("Invite link as a QR code"))
    # segno writes its own markup only; the title is escaped by it.
    return mark_safe(svg)


def invites_context(request: HttpRequest, group: Group) -> dict[str, Any]:
    """What the group page shows owners: each active invite with its link and QR code, and
    the note on an address no phone can open (``links_note``)."""
    rows = []
    for invite in invites.active_invites(group):
        url = invite_url(request, invite)
        rows.append({"invite": invite, "url": url, "qr": qr_svg(url)})
    return {"invites": rows, "links_note": loopback_links(request)}


@login_required
@require_POST
def invite_new(request: HttpRequest, pk: int) -> HttpResponse:
    group, role = group_for(request, pk)
    require_owner_role(role)
    invite = services.create_invite(group, by=user_of(request))
    messages.success(
        request,
        _("New invite link, valid until %(when)s: share it or show its QR code.")
        % {"when": f"{moment(invite.expires_at)} {timezone.localtime(invite.expires_at):%Z}"},
    )
    return redirect(reverse("web:group", args=[group.pk]) + "#invites")


@login_required
@require_POST
def invite_revoke(request: HttpRequest, pk: int, invite_pk: int) -> HttpResponse:
    group, role = group_for(request, pk)
    require_owner_role(role)
    invite = get_object_or_404(group.invites, pk=invite_pk)
    services.revoke_invite(invite, by=user_of(request))
    messages.success(request, _("Invite link revoked: it no longer lets anyone in."))
    return redirect(reverse("web:group", args=[group.pk]) + "#invites")


@require_http_methods(["GET", "POST"])
def invite_open(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invite link opens: who invites to which group, then join and claim."""
    try:
        invite = invites.open_invite(token)
    except invites.InviteRefused as refused:
        return render(request, "web/invite_refused.html", {"error": refused.message}, status=410)
    group = invite.group
    context: dict[str, Any] = {
        "invite": invite,
        "group": group,
        "inviter": invite.created_by.get_username(),
        "here": request.path,
    }
    if not request.user.is_authenticated:
        return render(request, "web/invite.html", context)
    user = user_of(request)
    if group.memberships.filter(user_id=user.pk).exists():
        context["member"] = True
        return render(request, "web/invite.html", context)
    context["claimable"] = list(invites.claimable_players(group))
    if request.method == "POST":
        choice = request.POST.get("player", "")
        new_name = request.POST.get("new_player", "")
        try:
            typed_text(new_name, "new_player", Player, "name")
            if choice == "new":
                joined = services.accept_invite(token, user, new_player=new_name or "")
            else:
                joined = services.accept_invite(token, user, player=choice)
        except services.ServiceError as error:
            context.update(error=error.message, choice=choice, new_name=new_name)
            return render(request, "web/invite.html", context, status=400)
        messages.success(
            request,
            _("Welcome to %(group)s: you play as %(player)s.")
            % {"group": group.name, "player": joined.player.name},
        )
        return redirect("web:group", pk=group.pk)
    return render(request, "web/invite.html", context)
