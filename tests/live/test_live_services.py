"""The deal in progress (games.live.table): drafts, submits, conflicts, the host's
powers, and the deal recorded exactly once when the last seat submits."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from games import services
from games.engine import ScoreError
from games.live import seat_links, table
from games.live.state import live_state
from games.live.table import LiveConflict
from games.models import Deal, LiveDeal, SeatLink, Session
from games.permissions import NotAllowed
from tests.live.helpers import hand, member, seat_actor
from tests.services.hands import HANDS

pytestmark = pytest.mark.django_db


def _submit_all(session: Session, seats: tuple[int, ...] = (1, 2, 3, 4)) -> LiveDeal:
    done = None
    for seat in seats:
        done = table.submit(session, seat, hand(seat), seat_actor(session, seat))
    assert done is not None
    return done


def test_a_session_starts_with_one_link_per_seat(session: Session) -> None:
    links = SeatLink.objects.filter(session=session, revoked_at=None)

    assert links.count() == 4
    assert seat_links.open_seat(seat_links.token_for(links[2])).name == "Cy"


def test_the_last_submit_records_the_deal_once_with_the_right_units(
    session: Session, ann_user: User
) -> None:
    table.open_live(session, member(ann_user))

    recorded = _submit_all(session)

    deal = Deal.objects.get(session=session)
    units = {p["name"]: p["units"] for p in deal.result["players"]}
    assert units == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert recorded.status == "recorded" and recorded.deal_id == deal.pk
    assert deal.idempotency_key == f"live-{recorded.pk}" and deal.created_by == ann_user
    state = live_state(session, None)
    assert state["live"]["deal"]["units"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert state["live"]["deal"]["money"]["Ann"] == "-4"  # at 0.5 a unit
    assert state["session"] == {"id": session.pk, "status": "open", "deals": 1, "last_deal": 1}


def test_a_deal_opened_by_a_seat_link_is_recorded_by_the_owner(
    session: Session, ann_user: User
) -> None:
    table.open_live(session, seat_actor(session, 3))

    _submit_all(session)

    assert Deal.objects.get(session=session).created_by == ann_user


def test_opening_twice_answers_the_open_one(session: Session, bob_user: User) -> None:
    first, created = table.open_live(session, member(bob_user))
    again, created_again = table.open_live(session, seat_actor(session, 2))

    assert (created, created_again) == (True, False)
    assert again.pk == first.pk


def test_a_card_in_two_submitted_hands_is_named_to_both_seats_and_blocks_the_deal(
    session: Session, ann_user: User
) -> None:
    table.open_live(session, member(ann_user))
    table.submit(session, 2, hand(2), seat_actor(session, 2))
    mine = {**hand(1), "front": "2c Kc 3d"}  # 2c is in Bob's front

    table.submit(session, 1, mine, seat_actor(session, 1))
    for seat in (3, 4):
        table.submit(session, seat, hand(seat), seat_actor(session, seat))

    players = {p.name: p.pk for p in session.players.all()}
    ann = live_state(session, players["Ann"])["live"]
    bob = live_state(session, players["Bob"])["live"]
    assert ann["you"]["conflicts"] == [{"card": "2c", "seat": 2, "player": "Bob"}]
    assert bob["you"]["conflicts"] == [{"card": "2c", "seat": 1, "player": "Ann"}]
    assert [s["conflict"] for s in ann["seats"]] == [True, True, False, False]
    assert ann["status"] == "open" and ann["you"]["submitted"]  # every seat in, none recorded
    assert not Deal.objects.filter(session=session).exists()

    table.withdraw(session, 1, seat_actor(session, 1))
    done = table.submit(session, 1, hand(1), seat_actor(session, 1))

    assert done.status == LiveDeal.Status.RECORDED


def test_a_draft_of_guessed_cards_learns_nothing_of_another_seat(
    session: Session, ann_user: User
) -> None:
    table.open_live(session, member(ann_user))
    table.save_draft(session, 2, hand(2), seat_actor(session, 2))  # Bob is still typing
    table.submit(session, 3, hand(3), seat_actor(session, 3))  # Cy is in
    players = {p.name: p.pk for p in session.players.all()}
    # Ann's draft guesses every card of both: Bob's draft and Cy's submitted hand.
    guess = {"cards": " ".join([*HANDS["B"].values(), *HANDS["C"].values()])}
    before = live_state(session, players["Ann"])

    table.save_draft(session, 1, guess, seat_actor(session, 1))
    after = live_state(session, players["Ann"])

    assert after["live"]["you"]["conflicts"] == []
    assert [s["conflict"] for s in after["live"]["seats"]] == [False] * 4
    # Nothing of the others changed in what Ann reads: only her own seat's line.
    assert after["live"]["seats"][1:] == before["live"]["seats"][1:]
    text = json.dumps({k: v for k, v in after["live"].items() if k != "you"})
    cards = {c for h in (HANDS["B"], HANDS["C"]) for row in h.values() for c in row.split()}
    assert [c for c in cards if c in text] == []


def test_submitting_twice_is_refused(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))
    table.submit(session, 1, hand(1), seat_actor(session, 1))

    with pytest.raises(LiveConflict, match="Ann has already submitted this hand"):
        table.submit(session, 1, hand(1), seat_actor(session, 1))
    with pytest.raises(LiveConflict, match="already submitted"):
        table.save_draft(session, 1, hand(1), seat_actor(session, 1))


def test_withdraw_takes_a_hand_back_to_a_draft(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))
    table.submit(session, 1, hand(1), seat_actor(session, 1))

    table.withdraw(session, 1, seat_actor(session, 1))

    ann = session.players.get(name="Ann").pk
    you = live_state(session, ann)["live"]["you"]
    assert (you["submitted"], you["entry"]) == (False, hand(1))
    assert live_state(session, ann)["live"]["seats"][0]["state"] == "entering"


def test_drafts_are_kept_and_resumed(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))
    table.save_draft(session, 3, {"cards": "As Kd"}, seat_actor(session, 3))
    table.save_draft(session, 3, {"front": "Qc Jc 9d", "middle": "8c 8d"}, seat_actor(session, 3))

    cy = session.players.get(name="Cy").pk
    state = live_state(session, cy)["live"]
    assert state["you"]["entry"] == {"front": "Qc Jc 9d", "middle": "8c 8d"}
    assert [s["state"] for s in state["seats"]] == ["waiting", "waiting", "entering", "waiting"]
    assert not Deal.objects.filter(session=session).exists()


def test_closing_the_session_cancels_the_deal_in_progress(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))
    table.submit(session, 1, hand(1), seat_actor(session, 1))
    phone = seat_actor(session, 2)

    services.close_session(session, ann_user)

    state = live_state(session, None)["live"]
    assert (state["status"], state["message"]) == ("cancelled", "the session was closed")
    with pytest.raises(LiveConflict, match="the session is closed") as refused:
        table.submit(session, 2, hand(2), phone)
    assert refused.value.code == "session_closed"
    with pytest.raises(seat_links.SeatLinkRefused, match="closed"):
        seat_actor(session, 2)


def test_the_host_takes_over_a_quiet_seat(session: Session, bob_user: User) -> None:
    table.open_live(session, member(bob_user))
    phone = seat_actor(session, 4)
    table.save_draft(session, 4, {"cards": "4s"}, phone)

    table.take_over(session, 4, bob_user)

    with pytest.raises(LiveConflict, match="the host took over Di's seat"):
        table.save_draft(session, 4, hand(4), phone)
    table.submit(session, 4, hand(4), member(bob_user))
    seats = live_state(session, None)["live"]["seats"]
    assert seats[3] == {
        "seat": 4,
        "player": "Di",
        "state": "submitted",
        "by": "host",
        "taken_over": True,
        "conflict": False,
        "cards": 13,
        "phone": "none",
        "quiet": None,
    }


def test_cancel_records_nothing(session: Session, ann_user: User, bob_user: User) -> None:
    table.open_live(session, member(ann_user))
    _submit_all(session, (1, 2, 3))

    table.cancel(session, bob_user)

    assert live_state(session, None)["live"]["status"] == "cancelled"
    with pytest.raises(LiveConflict, match="no deal in progress"):
        table.submit(session, 4, hand(4), seat_actor(session, 4))
    assert not Deal.objects.filter(session=session).exists()


def test_a_seat_holder_writes_only_its_own_seat(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))

    with pytest.raises(NotAllowed):
        table.save_draft(session, 2, hand(2), seat_actor(session, 1))


def test_an_entry_the_engine_refuses_leaves_the_deal_open(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))
    _submit_all(session, (1, 2, 3))
    broken = {"front": "4s 3h", "middle": "Qd Qh Jh Js 9c", "back": "Ad Ah Ks Kh 9s"}

    with pytest.raises(ScoreError, match="front"):
        table.submit(session, 4, broken, seat_actor(session, 4))

    state = live_state(session, session.players.get(name="Di").pk)["live"]
    assert state["status"] == "open" and "front" in state["message"]
    assert state["you"] == {**state["you"], "submitted": False, "entry": broken}
    table.save_draft(session, 4, hand(4), seat_actor(session, 4))
    table.submit(session, 4, hand(4), seat_actor(session, 4))
    assert Deal.objects.filter(session=session).count() == 1


def test_a_fouled_hand_is_scored(session: Session, ann_user: User) -> None:
    from tests.services.hands import fouled

    table.open_live(session, member(ann_user))
    _submit_all(session, (1, 2, 3))

    table.submit(session, 4, fouled("D"), seat_actor(session, 4))

    result = Deal.objects.get(session=session).result
    assert [p["fouled"] for p in result["players"]] == [False, False, False, True]


def test_revoking_a_link_makes_a_new_one(session: Session, ann_user: User, bob_user: User) -> None:
    old = seat_links.make_links(session)[0]
    token = seat_links.token_for(old)

    new = seat_links.revoke_link(old, by=ann_user)

    assert new.pk != old.pk and new.player_id == old.player_id
    with pytest.raises(seat_links.SeatLinkRefused, match="revoked"):
        seat_links.open_seat(token)
    assert seat_links.make_links(session)[0] == new
    with pytest.raises(NotAllowed):
        seat_links.revoke_link(new, by=bob_user)  # a member, not an owner


def test_older_sessions_get_their_links_lazily(session: Session) -> None:
    SeatLink.objects.filter(session=session).delete()

    links = seat_links.make_links(session)

    assert len(links) == 4 and links == seat_links.make_links(session)


def test_an_altered_token_is_refused(session: Session) -> None:
    token = seat_links.token_for(seat_links.make_links(session)[0])

    for bad in (token[:-2], token + "x", "nonsense", ""):
        with pytest.raises(seat_links.SeatLinkRefused, match="not valid"):
            seat_links.open_seat(bad)
    with pytest.raises(seat_links.SeatLinkRefused, match="not valid"):
        seat_links.open_seat(token, session.pk + 1)


def test_revoking_a_revoked_link_answers_that_seats_working_link(
    session: Session, ann_user: User
) -> None:
    old = seat_links.make_links(session)[1]  # Bob's seat, not the first
    new = seat_links.revoke_link(old, by=ann_user)

    assert seat_links.revoke_link(old, by=ann_user) == new
    SeatLink.objects.filter(pk=new.pk).update(revoked_at=new.created_at)  # none working now
    again = seat_links.revoke_link(old, by=ann_user)
    assert again.player_id == old.player_id and again.revoked_at is None
    assert again.pk not in (old.pk, new.pk)
