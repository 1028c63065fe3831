"""``manage.py verify_ledger``: every active deal re-scored and compared with its stored
result and its ledger rows; numbering without gaps; each kind of tampering reported.

The first test records nights through the services and verifies them: CI runs it on both
databases, so the command is proved on each.
"""

import io
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games import services
from games.engine.rules import decimal_text as shown
from games.models import Deal, Group, LedgerEntry, Player, Session
from tests.pdf.night import play_random_night


def verify(*args: str) -> tuple[str, CommandError | None]:
    """The command's output, and its error when it failed (exit status 1)."""
    out = io.StringIO()
    try:
        call_command("verify_ledger", *args, stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


@pytest.fixture
def random_night(group: Group, players: dict[str, Player], ann_user: User) -> Session:
    """Forty random deals a week later, Ann and Di at twice the unit."""
    services.set_pair_stake(group, players["Ann"], players["Di"], 2, by=ann_user)
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, seats, ann_user, place="Cy's flat")
    play_random_night(session, ann_user, deals=40, seed=3)
    return session


def test_recorded_nights_verify_clean(
    night: Session, next_night: Session, random_night: Session
) -> None:
    output, error = verify()

    assert error is None, output
    assert output.strip().splitlines() == [
        "verify_ledger: 1 group, 3 sessions, 53 deals (52 active) checked;"
        " every ledger row agrees with its deal"
    ]


def deal_of(session: Session, number: int) -> Deal:
    return session.deals.get(number=number)


def row(session: Session, number: int, a: str, b: str) -> LedgerEntry:
    return LedgerEntry.objects.get(
        deal=deal_of(session, number), player_a__name=a, player_b__name=b
    )


def where(group: Group, session: Session, number: int | None = None) -> str:
    at = f"group {group.pk} ({group.name}), session {session.pk} ({session.date})"
    return at if number is None else f"{at}, deal {number}"


def test_a_ledger_row_with_other_units_is_reported(night: Session, group: Group) -> None:
    changed = row(night, 3, "Ann", "Bob")
    LedgerEntry.objects.filter(pk=changed.pk).update(units=changed.units + 1)

    output, error = verify()

    assert error is not None and error.returncode == 1
    assert "1 mismatch" in str(error)
    assert output.splitlines() == [
        f"{where(group, night, 3)}: ledger row Ann-Bob: units {shown(changed.units + 1)}"
        f" where the result says {shown(changed.units)}"
    ]


def test_a_changed_result_is_reported(night: Session, group: Group) -> None:
    deal = deal_of(night, 2)
    result = deal.result
    result["pairs"][0]["units"] = "5"
    Deal.objects.filter(pk=deal.pk).update(result=result)

    output, error = verify()

    assert error is not None
    lines = output.splitlines()
    prefix = f"{where(group, night, 2)}: "
    assert f"{prefix}its stored result is not what its request gives under its rules" in lines
    # The ledger row was written from the true result, so it no longer agrees either.
    assert any(line.startswith(f"{prefix}ledger row ") for line in lines)


def test_a_result_whose_players_do_not_add_up_is_reported(night: Session, group: Group) -> None:
    deal = deal_of(night, 4)
    result = deal.result
    result["players"][0]["units"] = str(Decimal(result["players"][0]["units"]) + 1)
    Deal.objects.filter(pk=deal.pk).update(result=result)

    output, error = verify()

    assert error is not None
    prefix = f"{where(group, night, 4)}: "
    first = result["players"][0]
    true_units = shown(Decimal(first["units"]) - 1)
    assert output.splitlines() == [
        f"{prefix}its stored result is not what its request gives under its rules",
        f"{prefix}{first['name']}: the ledger rows add up to {true_units} units and"
        f" {first['money']} money, the result says {first['units']} and {first['money']}",
        f"{prefix}the players' units in its result add up to 1, not 0",
    ]


def test_a_gap_in_the_numbers_is_reported(night: Session, group: Group) -> None:
    Deal.objects.filter(session=night, number=5).update(number=13)

    output, error = verify()

    assert error is not None
    lines = output.splitlines()
    assert f"{where(group, night)}: deal numbers skip 5" in lines
    assert f"{where(group, night)}: its last deal number is 12, but deal 13 exists" in lines


def test_a_missing_ledger_row_is_reported(night: Session, group: Group) -> None:
    row(night, 7, "Cy", "Di").delete()

    output, error = verify()

    assert error is not None
    assert output.splitlines() == [f"{where(group, night, 7)}: no ledger row for Cy-Di"]


def test_a_void_deal_with_ledger_rows_is_reported(night: Session, group: Group) -> None:
    nine = deal_of(night, 9)
    ann, bob = (night.players.get(name=name) for name in ("Ann", "Bob"))
    LedgerEntry.objects.create(
        deal=nine, player_a=ann, player_b=bob, units=Decimal(1), money=Decimal("0.5")
    )

    output, error = verify()

    assert error is not None
    assert f"{where(group, night, 9)}: void, but it has 1 ledger row" in output


def test_only_the_group_asked_for_is_checked(night: Session, group: Group, ann_user: User) -> None:
    other = services.create_group(ann_user, "Other", "EUR", 1, "standard")
    row(night, 3, "Ann", "Bob").delete()

    output, error = verify("--group", str(other.pk))
    assert error is None
    assert output.startswith("verify_ledger: 1 group, 0 sessions, 0 deals")

    _, error = verify("--group", str(group.pk))
    assert error is not None

    _, error = verify("--group", "999999")
    assert error is not None and "no group 999999" in str(error)
