"""Reports as JSON-ready data."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from games.engine.rules import decimal_text


def jsonable(value: Any) -> Any:
    """The report with every Decimal as its plain text ("7.5", "-3"), dates as ISO text."""
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    return value
