"""Two players of a group made one: everything of ``gone`` follows ``keep``.

The same friend entered twice (``Ann`` and ``Anne``) plays on as one player: ``gone``'s
seats, deal and payment ledger rows, payments (and their revisions), review lines, pair
stakes and linked user move to ``keep``, then ``gone`` is deleted and a ``PlayerMerge``
row records both names, who, when and how many rows moved.

Stored deals need no rewrite: a deal's request and result name the seats as the players
sat down (``SessionSeat.name``), and the seat keeps that name while its player becomes
``keep``. Ledger rows keep their direction (``player_a`` is the first of the result's
pair, or the payer), only the player changes, so ``verify_ledger`` finds them equal to the
deals re-scored. Pair stakes keep ``player_a.pk < player_b.pk``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.models import (
    Group,
    LedgerEntry,
    PairStake,
    Payment,
    PaymentRevision,
    Player,
    PlayerMerge,
    ReviewLine,
    Session,
    SessionSeat,
)
from games.permissions import require_owner


def merge_players(group: Group, keep: Player, gone: Player, by: User) -> PlayerMerge:
    """Owners merge ``gone`` into ``keep``; refused (nothing changed) when the two sat at
    one session, a payment is between them, or they are linked to two different users.

    When both have a pair stake with the same third player, ``keep``'s stays and
    ``gone``'s is dropped; a stake between the two is dropped.
    """
    if keep.pk == gone.pk:
        raise ServiceError(_("into: a player cannot be merged into themself"), "into")
    if keep.group_id != group.pk or gone.group_id != group.pk:
        raise ServiceError(
            _("into: both players must belong to %(group)s") % {"group": group.name}, "into"
        )
    with transaction.atomic():
        require_owner(by, group)
        Group.objects.select_for_update().filter(pk=group.pk).first()
        locked = {
            p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, gone.pk])
        }
        if len(locked) != 2:
            raise ServiceError(_("into: the player is no longer in the group"), "into")
        kept, merged = locked[keep.pk], locked[gone.pk]
        # The sessions and payments that move, locked: a deal recorded or a payment
        # confirmed meanwhile waits, then finds its rows pointing at the kept player.
        moving = SessionSeat.objects.filter(player=merged).values_list("session_id", flat=True)
        list(Session.objects.select_for_update().filter(pk__in=list(moving)).order_by("pk"))
        list(
            Payment.objects.select_for_update()
            .filter(Q(payer=merged) | Q(payee=merged))
            .order_by("pk")
        )
        _refuse_conflicts(kept, merged)
        moved = _move(kept, merged)
        record = PlayerMerge.objects.create(
            group=group,
            kept=kept,
            kept_name=kept.name,
            gone_name=merged.name,
            merged_by=by,
            moved=moved,
        )
        merged.delete()
    return record


def _refuse_conflicts(keep: Player, gone: Player) -> None:
    both = [keep.pk, gone.pk]
    shared = (
        SessionSeat.objects.filter(player=gone, session__seats__player=keep)
        .select_related("session")
        .order_by("session__date", "session_id")
        .first()
    )
    if shared is not None:
        session = shared.session
        raise ServiceError(
            _(
                "into: %(gone)s and %(keep)s both sat at the session of %(date)s"
                " (session %(pk)s): merged, one player would take two seats"
            )
            % {"gone": gone.name, "keep": keep.name, "date": session.date, "pk": session.pk},
            "into",
        )
    between = (
        Payment.objects.filter(payer_id__in=both, payee_id__in=both).order_by("date", "pk").first()
    )
    if between is not None:
        raise ServiceError(
            _(
                "into: payment %(pk)s of %(date)s is from %(payer)s to %(payee)s:"
                " merged, a player would pay themself"
            )
            % {
                "pk": between.pk,
                "date": between.date,
                "payer": between.payer.name,
                "payee": between.payee.name,
            },
            "into",
        )
    if LedgerEntry.objects.filter(player_a_id__in=both, player_b_id__in=both).exists():
        # Only a deal at a shared session or a payment between them writes such a row,
        # both refused above; kept as the last guard of the ledger's two-player rows.
        raise ServiceError(
            _("into: a ledger row is between %(gone)s and %(keep)s")
            % {"gone": gone.name, "keep": keep.name},
            "into",
        )
    if keep.user_id is not None and gone.user_id is not None and keep.user_id != gone.user_id:
        raise ServiceError(
            _("into: %(gone)s and %(keep)s are linked to two different users: unlink one first")
            % {"gone": gone.name, "keep": keep.name},
            "into",
        )


def _move(keep: Player, gone: Player) -> dict[str, Any]:
    """Point every row of ``gone`` at ``keep``; the counts, by kind."""
    moved: dict[str, Any] = {
        "seats": SessionSeat.objects.filter(player=gone).update(player=keep),
        "ledger": LedgerEntry.objects.filter(player_a=gone).update(player_a=keep)
        + LedgerEntry.objects.filter(player_b=gone).update(player_b=keep),
        "payments": Payment.objects.filter(Q(payer=gone) | Q(payee=gone)).count(),
        "review_lines": ReviewLine.objects.filter(player=gone).update(player=keep),
    }
    Payment.objects.filter(payer=gone).update(payer=keep)
    Payment.objects.filter(payee=gone).update(payee=keep)
    PaymentRevision.objects.filter(payer=gone).update(payer=keep)
    PaymentRevision.objects.filter(payee=gone).update(payee=keep)
    moved.update(_move_stakes(keep, gone))
    if keep.user_id is None and gone.user_id is not None:
        keep.user_id, gone.user_id = gone.user_id, None
        gone.save(update_fields=["user"])  # first: one user plays as one player
        keep.save(update_fields=["user"])
        moved["user"] = True
    return moved


def _move_stakes(keep: Player, gone: Player) -> dict[str, int]:
    stakes = PairStake.objects.select_for_update().filter(Q(player_a=gone) | Q(player_b=gone))
    kept_with = {
        other
        for a, b in PairStake.objects.filter(Q(player_a=keep) | Q(player_b=keep)).values_list(
            "player_a_id", "player_b_id"
        )
        for other in (a, b)
        if other != keep.pk
    }
    moved = dropped = 0
    for stake in list(stakes):
        other = stake.player_b_id if stake.player_a_id == gone.pk else stake.player_a_id
        if other == keep.pk or other in kept_with:
            stake.delete()
            dropped += 1
            continue
        stake.player_a_id, stake.player_b_id = sorted((keep.pk, other))
        stake.save(update_fields=["player_a", "player_b"])
        moved += 1
    return {"stakes": moved, "stakes_dropped": dropped}
