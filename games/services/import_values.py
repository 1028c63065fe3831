"""The values of a group export, each read at its path and checked as the services check
what the API is sent.

Every reader takes a value and the path it sits at in the file (``sessions[2].deals[7]``)
and gives back what may be stored, or raises ``ImportRefused`` with a message that starts
with that path and names it as its ``field``. Amounts and currencies go through
``games.services.checks``, rules through ``Rules.from_mapping``, and requests are scored
again by the engine. ``games.services.import_checks`` reads the document's parts with them.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from decimal import Decimal
from typing import Any, NoReturn

from django.db import models
from django.utils import timezone

from games.engine import Rules, ScoreError
from games.errors import ImportRefused, ServiceError
from games.lib.jsonfile import LazyArray
from games.models import Deal, LedgerEntry
from games.services import checks, names, texts
from games.services.deals import ledger_entries
from games.sitting_out import score_playing


def refuse(path: str, message: str) -> NoReturn:
    raise ImportRefused(f"{path}: {message}", path)


def at(path: str, key: str | int) -> str:
    """The path of a key or an index below ``path``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


# --- plain values ------------------------------------------------------------------------------


def mapping(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        refuse(path, f"expected an object, got {shown(value)}")
    return value


def items(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Each element of a list with its path; a lazily read one is read as it goes."""
    if not isinstance(value, (list, LazyArray)):
        refuse(path, f"expected a list, got {shown(value)}")
    for k, item in enumerate(value):
        yield at(path, k), item


def required(entry: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in entry:
        refuse(at(path, key), "missing")
    return entry[key]


# NUL, which PostgreSQL cannot keep in text, and halves of surrogate pairs, which are no
# text at all: the API's fields refuse both.
_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def text(value: Any, path: str, *, max_length: int | None = None) -> str:
    if not isinstance(value, str):
        refuse(path, f"expected text, got {shown(value)}")
    bad = _NOT_TEXT.search(value)
    if bad is not None:
        what = "a control character (NUL)" if bad.group() == "\x00" else "a broken character"
        refuse(path, f"contains {what} at position {bad.start() + 1}")
    if max_length is not None and len(value) > max_length:
        refuse(path, f"at most {max_length} characters, got {len(value)}")
    return value


def free_text(
    value: Any, path: str, *, max_length: int | None = None, multiline: bool = False
) -> str:
    """A note, a reason or a night's notes as the services store it (``games.services.texts``).
    An export made before the text policy may hold a line break, a tab or an invisible
    character there: it is tidied as the stored text was (``texts.tidy``), not refused, so
    that an older export still imports whole; what is not text, or is too long, is refused."""
    if isinstance(value, str):
        value = texts.tidy(value, multiline=multiline)
    try:
        return texts.clean(value, path, max_length=max_length, multiline=multiline)
    except ServiceError as error:
        raise ImportRefused(error.message, path) from None


def limit(model: type[models.Model], name: str) -> int:
    """A model field's max_length."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.CharField) and field.max_length is not None
    return field.max_length


def name(value: Any, path: str, max_length: int, *, required: bool = True) -> str:
    """A player's or a seat's name (or a place: ``required=False``), as the services store
    it: ``games.services.names`` says how."""
    value = text(value, path, max_length=max_length)
    try:
        stored = names.clean(value, path, max_length=max_length, required=required)
    except ServiceError as error:
        refuse(path, str(error).removeprefix(f"{path}: "))
    if stored != value:
        if value != value.strip():
            refuse(path, f"no spaces at either end of a name: {value!r}")
        if " ".join(value.split()) != value:
            refuse(path, f"one space between words in a name: {value!r}")
        refuse(path, f"{value!r} is not written as a name is stored (NFKC): {stored!r}")
    return value


def username(value: Any, path: str) -> str | None:
    if value is not None and not isinstance(value, str):
        refuse(path, f"expected a username or null, got {shown(value)}")
    return None if value is None else text(value, path, max_length=150)


def choice(value: Any, path: str, choices: Collection[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        refuse(path, f"{shown(value)} is not one of {', '.join(choices)}")
    return value


def whole(value: Any, path: str, expected: int, why: str = "") -> int:
    """A whole number that must be ``expected`` (a number in a sequence, a version)."""
    if type(value) is not int or value != expected:
        refuse(path, f"expected {expected}{why}, got {shown(value)}")
    return value


def amount(value: Any, path: str, model: type[models.Model], field: str) -> Decimal:
    """A unit value, a multiple or a target: at least 0, at most 4 decimal places (as
    ``checks.amount`` says), and small enough for the model's column."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        refuse(path, f"expected a number, got {shown(value)}")
    if isinstance(value, str):
        text(value, path, max_length=100)
    try:
        number = checks.amount(str(value) if isinstance(value, float) else value, path)
    except ServiceError as exc:
        raise ImportRefused(exc.message, path) from None
    column = model._meta.get_field(field)
    assert isinstance(column, models.DecimalField)
    assert column.max_digits is not None and column.decimal_places is not None
    top = 10 ** (column.max_digits - column.decimal_places)
    if number >= top:
        refuse(path, f"expected a number below {top}, got {value!r}")
    return number


def stake(value: Any, path: str, check: Callable[[object, str], Decimal]) -> Decimal:
    """The group's unit value or a pair's multiple, within the bounds the services set
    them with (``checks.unit_value``, ``checks.multiplier``): later deals are played at it."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        refuse(path, f"expected a number, got {shown(value)}")
    if isinstance(value, str):
        text(value, path, max_length=100)
    try:
        return check(str(value) if isinstance(value, float) else value, path)
    except ServiceError as exc:
        reason = exc.message.partition(": ")[2] or exc.message
        raise ImportRefused(f"{path}: {reason}", path) from None


def currency(value: Any, path: str) -> str:
    try:
        return checks.currency(text(value, path))
    except ServiceError as exc:
        raise ImportRefused(f"{path}: {_after_field(exc.message, exc.field)}", path) from None


def date(value: Any, path: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text(value, path, max_length=10))
    except ValueError:
        refuse(path, f"expected a date such as 2026-12-01, got {value!r}")


def moment(value: Any, path: str) -> datetime.datetime | None:
    """A date and time, null allowed; one without a UTC offset is taken as UTC."""
    if value is None:
        return None
    try:
        when = datetime.datetime.fromisoformat(text(value, path, max_length=40))
    except ValueError:
        refuse(path, f"expected a date and time such as 2026-12-01T21:30:00+00:00, got {value!r}")
    return when if timezone.is_aware(when) else when.replace(tzinfo=datetime.UTC)


def clean(value: Any, path: str) -> None:
    """JSON kept as the file gives it (a spec, a request): only text the database keeps."""
    if isinstance(value, str):
        text(value, path)
    elif isinstance(value, float) and not math.isfinite(value):
        refuse(path, f"expected a number, got {value!r}")
    elif isinstance(value, Mapping):
        for key, inner in value.items():
            text(key, path)
            clean(inner, at(path, key))
    elif isinstance(value, list):
        for k, inner in enumerate(value):
            clean(inner, at(path, k))


def shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else f"{shown[:37]}..."


def _after_field(message: str, field: str | None) -> str:
    """The message without the field it starts with, which the path replaces."""
    if field and message.startswith(f"{field}: "):
        return message[len(field) + 2 :]
    return message


# --- rules and scoring --------------------------------------------------------------------------


def rules(spec: Any, path: str, *, limits: bool = False) -> Rules:
    """The rules a spec (or a stored rules mapping) resolves to, as ``Rules.from_mapping``
    (``limits``: rules later deals are played under, within the bounds of rules being set)."""
    clean(spec, path)
    try:
        return Rules.from_mapping(spec, limits=limits)
    except ScoreError as exc:
        field = exc.field or "rules"
        if isinstance(spec, str) or field == "rules":
            where = path
        else:
            where = path + field.removeprefix("rules")
        raise ImportRefused(f"{where}: {_after_field(exc.message, exc.field)}", where) from None


def request(value: Any, path: str, seats: Collection[str]) -> Mapping[str, Any]:
    """A deal's stored request (its players and stakes): the seats' names, stakes as
    decimal text, as the services store it; the engine checks the rest when scoring."""
    value = mapping(value, path)
    clean(value, path)  # first: a path below names the file's own keys
    for key in value:
        if key not in ("players", "stakes"):
            refuse(at(path, key), f"unknown field {shown(key)} (allowed: players, stakes)")
    entries = value.get("players")
    if isinstance(entries, list):
        for k, entry in enumerate(entries):
            seat = entry.get("name") if isinstance(entry, Mapping) else None
            if isinstance(seat, str) and seat not in seats:
                refuse(
                    at(at(at(path, "players"), k), "name"),
                    f"{shown(seat)} is not seated in this session (seated: {', '.join(seats)})",
                )
    stakes = value.get("stakes")
    if isinstance(stakes, Mapping):
        _decimal_text(stakes, "unit_value", at(path, "stakes"))
        pairs = stakes.get("pairs")
        for k, pair in enumerate(pairs if isinstance(pairs, list) else ()):
            if isinstance(pair, Mapping):
                _decimal_text(pair, "multiplier", at(at(at(path, "stakes"), "pairs"), k))
    return value


def _decimal_text(entry: Mapping[str, Any], key: str, path: str) -> None:
    if key in entry and not isinstance(entry[key], str):
        refuse(at(path, key), f'expected decimal text such as "0.5", got {shown(entry[key])}')


def rescored(
    deal_request: Mapping[str, Any],
    rules_mapping: Mapping[str, Any],
    path: str,
    stored: Any,
    ledger_of: tuple[Deal, Mapping[str, int]] | None = None,
) -> tuple[dict[str, Any], list[LedgerEntry]]:
    """The engine's result for a request found at ``path``, which must be ``stored``, and
    the ledger rows it gives (``ledger_of``: for this deal, with these seats' player ids);
    the ledger must be able to keep its amounts exactly, as when a deal is recorded."""
    try:
        result = score_playing({"rules": rules_mapping, **deal_request})
        if ledger_of is None:
            names = {who for pair in result["pairs"] for who in pair["players"]}
            ledger_of = Deal(), dict.fromkeys(names, 0)
        ledger = ledger_entries(ledger_of[0], result, ledger_of[1])
    except ScoreError as exc:
        where = at(path, exc.field) if exc.field else path
        raise ImportRefused(f"{where}: {_after_field(exc.message, exc.field)}", where) from None
    if result != stored:
        refuse(
            path.removesuffix("request") + "result",
            "scored again under its rules, its request does not give its stored result",
        )
    return result, ledger
