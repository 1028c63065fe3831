"""The owner's view of the stored data: read and tidy, but scores change only via services.

Whatever moves money (a ledger row, a deal and its revisions, a session's status, seats and
rules, a pair stake, a rule set) is shown read-only: the admin offers no add, change or
delete for it, and refuses such a post with 403. Those change through the services (the API
and the pages), which check who may, keep the history and write the ledger with the deal.

What the admin does write (a group's name and stakes, a player's name and user) goes through
the services' own checks, refused with the words the API answers; a player stays in their
group.
"""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.authtoken.models import TokenProxy

from games.engine.rules import PRESETS, preset_rules
from games.errors import ServiceError
from games.models import (
    DEFAULT_PRESET,
    Deal,
    DealRevision,
    DeviceToken,
    Document,
    Group,
    LedgerEntry,
    Membership,
    PairStake,
    Payment,
    PaymentRevision,
    Player,
    PlayerMerge,
    RuleSet,
    Session,
    SessionSeat,
)
from games.services import checks, groups, names, players


class Checked(forms.CharField):
    """Text checked by a service's ``check`` before anything else (Django's own required,
    length and NUL checks included), so that the admin refuses it with the service's
    message."""

    def __init__(self, check: Callable[[str], object], **kwargs: Any) -> None:
        self.check = check
        super().__init__(strip=False, **kwargs)

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if not isinstance(text, str):
            return text
        try:
            return self.check(text)
        except ServiceError as exc:
            raise forms.ValidationError(exc.message) from None


class ReadOnly:
    """View only: no add, change or delete, on a model's own pages or inline."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


class PlayerInline(ReadOnly, admin.TabularInline):
    """Shown only: a player is added and renamed on the player's own page, where the names'
    rules are checked."""

    model = Player
    extra = 0
    fields = ("name", "user", "retired_at")


def _group_name(text: str) -> str:
    return names.clean(text, max_length=groups.NAME_LENGTH, what="a group")


class GroupForm(forms.ModelForm):
    """A group's name, currency and unit value, checked as the services check them."""

    name = Checked(_group_name, max_length=groups.NAME_LENGTH)
    currency = Checked(checks.currency, max_length=3)
    unit_value = Checked(checks.unit_value)

    class Meta:
        model = Group
        fields = ("name", "currency", "unit_value")


class GroupAddForm(GroupForm):
    """A new group's fields and the preset its rules start from (version 1)."""

    preset = forms.ChoiceField(
        choices=[(name, f"{name} ({preset_rules(name).game})") for name in PRESETS],
        initial=DEFAULT_PRESET,
        help_text="the group's first rules; later versions come from the rules page or the API",
    )

    class Meta:
        model = Group
        fields = ("name", "currency", "unit_value")


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    """Groups: a new one starts with the preset picked here as its rules version 1."""

    list_display = ("name", "currency", "unit_value", "created_at")
    search_fields = ("name",)
    inlines = (MembershipInline, PlayerInline)
    form = GroupForm

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = GroupAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def save_model(self, request: HttpRequest, obj: Group, form: Any, change: bool) -> None:
        if not change:
            obj.initial_rules = form.cleaned_data["preset"]
            obj.initial_rules_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """Memberships: an existing one's user and group are shown, never changed (that would
    move a user into another group unasked); its role may change."""

    list_display = ("user", "group", "role", "joined_at")
    list_filter = ("role",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("user", "group") if obj is not None else ()


class PlayerForm(forms.ModelForm):
    """A player's name under the names' rules and unique in the group, and their user a
    member linked to no other player of it, as ``games.services.players`` checks both."""

    class Meta:
        model = Player
        fields = ("name", "group", "user", "retired_at")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The name's own field: the names' rules first, with their message.
        self.fields["name"] = Checked(
            lambda text: names.clean(text, max_length=players.NAME_LENGTH),
            max_length=players.NAME_LENGTH,
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        group = data.get("group") or getattr(self.instance, "group", None)
        but = self.instance if self.instance.pk else None
        if group is None:
            return data
        try:
            if data.get("name"):
                data["name"] = players.checked_name(group, data["name"], but=but)
        except ServiceError as exc:
            self.add_error("name", exc.message)
        user = data.get("user")
        try:
            if isinstance(user, User):
                players.check_link(group, user, but=but)
        except ServiceError as exc:
            self.add_error("user", exc.message)
        return data


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Players: a name is checked as the API checks it; an existing player's group is shown,
    never changed (their seats, deals and payments belong to it)."""

    form = PlayerForm
    list_display = ("name", "group", "user", "retired_at")
    search_fields = ("name",)
    list_filter = ("group",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("group",) if obj is not None else ()


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: the record of a merge (games.services.merges)."""

    list_display = ("gone_name", "kept_name", "group", "merged_by", "merged_at")
    list_filter = ("group",)


@admin.register(RuleSet)
class RuleSetAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: set_rules adds a version; sessions keep the one they started under."""

    list_display = ("group", "version", "created_by", "created_at")
    list_filter = ("group",)


@admin.register(PairStake)
class PairStakeAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: set_pair_stake and delete_pair_stake (owners only) change a pair's stake."""

    list_display = ("group", "player_a", "player_b", "multiplier")


class SeatInline(ReadOnly, admin.TabularInline):
    model = SessionSeat
    extra = 0


@admin.register(Session)
class SessionAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: a session is started, corrected, closed and deleted by the services."""

    list_display = ("group", "game", "date", "place", "status")
    list_filter = ("game", "status", "group")
    date_hierarchy = "date"
    inlines = (SeatInline,)


class LedgerInline(ReadOnly, admin.TabularInline):
    model = LedgerEntry
    extra = 0


class RevisionInline(ReadOnly, admin.TabularInline):
    model = DealRevision
    extra = 0
    readonly_fields = ("version", "action", "reason", "changed_by", "changed_at")
    fields = readonly_fields


@admin.register(Deal)
class DealAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: a deal is changed with edit_deal/void_deal so its ledger follows."""

    list_display = ("session", "number", "status", "version", "created_by", "updated_at")
    list_filter = ("status",)
    inlines = (LedgerInline, RevisionInline)


@admin.register(DealRevision)
class DealRevisionAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("deal", "version", "action", "changed_by", "changed_at")
    list_filter = ("action",)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("kind", "deal", "payment", "player_a", "player_b", "units", "money")
    list_filter = ("kind",)


class PaymentRevisionInline(ReadOnly, admin.TabularInline):
    model = PaymentRevision
    extra = 0


@admin.register(Payment)
class PaymentAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: a payment is confirmed, corrected and voided by the services, so that its
    ledger row and its history follow."""

    list_display = ("group", "date", "payer", "payee", "amount", "status", "version")
    list_filter = ("status",)
    inlines = (PaymentRevisionInline,)


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    """Rendered PDFs: to look at and to delete (their files go with them); they are asked
    for through the API or the pages, never added here."""

    list_display = (
        "session",
        "group",
        "kind",
        "player",
        "paper",
        "status",
        "requested_at",
        "finished_at",
    )
    list_filter = ("status", "kind")
    readonly_fields = (
        "session",
        "group",
        "date_from",
        "date_to",
        "game",
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


# DRF's plain-text tokens are read no more (games.api.authentication): not offered here.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    """API tokens: to look at and to revoke (delete); made only by their user's login, and
    showing no key (only its hash is kept). A new password set here for a user revokes
    every token of theirs (games.models.accounts)."""

    list_display = ("user", "device", "created", "last_used", "expires")
    search_fields = ("user__username", "device")
    readonly_fields = ("user", "device", "created", "last_used", "expires")
    exclude = ("key_hash",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
