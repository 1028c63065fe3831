"""The owner's view of the stored data: read and tidy, but scores change only via services."""

from django.contrib import admin
from django.http import HttpRequest

from games.models import (
    Deal,
    DealRevision,
    Document,
    Group,
    LedgerEntry,
    Membership,
    PairStake,
    Player,
    RuleSet,
    Session,
    SessionSeat,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ("name", "currency", "unit_value", "created_at")
    search_fields = ("name",)
    inlines = (MembershipInline, PlayerInline)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "group", "role", "joined_at")
    list_filter = ("role",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "group", "user")
    search_fields = ("name",)
    list_filter = ("group",)


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    list_display = ("group", "version", "created_by", "created_at")
    readonly_fields = ("rules",)
    list_filter = ("group",)


@admin.register(PairStake)
class PairStakeAdmin(admin.ModelAdmin):
    list_display = ("group", "player_a", "player_b", "multiplier")


class SeatInline(admin.TabularInline):
    model = SessionSeat
    extra = 0


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ("group", "game", "date", "place", "status")
    list_filter = ("game", "status", "group")
    date_hierarchy = "date"
    readonly_fields = ("rules",)
    inlines = (SeatInline,)


class LedgerInline(admin.TabularInline):
    model = LedgerEntry
    extra = 0
    readonly_fields = ("player_a", "player_b", "units", "money")
    can_delete = False


class RevisionInline(admin.TabularInline):
    model = DealRevision
    extra = 0
    readonly_fields = ("version", "action", "reason", "changed_by", "changed_at")
    fields = readonly_fields
    can_delete = False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    """Read-only: a deal is changed with edit_deal/void_deal so its ledger follows."""

    list_display = ("session", "number", "status", "version", "created_by", "updated_at")
    list_filter = ("status",)
    readonly_fields = (
        "session",
        "number",
        "request",
        "rules",
        "result",
        "status",
        "idempotency_key",
        "version",
        "created_by",
    )
    inlines = (LedgerInline, RevisionInline)


@admin.register(DealRevision)
class DealRevisionAdmin(admin.ModelAdmin):
    list_display = ("deal", "version", "action", "changed_by", "changed_at")
    list_filter = ("action",)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ("deal", "player_a", "player_b", "units", "money")


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    """Rendered PDFs: to look at and to delete (their files go with them); they are asked
    for through the API or the pages, never added here."""

    list_display = ("session", "kind", "player", "paper", "status", "requested_at", "finished_at")
    list_filter = ("status", "kind")
    readonly_fields = (
        "session",
        "kind",
        "player",
        "paper",
        "status",
        "error",
        "file",
        "fingerprint",
        "attempts",
        "requested_by",
        "requested_at",
        "finished_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
