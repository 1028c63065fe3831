"""After Save: the scoreboard says "Deal N saved" with Undo and Next deal; an owner can
restore a voided deal; closing and voiding ask first."""

import pytest
from django.test import Client

from games.models import Deal, Session
from games.web import common
from tests.web.forms import deal_form


def saved_notice(page: str) -> str:
    return page.split('id="saved"')[1].split("</section>")[0]


def test_the_saved_notice_offers_undo_and_the_next_deal(session: Session, as_alice: Client) -> None:
    saved = as_alice.post(
        f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    )
    notice = saved_notice(as_alice.get(saved["Location"]).content.decode())
    assert "Deal 1 saved" in notice
    assert "Ann -8, Bob +4, Cy +3, Di +1" in notice
    assert f'href="/sessions/{session.pk}/deal/">Next deal</a>' in notice
    assert f'action="/sessions/{session.pk}/deals/1/void/"' in notice

    # Undo voids the deal with its reason; the notice is gone, the history says why.
    undone = as_alice.post(
        f"/sessions/{session.pk}/deals/1/void/", {"reason": "undone right after saving"}
    )
    assert undone.status_code == 302
    deal = session.deals.get()
    assert deal.status == Deal.Status.VOID
    board = as_alice.get(saved["Location"]).content.decode()
    assert 'id="saved"' not in board
    assert "v1 voided by alice: “undone right after saving”" in board


def test_a_member_is_offered_a_correction_rather_than_undo(
    session: Session, as_bob: Client
) -> None:
    saved = as_bob.post(
        f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    )
    notice = saved_notice(as_bob.get(saved["Location"]).content.decode())
    assert "/void/" not in notice
    assert f'href="/sessions/{session.pk}/deals/1/edit/">Correct it</a>' in notice


def test_a_notice_names_only_a_deal_that_counts(session: Session, as_alice: Client) -> None:
    for asked in ("7", "x", "1" * 30, ""):
        page = as_alice.get(f"/sessions/{session.pk}/", {"saved": asked}).content.decode()
        assert 'id="saved"' not in page


def test_an_owner_restores_a_voided_deal(
    session: Session, as_alice: Client, as_bob: Client
) -> None:
    as_alice.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    as_alice.post(f"/sessions/{session.pk}/deals/1/void/", {"reason": "entered twice"})
    board = as_alice.get(f"/sessions/{session.pk}/").content.decode()
    assert f'action="/sessions/{session.pk}/deals/1/restore/"' in board
    assert "/restore/" not in as_bob.get(f"/sessions/{session.pk}/").content.decode()

    refused = as_bob.post(f"/sessions/{session.pk}/deals/1/restore/", {"reason": "mine"})
    assert refused.status_code == 403
    restored = as_alice.post(f"/sessions/{session.pk}/deals/1/restore/", {"reason": "it was not"})
    assert restored["Location"] == f"/sessions/{session.pk}/#deal-1"
    assert session.deals.get().status == Deal.Status.ACTIVE
    board = as_alice.get(f"/sessions/{session.pk}/").content.decode()
    assert "v1 voided by alice: “entered twice”" in board
    assert "v2 restored by alice: “it was not”" in board
    assert "Deal 1, pair by pair" in board
    again = as_alice.post(f"/sessions/{session.pk}/deals/1/restore/", follow=True)
    assert "deal 1 is not void: there is nothing to restore" in again.content.decode()


def test_close_and_void_ask_first(session: Session, as_alice: Client) -> None:
    as_alice.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    board = as_alice.get(f"/sessions/{session.pk}/").content.decode()
    void_form = board.split(f'action="/sessions/{session.pk}/deals/1/void/"')[1].split(">")[0]
    assert 'data-confirm="Void deal 1?' in void_form
    close = board.split(f'action="/sessions/{session.pk}/close/"')[1].split(">")[0]
    assert 'data-confirm="Close the session? Every deal becomes read-only."' in close
    assert "games/forms.js" in board


def test_the_pages_name_the_keys_of_the_latest_deals(
    session: Session, as_alice: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """offline.js drops a queued deal or a draft whose key a page names as saved."""
    monkeypatch.setattr(common, "SAVED_KEYS", 2)
    for n in range(3):
        form = {**deal_form(Ann="A", Bob="B", Cy="C", Di="D"), "idempotency_key": f"k{n}"}
        as_alice.post(f"/sessions/{session.pk}/deal/", form)
    for path in (f"/sessions/{session.pk}/", f"/sessions/{session.pk}/deal/"):
        page = as_alice.get(path).content.decode()
        assert 'data-saved-keys="k2 k1"' in page
