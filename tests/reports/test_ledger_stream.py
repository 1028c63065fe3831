"""The per-opponent ledger written as it is read: the same report as ``opponent_ledger``, in
pieces, for the API's JSON and CSV and the session page's CSV."""

from __future__ import annotations

import csv
import datetime
import io
import json

import pytest
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse

from games import reports
from games.models import Group, Session
from games.reports import opponents
from tests.api.conftest import API, client_for
from tests.reports.big_group import build_group
from tests.web.conftest import signed_in

pytestmark = pytest.mark.django_db


def test_the_stream_is_the_report_of_the_hand_worked_nights(
    night: Session, next_night: Session, group: Group
) -> None:
    for player in group.players.all():
        later = next_night.date + datetime.timedelta(days=1)  # no deals
        for options in (
            {},
            {"session": night},
            {"date_from": next_night.date},
            {"date_from": later},
        ):
            report = reports.jsonable(reports.opponent_ledger(group, player, **options))
            text = "".join(reports.opponent_ledger_stream(group, player, **options))
            assert json.loads(text) == report
            # Keys in the same order as the whole report's.
            assert text == json.dumps(report, ensure_ascii=False, separators=(",", ":"))


def test_a_long_ledger_comes_in_pieces(ann_user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    group = build_group(ann_user, 400)
    ann = group.players.get(name="Ann")
    monkeypatch.setattr(opponents, "STREAM_PIECE", 4096)
    monkeypatch.setattr(opponents, "CHUNK", 50)
    pieces = list(reports.opponent_ledger_stream(group, ann))
    assert len(pieces) > 10
    # The head comes first, on its own, before anything is summed.
    assert pieces[0] == (
        f'{{"player":{{"id":{ann.pk},"name":"Ann"}},"currency":"EUR","unit_value":"0.5",'
        '"session":null,'
        '"date_from":null,"date_to":null,'
    )
    # Each piece holds about STREAM_PIECE characters: one deal more at most.
    assert all(len(piece) < 4096 + 300 for piece in pieces)
    whole = json.loads("".join(pieces))
    assert whole == reports.jsonable(reports.opponent_ledger(group, ann))
    assert sum(len(o["deals"]) for o in whole["opponents"]) == 3 * 396  # 4 of 400 void

    rows = list(reports.opponent_ledger_csv_stream(group, ann))
    assert len(rows) > 10
    assert rows[0] == ",".join(reports.LEDGER_CSV_HEADER) + "\n"
    assert "".join(rows) == reports.opponent_ledger_csv(group, ann)
    table = list(csv.reader(io.StringIO("".join(rows))))
    assert len(table) == 1 + 3 * 396


def test_the_api_and_the_page_stream_the_ledger(ann_user: User) -> None:
    group = build_group(ann_user, 150)
    ann = group.players.get(name="Ann")
    session = group.sessions.get()
    url = f"{API}/groups/{group.pk}/ledger/?player={ann.pk}"
    as_ann = client_for(ann_user)
    answer = as_ann.get(url)
    assert isinstance(answer, StreamingHttpResponse)
    assert answer["Content-Type"] == "application/json"
    body = json.loads(b"".join(answer.streaming_content))
    assert body == reports.jsonable(reports.opponent_ledger(group, ann))
    answer = as_ann.get(url + "&format=csv")
    assert isinstance(answer, StreamingHttpResponse)
    assert b"".join(answer.streaming_content).decode() == reports.opponent_ledger_csv(group, ann)
    page = signed_in(ann_user).get(f"/sessions/{session.pk}/ledger/{ann.pk}.csv")
    assert isinstance(page, StreamingHttpResponse)
    text = b"".join(page.streaming_content).decode()
    assert text == reports.opponent_ledger_csv(group, ann, session=session)


def test_the_export_sends_the_groups_settings_before_reading_any_deal(ann_user: User) -> None:
    from games import services
    from games.services import transfer

    group = build_group(ann_user, 120)
    pieces = transfer.export_stream(group)
    first = next(pieces)
    assert first.endswith(',"sessions":[') and '"deals"' not in first
    assert json.loads(first + "".join(pieces)) == json.loads(
        transfer.dumps(services.export_group(group))
    )
