"""The operations that change data, one module per aggregate.

Every change runs in one transaction and checks the caller's role (``games.permissions``).
Scoring is the engine's: a deal is scored under the rules stored on its session, and a
``ScoreError`` from the engine propagates unchanged with nothing stored. Reading what was
stored is ``games.reports``' job; the services never import the web or API layers.

The names callers use are re-exported here: ``services.record_deal(...)``.
"""

from games.errors import (
    DealNotActive,
    HasHistory,
    IdempotencyConflict,
    ImportRefused,
    ServiceError,
    SessionClosed,
)
from games.permissions import NotAllowed
from games.services.dealers import upcoming_dealer
from games.services.deals import (
    Recorded,
    edit_deal,
    record_deal,
    record_or_replay,
    restore_deal,
    void_deal,
)
from games.services.groups import (
    add_member,
    create_group,
    delete_group,
    remove_member,
    set_member_role,
    set_rules,
    update_group,
)
from games.services.invites import (
    InviteRefused,
    accept_invite,
    create_invite,
    open_invite,
    revoke_invite,
)
from games.services.merges import merge_players
from games.services.payments import (
    confirm_payment,
    edit_payment,
    record_payment,
    settle_session,
    void_payment,
)
from games.services.players import (
    add_player,
    delete_pair_stake,
    delete_player,
    set_pair_stake,
    update_player,
)
from games.services.reviews import store_review
from games.services.sessions import (
    close_session,
    closed_at_target,
    delete_session,
    fantasyland,
    reopen_session,
    start_session,
    target_reached,
    update_session,
)
from games.services.transfer import EXPORT_FORMAT, export_group, import_group

__all__ = [
    "EXPORT_FORMAT",
    "DealNotActive",
    "HasHistory",
    "IdempotencyConflict",
    "ImportRefused",
    "InviteRefused",
    "NotAllowed",
    "Recorded",
    "ServiceError",
    "SessionClosed",
    "accept_invite",
    "add_member",
    "add_player",
    "close_session",
    "closed_at_target",
    "confirm_payment",
    "create_group",
    "create_invite",
    "delete_group",
    "delete_pair_stake",
    "delete_player",
    "delete_session",
    "edit_deal",
    "edit_payment",
    "export_group",
    "fantasyland",
    "import_group",
    "merge_players",
    "open_invite",
    "record_deal",
    "record_or_replay",
    "record_payment",
    "remove_member",
    "reopen_session",
    "restore_deal",
    "revoke_invite",
    "set_member_role",
    "set_pair_stake",
    "set_rules",
    "settle_session",
    "start_session",
    "store_review",
    "target_reached",
    "upcoming_dealer",
    "update_group",
    "update_player",
    "update_session",
    "void_deal",
    "void_payment",
]
