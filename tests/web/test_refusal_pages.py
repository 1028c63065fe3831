"""The engine's refusals on the pages, in the page's language: the deal form and its
preview, the what-if and the group's rules form."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Player, Session
from tests.services.hands import deal


def test_the_deal_form_refuses_in_the_pages_language(session: Session, as_bob: Client) -> None:
    form = {"p0-front": "Ah Kh", "p0-middle": "2c 3c 4c 5c 6c", "p0-back": "7d 8d 9d Td Jd"}
    form |= {"p1-front": "2h 3h 4h", "p1-middle": "5h 6h 7h 8h 9h", "p1-back": "2s 3s 4s 5s 6s"}
    form |= {"p2-sat_out": "on", "p3-sat_out": "on"}
    preview_url = f"/sessions/{session.pk}/deal/preview/"
    preview = as_bob.post(preview_url, form, HTTP_ACCEPT_LANGUAGE="vi").json()
    page = as_bob.post(f"/sessions/{session.pk}/deal/", form, HTTP_ACCEPT_LANGUAGE="vi")
    assert preview["error"]["message"] == "Ann, chi đầu: có 2 lá (Ah Kh), chi đầu cần 3 lá"
    assert page.status_code == 400
    assert "Ann, chi đầu: có 2 lá (Ah Kh), chi đầu cần 3 lá" in page.content.decode()


def test_the_what_if_refuses_in_the_pages_language(
    as_bob: Client, session: Session, alice: User
) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    refused = as_bob.get(
        f"/sessions/{session.pk}/deals/1/?option=foul_penalty&value=lots",
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    assert refused.status_code == 400
    assert "rules.foul_penalty: &#x27;lots&#x27; không phải một con số" in refused.content.decode()


def test_the_rules_form_refuses_in_the_pages_language(
    group: Group, players: dict[str, Player], as_alice: Client
) -> None:
    page = as_alice.post(
        f"/groups/{group.pk}/rules/",
        {"preset": "standard", "bonus": "2-4", "scoop_all_multiplier": "2"},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert page.status_code == 400
    assert "只在 bonus 为 &#x27;1-6&#x27; 时适用" in page.content.decode()
