"""``manage.py render_document``: a sheet or a ledger straight to a file."""

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import reports
from games.models import Document, Player, Session
from tests.pdf.conftest import pdf_text


def test_a_sheet_to_a_file(night: Session, tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    err = io.StringIO()

    call_command("render_document", "sheet", str(night.pk), "-o", str(target), stderr=err)

    text = pdf_text(target.read_bytes())
    assert "Friday club: settlement sheet" in text
    for transfer in reports.settlement(night)["fewest_transfers"]:
        assert f"{transfer['from']} pays {transfer['to']} {transfer['amount']:.2f} EUR" in text
    assert err.getvalue().startswith(f"wrote {target} (")
    assert not Document.objects.exists()  # no row, no worker


def test_a_ledger_by_player_name_to_standard_output(
    night: Session, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    call_command(
        "render_document",
        "ledger",
        str(night.pk),
        "--player",
        "Ann",
        "--paper",
        "Letter",
        "-o",
        "-",
    )

    text = pdf_text(capfdbinary.readouterr().out)
    assert "Ann: ledger against each opponent" in text
    assert "Di pays Ann 6.25 EUR" in text


def test_a_ledger_by_player_id_to_the_default_name(
    night: Session, players: dict[str, Player], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    call_command(
        "render_document", "ledger", str(night.pk), "--player", str(players["Cy"].pk),
        stderr=io.StringIO(),
    )  # fmt: skip

    written = tmp_path / f"ledger-{night.pk}-{players['Cy'].pk}.pdf"
    assert "Cy: ledger against each opponent" in pdf_text(written.read_bytes())


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["sheet", "999999"], "there is no session 999999"),
        (["ledger", "{session}"], "a ledger needs --player (an id, or a name at the session)"),
        (["ledger", "{session}", "--player", "Eve"], "no player 'Eve' sat at session {session}"),
        (["sheet", "{session}", "--player", "Ann"], "--player is for ledgers only"),
        (["sheet", "{session}", "-o", "/nonexistent/dir/x.pdf"], "cannot write /nonexistent"),
    ],
)
def test_errors_say_what_is_wrong(night: Session, arguments: list[str], message: str) -> None:
    filled = [argument.format(session=night.pk) for argument in arguments]

    with pytest.raises(CommandError) as raised:
        call_command("render_document", *filled)

    assert str(raised.value).startswith(message.format(session=night.pk))
