"""A seat's entry checked as it is typed, for that seat alone (``POST .../check/``).

The live table's side of the deal form's preview: ``games.web.entry`` reads the one entry
as it reads a seat of the form, so both name each row's hand, its progress or its error,
and a foul with the engine's reason, in the same words. Only the entry sent and the
session's rules are read (no seat's stored entry, this one's included) and nothing is
written, so no answer can tell anyone another seat's cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from games.engine import ScoreError
from games.engine.games import descriptor_for
from games.errors import NoSuchObject
from games.live.cards import CARD_FIELDS
from games.live.table import Actor, checked_entry
from games.models import Session
from games.permissions import NotAllowed
from games.present import natural_name
from games.web.common import session_rules
from games.web.entry import analyse, entries_from_request, lay_out_naturals


def check_entry(session: Session, seat: int, entry: object, actor: Actor) -> dict[str, Any]:
    """What ``entry`` makes of seat ``seat``'s hand (``SEAT_CHECK``), for whoever may save
    the seat's draft: its seat link's holder, or a member."""
    name = _seat_name(session, seat, actor)
    typed = entries_from_request(
        [{**_as_text(checked_entry(entry, complete=False)), "name": name}], [name]
    )
    rules = session_rules(session)
    if descriptor_for(rules).has_naturals:
        lay_out_naturals(typed, rules)
    seen = analyse(typed, rules)[0]
    declared = typed[0]
    return {
        "seat": seat,
        "player": name,
        "rows": {
            row: {
                "cards": fb.cards,
                "label": fb.label,
                "progress": fb.progress,
                "error": fb.error,
                "duplicate": fb.duplicate,
            }
            for row, fb in seen.rows.items()
        },
        # A hand declared not shown is fouled whatever its rows: they are never scored.
        "foul": "" if declared.not_shown else seen.foul,
        "natural": (
            {"code": declared.natural, "name": natural_name(declared.natural, rules)}
            if declared.natural
            else None
        ),
        "surrender": declared.surrender,
        "not_shown": declared.not_shown,
        "sat_out": seen.sat_out,
    }


def _seat_name(session: Session, seat: int, actor: Actor) -> str:
    """The name seat ``seat`` sat down with, once ``actor`` may write its draft."""
    name = session.seats.filter(seat=seat).values_list("name", flat=True).first()
    if name is None:
        raise NoSuchObject(
            _("seat %(seat)s: no such seat at this session") % {"seat": seat}, "seat"
        )
    if actor.seat is not None and actor.seat.seat != seat:
        raise NotAllowed(_("this seat link is for %(name)s's seat") % {"name": actor.seat.name})
    return name


def _as_text(entry: Mapping[str, Any] | None) -> dict[str, Any]:
    """The entry with its cards as text (a list of strings is read as one text, as the
    engine reads it); a natural's name must be text too."""
    out = dict(entry or {})
    for field in CARD_FIELDS:
        value = out.get(field)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            out[field] = " ".join(value)
        elif value is not None and not isinstance(value, str):
            raise ScoreError(
                _("entry.%(field)s: expected a card string, got %(kind)s")
                % {"field": field, "kind": type(value).__name__},
                f"entry.{field}",
            )
    natural = out.get("natural")
    if natural is not None and not isinstance(natural, str):
        raise ScoreError(_("entry.natural: expected a natural's name"), "entry.natural")
    return out


# The answer's shape, for the OpenAPI schema (``check_entry`` builds the answer itself).
ROW_CHECK = inline_serializer(
    "RowCheck",
    {
        "cards": serializers.ListField(
            child=serializers.DictField(), help_text="the cards read: rank, suit, red, text"
        ),
        "label": serializers.CharField(help_text="the hand's name once the row is full"),
        "progress": serializers.CharField(help_text='a row still being filled: "2 of 5"'),
        "error": serializers.CharField(help_text="what is wrong with the row as typed"),
        "duplicate": serializers.CharField(help_text="a card given twice in this seat's rows"),
    },
)
SEAT_CHECK = inline_serializer(
    "SeatCheck",
    {
        "seat": serializers.IntegerField(),
        "player": serializers.CharField(),
        "rows": serializers.DictField(
            child=ROW_CHECK, help_text="front, middle and back (Big Two: cards)"
        ),
        "foul": serializers.CharField(
            help_text="the engine's foul reason for three complete rows, or empty"
        ),
        "natural": inline_serializer(
            "DeclaredNatural",
            {
                "code": serializers.CharField(help_text="as the deal format names it"),
                "name": serializers.CharField(help_text="as people read it"),
            },
            allow_null=True,
        ),
        "surrender": serializers.BooleanField(),
        "not_shown": serializers.BooleanField(help_text="declared fouled, not shown"),
        "sat_out": serializers.BooleanField(),
    },
)
