"""The settings live.js reads from a page (a JSON data block: the CSP runs no inline
script): where the live API and the WebSocket are, and the rules to arrange cards by."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.engine.games import GAMES
from games.models import Session


def live_config(session: Session, **extra: Any) -> dict[str, Any]:
    """The seat's page adds its ``token`` and ``seat``; the members' page ``host``; the
    scoreboard ``scoreboard`` (it only refetches itself when the deals change)."""
    config = {
        "session": session.pk,
        # The live API (games.live.api): STATE, and each seat's writes under it.
        "api": f"/api/v1/sessions/{session.pk}/live/",
        "arrange": reverse("api:arrange"),
        "ws": f"/ws/sessions/{session.pk}/",
        **extra,
    }
    if "token" in extra:
        config["rules"] = session.rules
    # The cards a seat enters, for "entering 7/13"; Big Two counts cards left (no total).
    config["hand_size"] = None if GAMES[session.game].shape == "leftovers" else 13
    return config
