"""The deal-entry form: what was typed per seat, the request it makes, and live feedback.

The same code reads a plain form POST (saving without JavaScript) and the preview the
page's script asks for while a player types, so both show the same hands, fouls and
duplicate warnings. Every hand name, foul reason and unit comes from the engine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from games.engine import Rules, ScoreError
from games.engine.arrangement import Hand13, arrange_expected, arrange_heuristic
from games.engine.cards import Card, CardError, card_text, cards_text
from games.engine.cards import parse_cards as engine_parse_cards
from games.engine.games import Descriptor, descriptor_for
from games.engine.ranking import five_card_evaluator, hand_code, three_card_evaluator
from games.engine.request import ROW_SIZES
from games.engine.rules import NATURALS
from games.engine.scoring import Hand, score_hands
from games.present import capitalised, card_faces, natural_name, number, signed
from games.sitting_out import SAT_OUT, is_sat_out, score_playing
from games.words import card_error_text, error_text, foul_text, hand_label

ROWS = tuple(ROW_SIZES)
TEXT_FIELDS = ("front", "middle", "back", "cards13", "discards", "cards", "cards_left")
_FIELD = re.compile(r"^players\[(\d+)\]\.?(\w+)?")
_COUNT = re.compile(r"[0-9]{1,9}")  # a count of cards the form turns into a number


@dataclass
class SeatEntry:
    """What was typed for one seat, kept verbatim so nothing is lost on an error."""

    name: str
    front: str = ""
    middle: str = ""
    back: str = ""
    cards13: str = ""
    discards: str = ""
    surrender: bool = False
    natural: str = ""
    cards: str = ""  # Big Two: the cards left, if given
    cards_left: str = ""  # Big Two: their count
    pays_for_all: bool = False  # Big Two: this loser pays for all ("bao", RULES 13)
    sat_out: bool = False  # the player sits this deal out: no cards, nothing checked
    not_shown: bool = False  # the hand was declared fouled without being shown
    royalties: tuple[str, ...] = ()  # rows whose royalty was declared (royalties_declared)


@dataclass
class RowFeedback:
    text: str
    cards: list[dict[str, Any]] = field(default_factory=list)
    label: str = ""
    error: str = ""
    duplicate: str = ""
    progress: str = ""  # a row still being filled: "2 of 5", not an error yet


@dataclass
class SeatFeedback:
    name: str
    rows: dict[str, RowFeedback] = field(default_factory=dict)
    foul: str = ""
    error: str = ""  # an error of the whole seat (surrender not allowed, a count...)
    sat_out: bool = False


def prefix(k: int) -> str:
    """The form-field prefix of seat ``k`` (0-based)."""
    return f"p{k}-"


def read_entries(data: Mapping[str, Any], names: Sequence[str]) -> list[SeatEntry]:
    """The seats' entries from form data (a QueryDict or a plain mapping)."""
    entries = []
    for k, name in enumerate(names):
        p = prefix(k)
        values = {f: str(data.get(p + f, "") or "") for f in TEXT_FIELDS}
        entries.append(
            SeatEntry(
                name=name,
                surrender=bool(data.get(p + "surrender")),
                natural=str(data.get(p + "natural", "") or ""),
                sat_out=bool(data.get(p + SAT_OUT)),
                not_shown=bool(data.get(p + "fouled")),
                royalties=tuple(row for row in ROWS if data.get(f"{p}royalty-{row}")),
                pays_for_all=bool(data.get(p + "pays_for_all")),
                **values,
            )
        )
    return entries


def entries_from_request(
    players: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> list[SeatEntry]:
    """A stored deal's ``players`` as form entries (to edit it). A seat the deal has no
    entry for (stored before sitting out was said) sat it out."""
    by_name = {p.get("name"): p for p in players}
    entries = []
    for name in names:
        p = by_name.get(name, {SAT_OUT: True})
        left = p.get("cards_left")
        natural_cards = p.get("cards") if p.get("natural") else None  # a natural's 13 cards
        entries.append(
            SeatEntry(
                name=name,
                front=p.get("front") or "",
                middle=p.get("middle") or "",
                back=p.get("back") or "",
                discards=p.get("discards") or "",
                surrender=bool(p.get("surrender")),
                natural=p.get("natural") or "",
                cards="" if natural_cards else p.get("cards") or "",
                cards13=natural_cards or "",
                cards_left="" if left is None else str(left),
                sat_out=is_sat_out(p),
                not_shown=p.get("fouled") is True,
                royalties=tuple(p.get("royalties") or ()),
                pays_for_all=p.get("pays_for_all") is True,
            )
        )
    return entries


def request_players(
    entries: Sequence[SeatEntry], game: Descriptor, fantasy: Mapping[str, int] | None = None
) -> list[dict[str, Any]]:
    """The request's ``players`` list: blank fields are left out for the engine to name; a
    seat that sits the deal out is its name and ``sat_out``, whatever was typed for it."""
    players = []
    for entry in entries:
        player: dict[str, Any] = {"name": entry.name}
        if entry.sat_out:
            player[SAT_OUT] = True
        elif entry.not_shown and game.shape != "leftovers":
            player["fouled"] = True  # a hand not shown: whatever was typed is not sent
            if game.has_fantasyland and fantasy is not None:
                player["in_fantasyland"] = fantasy.get(entry.name, False)
        elif game.shape == "leftovers":
            if entry.cards.strip():
                player["cards"] = entry.cards
            if entry.cards_left.strip():
                count = entry.cards_left.strip()
                # Anything but plain digits goes as typed, for the engine to refuse.
                player["cards_left"] = int(count) if _COUNT.fullmatch(count) else count
            if entry.pays_for_all:
                player["pays_for_all"] = True
        else:
            rows = {row: getattr(entry, row) for row in ROWS if getattr(entry, row).strip()}
            if entry.natural and not rows and entry.cards13.strip():
                player["cards"] = entry.cards13  # a natural declared with its 13 cards
            if entry.surrender:
                player["surrender"] = True
                if len(rows) == 3:
                    player.update(rows)
            else:
                player.update(rows)
            if entry.natural:
                player["natural"] = entry.natural
            if entry.royalties:
                player["royalties"] = list(entry.royalties)
            if game.has_discards and entry.discards.strip():
                player["discards"] = entry.discards
            if game.has_fantasyland and fantasy is not None:
                player["in_fantasyland"] = fantasy.get(entry.name, False)  # cards dealt
        players.append(player)
    return players


def _row_label(cards: tuple[Card, ...], row: str, rules: Rules) -> str:
    lowball = row == "middle" and rules.middle == "lowball-2-7"
    if row == "front":
        return hand_label(hand_code(three_card_evaluator()(cards), 3, rules.wheel))
    wheel = "none" if lowball else rules.wheel
    return hand_label(hand_code(five_card_evaluator(wheel)(cards), 5, wheel, low=lowball))


def _seat_rows(entry: SeatEntry, rules: Rules) -> tuple[SeatFeedback, dict[str, tuple[Card, ...]]]:
    seat = SeatFeedback(entry.name)
    parsed: dict[str, tuple[Card, ...]] = {}
    for row, size in ROW_SIZES.items():
        text = getattr(entry, row)
        feedback = seat.rows[row] = RowFeedback(text)
        if not text.strip():
            continue
        try:
            cards = engine_parse_cards(text)
        except CardError as error:
            feedback.error = card_error_text(error.card_error)
            continue
        feedback.cards = card_faces(cards)
        parsed[row] = cards
        if len(cards) < size:
            feedback.progress = _("%(count)s of %(size)s") % {"count": len(cards), "size": size}
        elif len(cards) > size:
            feedback.error = _("%(count)s cards given, the %(row)s row needs %(size)s") % {
                "count": len(cards),
                "row": _(row),
                "size": size,
            }
        elif len(set(cards)) == size:
            feedback.label = _row_label(cards, row, rules)
    return seat, parsed


def _foul(entry: SeatEntry, parsed: Mapping[str, tuple[Card, ...]], rules: Rules) -> str:
    """The engine's foul reason for three complete rows, or ''."""
    rows = [parsed.get(row, ()) for row in ROWS]
    if [len(r) for r in rows] != list(ROW_SIZES.values()):
        return ""
    if len(set().union(*rows)) != 13:
        return ""
    played = score_hands([Hand(entry.name, (rows[0], rows[1], rows[2]))], rules).players[0]
    code = played.foul_code
    return "" if code is None else foul_text(code, rules)


def _mark_duplicates(seats: Sequence[SeatFeedback], parsed: Sequence[Mapping[str, Any]]) -> None:
    places: dict[Card, list[tuple[int, str]]] = {}
    for k, rows in enumerate(parsed):
        for row, cards in rows.items():
            for card in cards:
                places.setdefault(card, []).append((k, row))
    for card, where in places.items():
        if len(where) < 2:
            continue
        for place, (k, row) in enumerate(where):
            others = [
                _("%(player)s's %(row)s") % {"player": seats[j].name, "row": _(other)}
                if j != k
                else _("this %(row)s row") % {"row": _(other)}
                for elsewhere, (j, other) in enumerate(where)
                if elsewhere != place  # a card twice in one row is in "this front row"
            ]
            note = _("%(card)s is also in %(places)s") % {
                "card": card_text(card),
                "places": ", ".join(dict.fromkeys(others)),
            }
            row_feedback = seats[k].rows.get(row)
            if row_feedback is not None:
                notes = [row_feedback.duplicate, note] if row_feedback.duplicate else [note]
                row_feedback.duplicate = "; ".join(dict.fromkeys(notes))


def _sitting_out(entry: SeatEntry, fields: Sequence[str]) -> SeatFeedback:
    """A seat that sits the deal out: what was typed stays, and none of it is checked."""
    rows = {name: RowFeedback(getattr(entry, name)) for name in fields}
    return SeatFeedback(entry.name, rows, sat_out=True)


def analyse(entries: Sequence[SeatEntry], rules: Rules) -> list[SeatFeedback]:
    """Per seat: each row's hand or error, a foul with its reason, cards given twice; a
    seat that sits the deal out is not checked."""
    seats: list[SeatFeedback] = []
    if descriptor_for(rules).shape == "leftovers":
        for entry in entries:
            if entry.sat_out:
                seats.append(_sitting_out(entry, ("cards",)))
                continue
            seat = SeatFeedback(entry.name)
            feedback = seat.rows["cards"] = RowFeedback(entry.cards)
            if entry.cards.strip():
                try:
                    feedback.cards = card_faces(engine_parse_cards(entry.cards))
                except CardError as error:
                    feedback.error = card_error_text(error.card_error)
            seats.append(seat)
        return seats
    parsed: list[dict[str, tuple[Card, ...]]] = []
    for entry in entries:
        if entry.sat_out:
            seats.append(_sitting_out(entry, ROWS))
            parsed.append({})
            continue
        seat, rows = _seat_rows(entry, rules)
        if not entry.surrender and not entry.natural:
            seat.foul = _foul(entry, rows, rules)
        seats.append(seat)
        parsed.append(rows)
    _mark_duplicates(seats, parsed)
    return seats


@dataclass
class Preview:
    """The whole deal scored by the engine, or the first error it found."""

    result: dict[str, Any] | None = None
    error: str = ""
    field: str | None = None

    @property
    def seat(self) -> int | None:
        """The seat the error belongs to (0-based), if it names one."""
        match = _FIELD.match(self.field or "")
        return int(match.group(1)) if match else None

    @property
    def row(self) -> str | None:
        match = _FIELD.match(self.field or "")
        return match.group(2) if match else None


def preview(players: list[dict[str, Any]], rules: Rules) -> Preview:
    """Score the deal as typed, storing nothing (seats that sit it out left out)."""
    try:
        return Preview(score_playing({"rules": rules.to_mapping(), "players": players}))
    except ScoreError as error:
        return Preview(error=error_text(error), field=error.field)


def complete(entries: Sequence[SeatEntry], game: Descriptor) -> bool:
    """Whether every seat that plays has something typed (a preview of a half-typed deal is
    noise)."""
    playing = [e for e in entries if not e.sat_out]
    if game.shape == "leftovers":
        return all(e.cards.strip() or e.cards_left.strip() for e in playing)
    return all(
        e.surrender
        or e.not_shown
        or (e.natural and e.cards13.strip())
        or all(getattr(e, row).strip() for row in ROWS)
        for e in playing
    )


# Arrange on the deal form: the engine's expected-value search, sized to answer within
# about a second on a phone's round trip (about 0.2 s of it on the server), with a fixed
# seed so that the same cards always get the same answer.
ARRANGE_SAMPLES = 1000
ARRANGE_SEED = 0


@dataclass
class Arranged:
    """A setting for 13 cards, and how it was found, in words for the table."""

    rows: tuple[str, str, str]
    how: str


def arrange(text: str, rules: Rules) -> Arranged:
    """The best legal setting of 13 cards the engine finds in about a second (ScoreError
    when they are not 13 different cards): the most expected units against sampled
    opponents in the 13-card game, else the strongest back, then middle."""
    cards = engine_parse_cards(text, "cards", "cards13")
    if len(cards) != 13 or len(set(cards)) != 13:
        raise ScoreError(
            _("13 different cards are needed, got %(count)s") % {"count": len(set(cards))},
            "cards13",
        )
    if not descriptor_for(rules).reviewed:
        return Arranged(
            arrange_heuristic(cards, rules).text(),
            _("Arranged by strength: the strongest back, then the strongest middle."),
        )
    found = arrange_expected(cards, rules, samples=ARRANGE_SAMPLES, seed=ARRANGE_SEED, top=0)
    expected = signed(Decimal(found.best.expected_units).quantize(Decimal("0.01")))
    how = _(
        "Arranged for the most expected units (%(expected)s a hand against one opponent),"
        " tried against %(samples)s random hands."
    ) % {"expected": expected, "samples": number(Decimal(ARRANGE_SAMPLES))}
    if found.natural is not None:
        how += " " + _("These cards make %(natural)s: declare it instead.") % {
            "natural": natural_name(found.natural, rules)
        }
    return Arranged(found.best.setting.text(), how)


def lay_out_naturals(entries: Sequence[SeatEntry], rules: Rules) -> None:
    """A player who declares a natural may give just the 13 cards: their empty rows are
    filled with a layout that makes the natural (the cards as given, when none does, for
    the engine to refuse the declaration in its own words)."""
    for typed in entries:
        rows = [getattr(typed, row) for row in ROWS]
        if not typed.natural or typed.sat_out or any(r.strip() for r in rows):
            continue
        try:
            cards = engine_parse_cards(typed.cards13, "cards", "cards13")
        except ScoreError:
            continue
        if len(cards) != 13 or len(set(cards)) != 13:
            continue
        made = {name: setting for name, _kind, setting in Hand13(cards, rules).naturals()}
        setting = made.get(typed.natural)
        if setting is not None:
            typed.front, typed.middle, typed.back = setting.text()
        else:
            typed.front, typed.middle, typed.back = (
                cards_text(cards[:3]),
                cards_text(cards[3:8]),
                cards_text(cards[8:]),
            )


def allowed_naturals(rules: Rules) -> list[tuple[str, str]]:
    """The naturals these rules pay, as (value, label) choices."""
    return [
        (name, capitalised(natural_name(name, rules)))
        for name in NATURALS
        if rules.naturals.get(name) is not None
    ]
