"""Deal-entry form data built from the hands of ``tests/services/hands.py``."""

from typing import Any

from tests.services.hands import HANDS

SEATS = ("Ann", "Bob", "Cy", "Di")


def deal_form(**holding: str) -> dict[str, Any]:
    """Form fields for a deal: deal_form(Ann="A", Bob="B", ...) seats Ann with hand A."""
    data: dict[str, Any] = {}
    for name, hand in holding.items():
        k = SEATS.index(name)
        for row, cards in HANDS[hand].items():
            data[f"p{k}-{row}"] = cards
    return data
