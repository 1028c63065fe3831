"""Players who sit a deal out, read in one place.

A stored deal's ``players`` may hold ``{"name": "Di", "sat_out": true}`` for a seated
player who was not dealt in. The engine never sees such an entry: it scores the players
who played, and an error it raises is renumbered to the entry's place in the request as
sent, so ``players[2].middle`` still points at what the client wrote.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from django.utils.translation import gettext as _

from games.engine import ScoreError, score_request

SAT_OUT = "sat_out"
_INDEX = re.compile(r"^players\[(\d+)\]")


def is_sat_out(entry: object) -> bool:
    """Whether a request's player entry says the player sat the deal out."""
    return isinstance(entry, Mapping) and entry.get(SAT_OUT) is True


def _well_formed(entry: object) -> bool:
    return (
        isinstance(entry, Mapping)
        and isinstance(entry.get("name"), str)
        and entry["name"].strip() != ""
    )


class Playing(NamedTuple):
    """The entries the engine scores, and each one's index in the request."""

    players: list[Any]
    positions: list[int]


def playing(players: Sequence[Any]) -> Playing:
    """The players who played, without the entries of those who sat out.

    A ``sat_out`` entry must be ``true`` or ``false`` and, when true, carry nothing but the
    name (ScoreError naming the entry); ``"sat_out": false`` is dropped from the entry. When
    an entry is malformed (no object, no name) nothing is left out, so that the engine
    names it at its place in its own words.
    """
    if not all(_well_formed(entry) for entry in players):
        return Playing(list(players), list(range(len(players))))
    kept: list[Any] = []
    positions: list[int] = []
    for k, entry in enumerate(players):
        name = entry["name"].strip()
        if SAT_OUT in entry:
            flag = entry[SAT_OUT]
            if not isinstance(flag, bool):
                raise ScoreError(
                    _("%(name)s: sat_out must be true or false") % {"name": name},
                    f"players[{k}].{SAT_OUT}",
                )
            extra = [key for key in entry if key not in ("name", SAT_OUT)]
            if flag and extra:
                raise ScoreError(
                    _("%(name)s sat this deal out: give only the name with sat_out (not %(key)s)")
                    % {"name": name, "key": repr(extra[0])},
                    f"players[{k}].{extra[0]}",
                )
            if flag:
                continue
            entry = {key: value for key, value in entry.items() if key != SAT_OUT}
        kept.append(entry)
        positions.append(k)
    sitting_out = len(players) - len(kept)
    if sitting_out and len(kept) < 2:
        raise ScoreError(
            _("players: a deal needs at least two players playing; %(out)s of %(all)s sat it out")
            % {"out": sitting_out, "all": len(players)},
            "players",
        )
    return Playing(kept, positions)


def engine_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """A stored request (or a score request) as the engine reads it: sat-out entries left
    out. A request whose ``players`` is no list is returned as it is."""
    players = request.get("players")
    if not isinstance(players, list):
        return dict(request)
    return {**request, "players": playing(players).players}


def renumbered(error: ScoreError, positions: Sequence[int]) -> ScoreError:
    """The engine's error with ``players[j]`` turned into the entry's index in the request."""
    match = _INDEX.match(error.field or "")
    if match is None or int(match.group(1)) >= len(positions):
        return error
    k = positions[int(match.group(1))]
    field = f"players[{k}]" + (error.field or "")[match.end() :]
    return ScoreError(error.message, field, error.code)


def score_playing(request: Mapping[str, Any]) -> dict[str, Any]:
    """``score_request`` of the players who played, errors naming the request's entries."""
    players = request.get("players")
    if not isinstance(players, list):
        return score_request(request)
    kept, positions = playing(players)
    try:
        return score_request({**request, "players": kept})
    except ScoreError as error:
        raise renumbered(error, positions) from None
