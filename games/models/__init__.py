"""Every row the service stores, one module per aggregate; all of them importable from here.

Rows are stored as entered or as the engine answered; nothing is a running number, and data
is changed only through ``games.services``.

- ``groups``: a group, its members and players, pair stakes, invite links, player merges
- ``rules``: a group's rules, version by version
- ``sessions``: a night, its seats and its closes and reopens
- ``deals``: a deal, its revisions, its ledger rows and its review lines
- ``payments``: money handed between two players, and its history
- ``live``: the live table's seat links and deal in progress
- ``jobs``: PDF documents and imports done in the background
- ``accounts``: API tokens and language preferences
"""

from games.models.accounts import DeviceToken, LanguagePreference
from games.models.deals import Deal, DealRevision, LedgerEntry, ReviewLine
from games.models.groups import (
    DEFAULT_PRESET,
    Group,
    GroupInvite,
    Membership,
    PairStake,
    Player,
    PlayerMerge,
)
from games.models.jobs import Document, ImportJob
from games.models.live import LiveDeal, LiveEntry, SeatLink
from games.models.payments import Payment, PaymentRevision
from games.models.rules import LastRuleSet, RuleSet
from games.models.sessions import Session, SessionEvent, SessionSeat

__all__ = [
    "DEFAULT_PRESET",
    "Deal",
    "DealRevision",
    "DeviceToken",
    "Document",
    "Group",
    "GroupInvite",
    "ImportJob",
    "LanguagePreference",
    "LastRuleSet",
    "LedgerEntry",
    "LiveDeal",
    "LiveEntry",
    "Membership",
    "PairStake",
    "Payment",
    "PaymentRevision",
    "Player",
    "PlayerMerge",
    "ReviewLine",
    "RuleSet",
    "SeatLink",
    "Session",
    "SessionEvent",
    "SessionSeat",
]
