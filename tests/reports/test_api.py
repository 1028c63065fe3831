"""The report endpoints over the hand-worked night: the numbers of test_reports, as JSON
text and CSV, and who may see what."""

import csv
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import reports, services
from games.engine.rules import decimal_text
from games.models import Group, Player, Session
from tests.api.conftest import API, client_for
from tests.api.test_night_api import play, start
from tests.reports.test_reports import ANN_V_BOB, D
from tests.services.test_night import RUNNING
from tests.streamed import streamed


def streamed_json(response: Any) -> Any:
    """The JSON of an answer written as it is read."""
    assert response.status_code == 200
    return json.loads(streamed(response))


def test_summary(night: Session, bob_user: User) -> None:
    response = client_for(bob_user).get(f"{API}/sessions/{night.pk}/summary/")

    assert response.status_code == 200
    body = response.json()
    assert [(p["name"], p["units"], p["money"]) for p in body["players"]] == [
        ("Ann", "7.5", "3.75"),
        ("Bob", "-2.5", "-1.25"),
        ("Cy", "9.5", "4.75"),
        ("Di", "-14.5", "-7.25"),
    ]
    assert [p["scoops"] for p in body["players"]] == [3, 2, 3, 2]
    assert body["void_deals"] == [9]
    assert body["pairs"]["Ann"]["Di"] == {"units": "12.5", "money": "6.25"}
    assert body["running"][-1] == {
        "deal": 12,
        "units": {"Ann": "7.5", "Bob": "-2.5", "Cy": "9.5", "Di": "-14.5"},
    }


def test_settlement(night: Session, bob_user: User) -> None:
    response = client_for(bob_user).get(f"{API}/sessions/{night.pk}/settlement/")

    assert response.status_code == 200
    assert response.json()["fewest_transfers"] == [
        {"from": "Di", "to": "Cy", "amount": "4.75"},
        {"from": "Di", "to": "Ann", "amount": "2.5"},
        {"from": "Bob", "to": "Ann", "amount": "1.25"},
    ]
    assert len(response.json()["pair_by_pair"]) == 6


def test_ledger_as_json(night: Session, next_night: Session, group: Group, bob_user: User) -> None:
    ann = group.players.get(name="Ann")
    url = f"{API}/groups/{group.pk}/ledger/?player={ann.pk}&session={night.pk}"
    body = streamed_json(client_for(bob_user).get(url))

    bob = body["opponents"][0]
    assert bob["name"] == "Bob"
    assert [d["balance_units"] for d in bob["deals"]][:4] == ["-6", "-5", "-4", "-5"]
    assert (bob["units"], bob["money"], bob["stake"]) == ("1", "0.5", "4")
    assert (body["units"], body["money"]) == ("7.5", "3.75")

    later = f"{API}/groups/{group.pk}/ledger/?player={ann.pk}&date_from={next_night.date}"
    assert streamed_json(client_for(bob_user).get(later))["money"] == "-13"


def test_ledger_as_csv(night: Session, group: Group, bob_user: User) -> None:
    ann = group.players.get(name="Ann")
    url = f"{API}/groups/{group.pk}/ledger/?player={ann.pk}&format=csv"
    response = client_for(bob_user).get(url)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="ledger-{group.pk}-Ann.csv"'
    text = streamed(response).decode()
    assert text == reports.opponent_ledger_csv(group, ann)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:2] == ["player", "opponent"]
    assert rows[1][6:10] == ["-6", "-3.00", "-6", "-3.00"]  # EUR: two decimals
    accept = client_for(bob_user).get(url.replace("&format=csv", ""), HTTP_ACCEPT="text/csv")
    assert accept["Content-Type"] == "text/csv; charset=utf-8"
    assert streamed(accept).decode() == text


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("", "player"),
        ("player=x", "player"),
        ("player=999999", "player"),
        ("player={ann}&session=999999", "session"),
        ("player={ann}&date_from=31.12.2026", "date_from"),
    ],
)
def test_ledger_rejects_bad_parameters(
    night: Session, group: Group, bob_user: User, query: str, field: str
) -> None:
    ann = group.players.get(name="Ann")
    url = f"{API}/groups/{group.pk}/ledger/?{query.format(ann=ann.pk)}"
    response = client_for(bob_user).get(url)

    assert response.status_code == 400
    assert response.json()["field"] == field


def test_standings(night: Session, next_night: Session, group: Group, bob_user: User) -> None:
    response = client_for(bob_user).get(f"{API}/groups/{group.pk}/standings/")

    assert response.status_code == 200
    assert [
        (p["name"], p["money"], p["deals"], p["average"]) for p in response.json()["players"]
    ] == [
        ("Bob", "9.75", 12, "0.125"),
        ("Cy", "6.25", 12, "1.0417"),
        ("Di", "-6.75", 12, "-1.125"),
        ("Ann", "-9.25", 12, "-0.0417"),
    ]
    before = f"{API}/groups/{group.pk}/standings/?date_to={night.date}"
    assert client_for(bob_user).get(before).json()["players"][0]["money"] == "4.75"


def test_export_then_import_into_an_empty_group(
    night: Session, group: Group, ann_user: User, bob_user: User
) -> None:
    response: Any = client_for(bob_user).get(f"{API}/groups/{group.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="group-{group.pk}.json"'
    exported = json.loads(streamed(response))
    empty = services.create_group(ann_user, "Restored", "EUR", 1, "standard")
    services.add_member(empty, bob_user, "member", by=ann_user)
    url = f"{API}/groups/{empty.pk}/import/"

    refused = client_for(bob_user).post(url, exported, format="json")
    assert refused.status_code == 403  # members may not: only owners

    response = client_for(ann_user).post(url, exported, format="json")
    assert response.status_code == 201
    assert response.json() == {"group": empty.pk, "players": 4, "sessions": 1, "deals": 12}
    restored = empty.sessions.get()
    summary = client_for(bob_user).get(f"{API}/sessions/{restored.pk}/summary/").json()
    assert summary["players"][0]["units"] == "7.5"

    again = client_for(ann_user).post(url, exported, format="json")
    assert again.status_code == 400
    assert "not empty" in again.json()["error"]
    assert client_for(ann_user).post(url, [1, 2], format="json").status_code == 400


def test_outsiders_get_404(night: Session, group: Group, stranger: User) -> None:
    ann = group.players.get(name="Ann")
    outsider = client_for(stranger)
    for url in (
        f"{API}/sessions/{night.pk}/summary/",
        f"{API}/sessions/{night.pk}/settlement/",
        f"{API}/groups/{group.pk}/ledger/?player={ann.pk}",
        f"{API}/groups/{group.pk}/ledger/?player={ann.pk}&format=csv",
        f"{API}/groups/{group.pk}/standings/",
        f"{API}/groups/{group.pk}/export/",
    ):
        assert outsider.get(url).status_code == 404, url
    assert outsider.post(f"{API}/groups/{group.pk}/import/", {}, format="json").status_code == 404


def test_anonymous_users_are_refused(night: Session, group: Group, client: Client) -> None:
    for url in (f"{API}/sessions/{night.pk}/summary/", f"{API}/groups/{group.pk}/standings/"):
        assert client.get(url).status_code in (401, 403), url


def test_the_schema_names_the_reports(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()

    assert {
        f"{API}/sessions/{{id}}/summary/",
        f"{API}/sessions/{{id}}/settlement/",
        f"{API}/groups/{{id}}/ledger/",
        f"{API}/groups/{{id}}/standings/",
        f"{API}/groups/{{id}}/export/",
        f"{API}/groups/{{id}}/import/",
    } <= set(schema["paths"])


def test_the_night_entered_through_the_api_reports_the_hand_worked_numbers(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    as_bob = client_for(bob_user)
    session_pk = start(as_bob, group.pk)
    play(client_for(ann_user), as_bob, session_pk)

    summary = as_bob.get(f"{API}/sessions/{session_pk}/summary/").json()
    assert [(r["deal"], r["units"]) for r in summary["running"]] == [
        (number, {name: decimal_text(D(units)) for name, units in totals.items()})
        for number, totals in RUNNING
    ]
    assert [(p["fouls"], p["surrenders"], p["naturals"]) for p in summary["players"]] == [
        (0, 0, 0),
        (1, 0, 1),
        (0, 0, 0),
        (0, 1, 0),
    ]
    assert summary["void_deals"] == [9]
    settlement = as_bob.get(f"{API}/sessions/{session_pk}/settlement/").json()
    assert [t["amount"] for t in settlement["fewest_transfers"]] == ["4.75", "2.5", "1.25"]
    ann = players["Ann"].pk
    ledger = as_bob.get(f"{API}/groups/{group.pk}/ledger/?player={ann}&format=csv")
    rows = list(csv.reader(io.StringIO(streamed(ledger).decode())))
    assert [(int(r[4]), r[6], r[8]) for r in rows[1:12]] == ANN_V_BOB
