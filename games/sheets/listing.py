"""The settlement sheet's deal-by-deal listing: a line per deal with each player's units and
marks, then its notes (fouls, surrenders, naturals, scoops, corrections), and the totals.

Set as monospaced text by ``games.sheets.monospace``; the notes are in the language being rendered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.engine.games import player_hands
from games.engine.rules import Rules
from games.models import Deal
from games.present import natural_name, signed
from games.sheets.monospace import Column, display_width, mono_blocks, pad


def _scoops(result: Mapping[str, Any]) -> dict[str, list[str]]:
    """Who scooped whom in a deal's result (Criss Cross: per hand)."""
    scoops: dict[str, list[str]] = {}
    for pair in result.get("pairs", ()):
        for hand in player_hands(pair):
            winner = hand.get("scoop")
            if winner:
                loser = next(name for name in pair["players"] if name != winner)
                scoops.setdefault(winner, []).append(loser)
    return scoops


def _player_notes(
    name: str, player: Mapping[str, Any], rules: Rules, scooped: Sequence[str]
) -> tuple[str, list[str]]:
    """One player's marks on a deal's line, and the notes that explain them."""
    marks, notes = [], []
    if player.get("fouled"):
        marks.append("F")
        false = player.get("false_natural")
        if false:
            notes.append(
                _("%(name)s: false %(natural)s")
                % {"name": name, "natural": natural_name(false, rules)}
            )
        else:
            notes.append(_("%(name)s fouls") % {"name": name})
    if player.get("surrendered"):
        marks.append("X")
        notes.append(_("%(name)s surrenders") % {"name": name})
    for hand in player_hands(player):
        if hand.get("natural"):
            marks.append("N")
            notes.append(f"{name}: {natural_name(hand['natural'], rules)}")
    if scooped:
        marks.append("S" if len(scooped) == 1 else f"S{len(scooped)}")
        notes.append(_("%(name)s scoops %(losers)s") % {"name": name, "losers": "+".join(scooped)})
    if player.get("fantasyland_next"):
        marks.append("L")
    return "".join(marks), notes


def _deal_cells(
    deal: Deal, names: Sequence[str], rules: Rules, changed: Mapping[int, str]
) -> list[str]:
    """A deal's line of the deal-by-deal listing: each player's units and marks, then notes
    (a correction or a void with its reason first, as ``changed`` gives them)."""
    number = str(deal.number)
    if deal.status == Deal.Status.VOID:
        void = changed.get(deal.number, _("void: counts nowhere"))
        return [number, *("" for _name in names), void]
    by_name = {player["name"]: player for player in deal.result["players"]}
    scoops = _scoops(deal.result)
    cells, notes = [number], []
    for name in names:
        player = by_name.get(name)
        if player is None:
            cells.append("")
            continue
        marks, player_notes = _player_notes(name, player, rules, scoops.get(name, ()))
        notes.extend(player_notes)
        cells.append(f"{signed(Decimal(player['units'])):>7} {marks:<3}")
    if deal.number in changed:
        notes.insert(0, changed[deal.number])
    cells.append("; ".join(notes))
    return cells


def _name_title(name: str) -> str:
    """A player's column title: the name (10 cells at most) over the units, right-aligned
    to their 7 cells, counted as the listing counts them (a Chinese character takes two)."""
    name = pad(name, 10, "<").rstrip()
    return pad(name, max(7, display_width(name)))


def deal_blocks(
    deals: Sequence[Deal],
    names: Sequence[str],
    rules: Rules,
    totals: Sequence[Mapping[str, Any]],
    changed: Mapping[int, str],
) -> list[SafeString]:
    """The deal-by-deal listing as monospaced blocks, its totals on the last line."""
    columns = [
        Column(_("Deal"), 5),
        *(Column(_name_title(name), 11, "<") for name in names),
        Column(_("Notes"), 0, "<"),
    ]
    rows = [_deal_cells(deal, names, rules, changed) for deal in deals]
    total = [_("Total"), *(f"{row['units']:>7}    " for row in totals), _("units")]
    return mono_blocks(columns, rows, total)
