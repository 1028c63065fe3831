"""The players of a deal as sent, checked before the engine reads them: a body that is no
deal at all, names against the session's seats, every seat accounted for (playing or
sitting out), and fantasy land filled in for those who play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.engine import ScoreError
from games.engine.errors import message
from games.sitting_out import SAT_OUT, is_sat_out, playing


def check_shape(request_players: object) -> None:
    """ScoreError unless ``players`` is a list of objects: a body that is no deal at all is
    refused as such (400) before its idempotency key is looked up."""
    if not isinstance(request_players, list):
        raise ScoreError.refused("players_required", "players")
    for k, entry in enumerate(request_players):
        if not isinstance(entry, Mapping):
            raise ScoreError.refused(
                "not_object", f"players[{k}]", what=message("subject_player_number", number=k + 1)
            )


def checked_players(
    request_players: object, seated: Mapping[str, int], fantasy: Mapping[str, int]
) -> list[dict[str, Any]]:
    """The players list as stored: names checked against the seats, every seat accounted
    for (playing or ``sat_out``), fantasy land filled in for those who play.

    Entries the engine would reject (no name, not an object) are passed on untouched for
    it to report in its own words.
    """
    if not isinstance(request_players, list):
        raise ScoreError.refused("players_required", "players")
    players: list[dict[str, Any]] = []
    named: set[str] = set()
    for k, entry in enumerate(request_players):
        name = entry.get("name") if isinstance(entry, Mapping) else None
        if not isinstance(name, str) or not name.strip():
            players.append(entry)
            continue
        name = name.strip()
        if name not in seated:
            raise ScoreError(
                _("%(name)s is not seated in this session (seated: %(seated)s)")
                % {"name": name, "seated": ", ".join(seated)},
                f"players[{k}].name",
            )
        if name in named:
            raise ScoreError.refused("name_twice", f"players[{k}].name", name=repr(name))
        named.add(name)
        player = {**entry, "name": name}
        if entry.get(SAT_OUT) is False:
            del player[SAT_OUT]
        elif fantasy and "in_fantasyland" not in player and not is_sat_out(player):
            # True, or (progressive fantasy land) the number of cards dealt
            player["in_fantasyland"] = fantasy.get(name, False)
        players.append(player)
    missing = [name for name in seated if name not in named]
    if missing and len(named) == len(players):  # (a malformed entry is the engine's to name)
        sat_out = f'{{"name": "{missing[0]}", "sat_out": true}}'
        if len(missing) == 1:
            text = _(
                "players: %(who)s is seated but not in this deal: give the hand, or"
                " %(sat_out)s for a player who sat it out"
            ) % {"who": missing[0], "sat_out": sat_out}
        else:
            text = _(
                "players: %(who)s and %(last)s are seated but not in this deal: give their"
                " hands, or %(sat_out)s for a player who sat it out"
            ) % {"who": ", ".join(missing[:-1]), "last": missing[-1], "sat_out": sat_out}
        raise ScoreError(text, "players")
    playing(players)  # a sat_out entry that is not true or false, or carries cards
    return players
