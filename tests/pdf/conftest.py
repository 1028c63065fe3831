"""The hand-worked night of tests/services (and a random 40-deal one), and PDFs read back.

Rendered files go to a temporary MEDIA_ROOT per test.
"""

import io
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from pypdf import PdfReader

from games import services
from games.models import Group, Player, Session
from tests.pdf.night import play_random_night
from tests.reports import conftest as report_fixtures

ann_user = report_fixtures.ann_user
bob_user = report_fixtures.bob_user
stranger = report_fixtures.stranger
group = report_fixtures.group
players = report_fixtures.players
session = report_fixtures.session
night = report_fixtures.night


@pytest.fixture(autouse=True)
def media_root(settings: Any, tmp_path: Path) -> Path:
    root: Path = tmp_path / "media"
    settings.MEDIA_ROOT = root
    return root


@pytest.fixture
def random_night(group: Group, players: dict[str, Player], ann_user: User) -> Session:
    """Forty random deals at Ann's, Ann and Di at twice the unit."""
    services.set_pair_stake(group, players["Ann"], players["Di"], 2, by=ann_user)
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, seats, ann_user, place="Cy's flat")
    play_random_night(session, ann_user, deals=40, seed=7)
    return session


def pdf_text(content: bytes) -> str:
    """The text of every page of a PDF, pages joined by newlines."""
    assert content.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


def pdf_pages(content: bytes) -> int:
    return len(PdfReader(io.BytesIO(content)).pages)


def amount(text: str) -> Decimal:
    """A signed amount as printed ("+7.5", "-3.75", "0")."""
    return Decimal(text)


TRANSFER = re.compile(r"^(\S+) pays (\S+) ([0-9.]+) ([A-Z]{3})$", re.MULTILINE)
