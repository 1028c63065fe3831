"""A seat link's token: the same string each time it is shown (a reloaded page, a printed
QR code, the link the host sent an hour ago), and the timestamped tokens handed out
before that still open their seat."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.core import signing

from games.live import seat_links
from games.live.seat_links import SALT, SeatLinkRefused
from games.models import Session

pytestmark = pytest.mark.django_db


def _link(session: Session, seat: int) -> seat_links.SeatLink:
    return seat_links.make_links(session)[seat - 1]


def test_a_link_reads_the_same_an_hour_later(session: Session) -> None:
    link = _link(session, 2)
    now = seat_links.token_for(link)
    timed_now = signing.dumps({"k": link.pk}, salt=SALT)
    later = time.time() + 3600
    with mock.patch("django.core.signing.time.time", return_value=later):
        assert signing.dumps({"k": link.pk}, salt=SALT) != timed_now  # the clock did move
        assert seat_links.token_for(link) == now
    assert seat_links.open_seat(now, session.pk).seat == 2


def test_a_token_made_with_its_signing_time_still_opens_its_seat(session: Session) -> None:
    link = _link(session, 3)
    payload = {"s": link.session_id, "k": link.pk, "n": link.nonce}
    old = signing.dumps(payload, salt=SALT)
    assert old.count(":") == 2 and old != seat_links.token_for(link)

    seat = seat_links.open_seat(old, session.pk)

    assert (seat.seat, seat.link.pk) == (3, link.pk)


@pytest.mark.parametrize("timed", [False, True], ids=["plain", "timestamped"])
def test_altered_or_foreign_tokens_are_refused(session: Session, timed: bool) -> None:
    link = _link(session, 1)
    payload = {"s": link.session_id, "k": link.pk, "n": link.nonce}
    other = {**payload, "k": _link(session, 4).pk}
    if timed:
        forged = signing.dumps(payload, key="not the site's key", salt=SALT)
        good_sig = signing.dumps(payload, salt=SALT).rsplit(":", 1)[1]
        swapped = signing.dumps(other, salt=SALT).rsplit(":", 1)[0] + ":" + good_sig
    else:
        forged = signing.Signer(key="not the site's key", salt=SALT).sign_object(payload)
        good_sig = seat_links.token_for(link).rsplit(":", 1)[1]
        swapped = signing.Signer(salt=SALT).sign_object(other).rsplit(":", 1)[0] + ":" + good_sig

    for token in (forged, swapped, "a:b:c:d", "", ":"):
        with pytest.raises(SeatLinkRefused, match="not valid"):
            seat_links.open_seat(token, session.pk)
