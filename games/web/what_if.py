"""One deal's page: the hands as after the showdown, what passed between each pair, and
"what if": the deal scored again with one rule option changed, beside what was recorded.

The what-if is asked with a GET (``?option=...&value=...``): it changes nothing, so the
page can be reloaded, shared or bookmarked; nothing is stored.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games import reports
from games.engine import Rules, ScoreError
from games.engine.options import OPTIONS_BY_NAME
from games.engine.what_if import options_for
from games.present import game_name, signed
from games.rules_text import choice_title, option_sentence, option_title
from games.web.common import seat_names, session_for
from games.web.deal_view import pair_lines, showdown
from games.web.rules_form import shown_value, typed_value, value_text
from games.words import error_text

# Options and values are short; longer text is refused before the engine reads it.
MAX_TEXT = 200


@login_required
@require_GET
def deal_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The deal opened up, and the what-if form with its answer when one was asked."""
    session, role = session_for(request, pk)
    deal = get_object_or_404(session.deals, number=number)
    rules = Rules.from_mapping(deal.rules)
    names = seat_names(session)
    option = request.GET.get("option", "")[:MAX_TEXT]
    text = request.GET.get("value", "")[:MAX_TEXT]
    answer: dict[str, Any] | None = None
    error = ""
    if option:
        try:
            answer = reports.deal_what_if(deal, option, typed_value(option, text))
        except ScoreError as exc:
            error = error_text(exc)
    if answer is not None:
        answer["rows"] = [
            {
                "name": row["name"],
                "recorded": signed(Decimal(row["recorded"])),
                "what_if": signed(Decimal(row["what_if"])),
                "difference": signed(Decimal(row["difference"])),
                "changed": row["difference"] != "0",
            }
            for row in answer["players"]
        ]
        answer["title"] = option_title(option)
        answer["value_text"] = shown_value(option, value_text(option, answer["value"]))
        answer["recorded_text"] = shown_value(option, value_text(option, answer["recorded_value"]))
    context = {
        "session": session,
        "group": session.group,
        "role": role,
        "deal": deal,
        "game_name": game_name(rules),
        "showdown": showdown(deal, names, rules),
        "pairs": pair_lines(deal, names, rules),
        "options": [
            {
                "name": name,
                "title": option_title(name),
                "current": shown_value(name, value_text(name, rules.mapping[name])),
                "sentence": option_sentence(name),
                # A choice's values are typed as they are written: each with its title.
                "choices": [
                    (choice, choice_title(name, choice))
                    for choice in OPTIONS_BY_NAME[name].choices
                    if choice_title(name, choice)
                ],
            }
            for name in options_for(rules)
        ],
        "option": option,
        "value": text,
        "answer": answer,
        "error": error,
    }
    return render(request, "web/deal.html", context, status=400 if error else 200)
