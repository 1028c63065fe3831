"""Dates and amounts as the active language writes them, for the templates:
``{{ s.date|day }}`` ("Dec 6, 2026", "6 thg 12, 2026"), ``{{ s.date|day:"MMMEd" }}``
("Sun, Dec 6"), ``{{ m.merged_at|moment }}`` ("Dec 6, 2026, 9:40 PM"),
``{{ p.amount|amount:group.currency }}`` ("1,300,000 VND"). The same ``games.present``
functions write the dates and amounts of the views and the sheets."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django import template

from games import present

register = template.Library()


@register.filter
def day(value: datetime.date | None, style: str = "medium") -> str:
    return present.day(value, style)


@register.filter
def moment(value: datetime.datetime | None, style: str = "medium") -> str:
    return present.moment(value, style)


@register.filter
def amount(value: Decimal, currency: str) -> str:
    return present.money_in(value, currency, sign=False)
