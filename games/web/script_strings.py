"""The words the pages' scripts write (deal.js, picker.js, offline.js, jobs.js, live.js,
seat_check.js), translated on the server and handed over in a JSON data block (``<script
type="application/json" id="js-strings">``, which the Content-Security-Policy lets through
since it never runs).

A script reads them with ``scorekeeperText(key, values)`` (forms.js), which fills the named
``%(...)s`` placeholders; a key with a dot reads a nested table ("rows.front").
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

SCRIPT_STRINGS: dict[str, Any] = {
    # deal.js: the live preview and the arranging of 13 cards
    "twice": _("Twice: %(cards)s"),
    "foul": _("Foul: %(foul)s"),
    "units_appear": _("The deal's units appear here once every player's hand is typed."),
    "units_fouled": _("%(units)s (foul)"),
    "scoops": _("%(name)s scoops"),
    "not_saved": _("Not saved yet."),
    "cannot_arrange": _("cannot arrange these cards"),
    "arranged": _("Arranged."),
    "check_rows": _("%(how)s Check the rows above."),
    "kinds": {
        "rows": pgettext_lazy("how a pair was settled", "rows"),
        "foul": pgettext_lazy("how a pair was settled", "foul"),
        "surrender": pgettext_lazy("how a pair was settled", "surrender"),
        "natural": pgettext_lazy("how a pair was settled", "natural"),
        "cards": pgettext_lazy("how a pair was settled", "cards"),
    },
    # picker.js: the card picker
    "rows": {"front": _("front"), "middle": _("middle"), "back": _("back")},
    "row_progress": _("%(name)s · %(row)s: %(count)s of %(size)s"),
    "tap_for": _("Tap the cards for %(row)s"),
    "every_hand_in": _("Every hand is in: check the units below, then save."),
    "return_card": _("Return %(card)s to the cards"),
    "change_cards": _("Change %(name)s's cards"),
    # offline.js: deals kept on the phone while offline
    "refused": _("Not saved: the deal typed at %(time)s (%(names)s) was refused by the server."),
    "open_to_fix": _("Open it to fix"),
    "queued_item": _(
        "The deal typed at %(time)s (%(names)s): queued on this phone, sent when the "
        "connection returns."
    ),
    "landed": _("The deal queued at %(time)s has been sent and saved."),
    "restored": _("Restored the deal you were typing at %(time)s (kept on this phone)."),
    "offline_correction": _(
        "Offline: a correction is saved once the connection returns. It is kept on this "
        "phone meanwhile."
    ),
    "queued": _(
        "Queued: the deal is kept on this phone and sent when the connection returns. The "
        "form is ready for the next deal."
    ),
    # live.js: the live table (a seat's page, the members' page, the scoreboard)
    "live_connected": _("Live: changes show as they happen."),
    "live_polling": _("Live updates unavailable: checking every 2 seconds."),
    "live_offline": _(
        "Offline: your entry is kept on this phone and sent when the connection returns."
    ),
    "live_refused": _("The server refused this."),
    "live_none": _("No deal in progress."),
    "live_submitted": _("Your hand is in: waiting for the other seats."),
    "live_taken_over": _("The host has taken over this seat."),
    "live_also_in": _("%(card)s is also in %(player)s's hand"),
    "live_conflict": _("a card clashes with another seat"),
    "live_by_host": _("typed by the host"),
    "live_recorded": _("Deal %(number)s recorded"),
    "live_this_deal": _("This deal"),
    "live_totals": _("Totals so far"),
    "live_cancel_confirm": _("Cancel the deal in progress? The hands entered so far are dropped."),
    "live_revoke_confirm": _(
        "Revoke this seat link? The phone holding it can no longer enter hands; a new link "
        "takes its place."
    ),
    "live_sending": _("Sending your hand…"),
    "live_submit_queued": _(
        "No connection: your hand is kept on this phone and sent by itself as soon as the "
        "server answers. No need to tap again."
    ),
    "live_nudge": _("Nudge"),
    "live_nudged": _("Nudged"),
    "live_free": _("Free the seat"),
    "live_progress": {
        "not_opened": _("not opened yet"),
        "opened": _("opened, no cards yet"),
        "entering": _("entering: %(count)s cards"),
        "entering_of": _("entering %(count)s/%(size)s"),
        "offline": _("offline for %(seconds)s s"),
        "taken_over": _("taken over by the host"),
    },
    "live_states": {
        "waiting": pgettext_lazy("a seat of the live table", "waiting"),
        "entering": pgettext_lazy("a seat of the live table", "entering"),
        "submitted": pgettext_lazy("a seat of the live table", "done"),
    },
    # seat_check.js: a seat's page, its rows checked as they fill, and its recorded deal
    "check_stopped": _(
        "This hand fouls: %(foul)s. Fix the rows, or tap the button again to submit it as it is."
    ),
    "check_submit_anyway": _("Submit anyway (this hand fouls)"),
    "check_natural": _("Declared natural: %(name)s"),
    "check_surrendered": _("Surrendered"),
    "check_not_shown": _("Hand not shown (fouled)"),
    "check_row": _("%(row)s: %(hand)s"),
    "pair_won": _("%(units)s from %(player)s"),
    "pair_lost": _("%(units)s to %(player)s"),
    "pair_even": _("Even with %(player)s"),
    "pair_reason": _("%(line)s: %(reason)s"),
    "money_deal": _("This deal: %(amount)s"),
    "money_night": _("Tonight: %(amount)s"),
    # jobs.js: the PDF buttons
    "download": _("Download"),
    "failed": _("failed: %(error)s"),
    "try_again": _("try again"),
    "pending": _("pending…"),
    "still_pending": _("still pending: reload the page later"),
    "no_server": _("could not ask the server: try again"),
    "not_available": _("not available"),
}


def script_strings(request: HttpRequest) -> dict[str, Any]:
    """Context processor: the scripts' words, for base.html's JSON data block; and whether
    the pages register the service worker (``OFFLINE_APP``, games/web/app.py)."""
    return {"script_strings": SCRIPT_STRINGS, "offline_app": settings.OFFLINE_APP}
