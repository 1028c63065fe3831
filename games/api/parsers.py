"""The API's JSON parser: DRF's, refusing a body nested deeper than a deal ever is.

Python's JSON decoder recurses once per level of nesting, so a body of a few thousand
``[`` raised ``RecursionError``, which DRF does not handle: a 500, with its traceback logged
at ERROR, from one small anonymous request. Here such a body is a ``ParseError`` (400
``{"error", "field"}``), as malformed JSON already is, and so is a body that decodes but
is nested deeper than ``settings.API_JSON_MAX_DEPTH`` (a deal needs 4 levels, a group's
export file about 8), so that no code after the parser walks a pathological tree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError


def too_deep(data: Any, limit: int) -> bool:
    """Whether ``data`` (decoded JSON) nests lists and objects more than ``limit`` deep;
    the outermost list or object is level 1. Walks level by level, without recursion."""
    level = [data] if isinstance(data, (dict, list)) else []
    for _ in range(limit):
        level = [
            child
            for container in level
            for child in (container.values() if isinstance(container, dict) else container)
            if isinstance(child, (dict, list))
        ]
        if not level:
            return False
    return True


def nesting_error(limit: int) -> ParseError:
    return ParseError(
        f"JSON parse error - the body is nested too deeply: at most {limit} levels of "
        "lists and objects are read."
    )


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with a cap on nesting (``settings.API_JSON_MAX_DEPTH``)."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit: int = settings.API_JSON_MAX_DEPTH
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise nesting_error(limit) from None
        if too_deep(data, limit):
            raise nesting_error(limit)
        return data
