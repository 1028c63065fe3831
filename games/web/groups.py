"""The group pages: the list of a user's groups, one group (sessions, standings, rules,
players, stakes), its rules form and its stakes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import reports, services
from games.engine import RuleError, Rules, ScoreError
from games.engine.rules import PRESETS, decimal_text, preset_rules
from games.lib.locales import by_name, player_name
from games.models import Group, Membership
from games.present import GAME_NAMES, game_name, money, money_in, signed, units
from games.rules_text import foul_warning
from games.web import invites, rules_form
from games.web.common import group_for, player_for, require_owner_role, user_of
from games.words import error_text


def _rules_summary(spec: Any, rules: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(title, value, sentence) for every option of the rules' game, as people read them.

    A royalty or naturals table is named as agreed (or as the preset names it).
    """
    preset = str(rules.get("preset", "standard"))
    agreed = spec if isinstance(spec, Mapping) else {}
    rows = []
    for option in rules_form.options_for(preset):
        value = rules.get(option.name)
        if isinstance(value, Mapping) and isinstance(agreed.get(option.name), str):
            text = agreed[option.name]
        elif isinstance(value, Mapping) and option.name not in agreed:
            text = rules_form.preset_value(preset, option)
        else:
            text = rules_form.describe_value(option, value)
        rows.append((option.title, rules_form.shown_value(option.name, text), option.text))
    return rows


@login_required
@require_GET
def group_list(request: HttpRequest) -> HttpResponse:
    memberships = (
        Membership.objects.filter(user=user_of(request))
        .select_related("group")
        .annotate(open_sessions=Count("group__sessions", filter=Q(group__sessions__status="open")))
        .order_by("group__name")
    )
    return render(request, "web/group_list.html", {"memberships": memberships})


@login_required
@require_http_methods(["GET", "POST"])
def group_new(request: HttpRequest) -> HttpResponse:
    """A new group: its name, stakes, preset and players; the user becomes its owner."""
    values: Mapping[str, str] = request.POST if request.method == "POST" else {}
    errors: dict[str, str] = {}
    if request.method == "POST":
        lines = request.POST.get("players", "").splitlines()
        typed = [line for line in lines if line.strip()]
        try:
            group = services.create_group(
                user_of(request),
                request.POST.get("name", ""),
                request.POST.get("currency", "").strip().upper(),
                request.POST.get("unit_value", "").strip(),
                request.POST.get("preset", ""),
                typed,
                owner_plays=request.POST.get("owner_plays", ""),
            )
        except RuleError as exc:
            errors["preset"] = error_text(exc)
        except services.ServiceError as exc:
            errors.update(_new_group_error(exc))
        else:
            messages.success(request, _("%(name)s is ready: start a session.") % {"name": group})
            return redirect("web:group", pk=group.pk)
    context = {
        "values": values,
        "errors": errors,
        "presets": [(name, game_name(preset_rules(name))) for name in PRESETS],
        "preset": values.get("preset", "standard"),
    }
    return render(request, "web/group_new.html", context, status=400 if errors else 200)


def _new_group_error(exc: services.ServiceError) -> dict[str, str]:
    """The form field a refusal belongs to, and its message as the page shows it."""
    field = exc.field or "name"
    if field.startswith("players["):
        number = int(field.removeprefix("players[").split("]")[0]) + 1
        reason = exc.message.split(": ", 1)[-1]
        return {
            "players": _("Player %(number)d: %(reason)s") % {"number": number, "reason": reason}
        }
    if field == "owner_plays":
        return {field: exc.message.split(": ", 1)[-1]}
    return {field if field in ("name", "currency", "unit_value") else "name": exc.message}


def group_page_context(group: Group, role: str) -> dict[str, Any]:
    """What the group page shows; also what a form of the page is shown again with."""
    rule_set = group.current_rule_set()
    standings = reports.group_standings(group)
    for row in standings["players"]:
        row["units_text"] = signed(row["units"])
        row["money_text"] = money_in(row["money"], group.currency)
    players = by_name(group.players.select_related("user"), player_name)
    merges = list(group.merges.select_related("merged_by")[:20])
    stakes = [
        (stake, units(stake.multiplier))
        for stake in group.pair_stakes.select_related("player_a", "player_b")
    ]
    return {
        "group": group,
        "role": role,
        "is_owner": role == Membership.Role.OWNER,
        "sessions": group.sessions.annotate(
            deal_count=Count("deals", filter=Q(deals__status="active"))
        ).prefetch_related("seats"),
        "standings": standings["players"],
        "rule_set": rule_set,
        "rules_summary": _rules_summary(rule_set.spec, rule_set.rules),
        "players": players,
        # A retired player sits at no new session: no new stake either.
        "stake_players": [p for p in players if not p.is_retired],
        "merges": merges,
        "stakes": stakes,
        "unit_value": money(group.unit_value, group.currency),  # "0.50", as the sheets write it
        "unit_value_input": decimal_text(group.unit_value),  # as typed: no separators
        "game_names": GAME_NAMES,
    }


@login_required
@require_http_methods(["GET", "POST"])
def group_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's sessions, standings, rules and players; members add players here."""
    group, role = group_for(request, pk)
    context = group_page_context(group, role)
    # Whether the reader plays in the group already (else an owner may say "I am ...").
    context["i_play"] = any(p.user_id == request.user.pk for p in context["players"])
    if context["is_owner"]:
        context.update(invites.invites_context(request, group))
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            player = services.add_player(group, name, by=user_of(request))
        except services.ServiceError as error:
            context.update(player_error=error.message, player_name=name)
            return render(request, "web/group_detail.html", context, status=400)
        messages.success(request, _("%(name)s joined the table.") % {"name": player.name})
        return redirect("web:group", pk=group.pk)
    return render(request, "web/group_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def group_rules(request: HttpRequest, pk: int) -> HttpResponse:
    """Owners pick a preset and override options; the engine validates the result."""
    group, role = group_for(request, pk)
    require_owner_role(role)
    rule_set = group.current_rule_set()
    values = rules_form.initial_from_spec(rule_set.spec)
    error, error_field = "", None
    if request.method == "POST":
        values = {key: str(value) for key, value in request.POST.items()}
    if request.method == "POST" and "show" not in request.POST:
        spec = rules_form.spec_from_form(request.POST, rule_set.spec)
        try:
            services.set_rules(group, spec, by=user_of(request))
        except ScoreError as exc:
            error, error_field = error_text(exc), exc.field
        else:
            messages.success(request, _("New rules saved: sessions started from now use them."))
            return redirect("web:group", pk=group.pk)
    typed = values.get("preset", "")
    preset: str = typed if typed in PRESETS else str(rule_set.rules["preset"])
    option_name = (error_field or "").removeprefix("rules.").split(".")[0]
    same_preset = isinstance(rule_set.spec, Mapping) and rule_set.spec.get("preset") == preset
    kept = rules_form.custom_tables(rule_set.spec) if same_preset else {}
    options = [
        {
            "option": option,
            "value": values.get(option.name, ""),
            "preset_value": _("the agreed custom table")
            if option.name in kept
            else rules_form.shown_value(option.name, rules_form.preset_value(preset, option)),
            "error": error if option_name == option.name else "",
        }
        for option in rules_form.OPTIONS
    ]
    applies = {option.name for option in rules_form.options_for(preset)}
    context = {
        "foul_warning": _foul_warning(
            rule_set.rules, request.POST if request.method == "POST" else None, rule_set.spec
        ),
        "group": group,
        "presets": [(name, game_name(preset_rules(name))) for name in PRESETS],
        "preset": values.get("preset", ""),
        "options": options,
        "applies": applies,
        "error": error if not any(o["error"] for o in options) else "",
        "rule_set": rule_set,
    }
    return render(request, "web/group_rules.html", context, status=400 if error else 200)


def _foul_warning(
    stored: Mapping[str, Any], typed: Mapping[str, Any] | None, spec: Any
) -> str | None:
    """The warning for the rules on the page: those typed when they are valid rules, else
    the group's own."""
    if typed is not None:
        try:
            return foul_warning(Rules.from_mapping(rules_form.spec_from_form(typed, spec)))
        except ScoreError:
            pass
    return foul_warning(Rules.from_mapping(stored))


@login_required
@require_POST
def group_stakes(request: HttpRequest, pk: int) -> HttpResponse:
    """Owners change the unit's value and currency, or one pair's multiple of it."""
    group, role = group_for(request, pk)
    require_owner_role(role)
    user = user_of(request)
    try:
        if "multiplier" in request.POST:
            first = player_for(group, request.POST.get("first", ""))
            second = player_for(group, request.POST.get("second", ""))
            services.set_pair_stake(group, first, second, request.POST["multiplier"], by=user)
            messages.success(
                request,
                _("%(first)s and %(second)s now play at x%(multiplier)s.")
                % {"first": first, "second": second, "multiplier": request.POST["multiplier"]},
            )
        else:
            services.update_group(
                group,
                user,
                unit_value=request.POST.get("unit_value", ""),
                currency=request.POST.get("currency", ""),
            )
            messages.success(request, _("Stakes saved: deals recorded from now use them."))
    except services.ServiceError as error:
        context = group_page_context(group, role)
        context.update(stakes_error=error.message, stakes_values=request.POST)
        return render(request, "web/group_detail.html", context, status=400)
    return redirect(reverse("web:group", args=[group.pk]) + "#stakes")
