"""Owners manage a group's players from the group page: rename, retire or bring back,
merge one into another (``games.services``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.web.common import group_for, player_for, require_owner_role, user_of
from games.web.groups import group_page_context


@login_required
@require_POST
def group_player(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """One owner's change to one player, as the form's ``action`` says."""
    group, role = group_for(request, pk)
    require_owner_role(role)
    player = player_for(group, str(player_pk))
    user = user_of(request)
    action = request.POST.get("action", "")
    try:
        if action == "rename":
            old = player.name
            player = services.update_player(player, user, name=request.POST.get("name", ""))
            done = _(
                "%(old)s is now called %(new)s. Past sessions keep the name %(old)s sat down with."
            ) % {"old": old, "new": player.name}
        elif action in ("retire", "unretire"):
            player = services.update_player(player, user, retired=action == "retire")
            done = (
                _("%(name)s is retired: kept in history, offered for no new session.")
                if player.is_retired
                else _("%(name)s is back: offered for new sessions again.")
            ) % {"name": player.name}
        elif action == "me":
            player = services.update_player(player, user, user=user)
            done = _("%(name)s is you now: no invite can claim that seat.") % {"name": player.name}
        elif action == "merge":
            keep = player_for(group, request.POST.get("into", ""))
            record = services.merge_players(group, keep, player, by=user)
            done = _(
                "%(gone)s merged into %(kept)s: their seats, ledgers and payments follow %(kept)s."
            ) % {"gone": record.gone_name, "kept": record.kept_name}
        else:
            raise services.ServiceError(_("pick rename, retire, bring back or merge"), "action")
    except services.ServiceError as error:
        context = group_page_context(group, role)
        context.update(manage_error=error.message, manage_player=player.pk)
        context["i_play"] = any(p.user_id == user.pk for p in context["players"])
        return render(request, "web/group_detail.html", context, status=400)
    messages.success(request, done)
    return redirect(reverse("web:group", args=[group.pk]) + "#players-h")
