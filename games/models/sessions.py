"""A night at the table: its seats, its rules and its history of closes and reopens."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext

from games.engine.games import GAMES
from games.engine.openface import played_in_fantasyland
from games.models.groups import Group, Player
from games.models.rules import RuleSet


class Session(models.Model):
    """A night at the table, played under one resolved rule set."""

    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="sessions")
    # One of the engine's games (``games.engine.games.GAMES``), as the session's rules say.
    game = models.CharField(max_length=20)
    date = models.DateField()
    place = models.CharField(max_length=100, blank=True)
    notes = models.TextField(blank=True)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="sessions")
    rules_override = models.JSONField(null=True, blank=True)
    rules = models.JSONField(help_text="the resolved rules in force for every deal")
    target_score = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    players = models.ManyToManyField(Player, through="SessionSeat", related_name="sessions")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    last_deal_number = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="the number of the session's latest deal; recording a deal increments it,"
        " which also locks the session row until the deal is stored",
    )

    class Meta:
        ordering = ("-date", "-pk")
        indexes = (
            models.Index(fields=("group", "date"), name="session_group_date"),
            models.Index(fields=("group", "game"), name="session_group_game"),
        )

    def __str__(self) -> str:
        where = f" at {self.place}" if self.place else ""
        return f"{self.group}: {self.game} on {self.date}{where}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def game_name(self) -> str:
        """The game's name for people, as its descriptor gives it."""
        return gettext(GAMES[self.game].display_name)

    def seat_names(self) -> dict[int, str]:
        """Player id -> the name the player sat down with, in seat order.

        The session's deals, results and ledgers use these names; a player renamed since
        keeps the old one here.
        """
        # Seats never change once a session has started: read once per object.
        names: dict[int, str] | None = self.__dict__.get("_seat_names")
        if names is None:
            names = dict(self.seats.order_by("seat").values_list("player_id", "name"))
            self.__dict__["_seat_names"] = names
        return dict(names)

    def seated(self) -> dict[str, int]:
        """The seat names, in seat order, with each seat's player id."""
        return {name: pk for pk, name in self.seat_names().items()}

    def button_stays_after(self, last: tuple[int, int | None] | None) -> bool:
        """Whether the dealer button stays put after the deal numbered ``last[0]``:
        open-face under ``button_stays_in_fantasyland`` (RULES 13) when anyone played that
        deal in fantasy land (``games.dealing``). Reads that deal's request only then."""
        if last is None or not GAMES[self.game].has_fantasyland:
            return False
        if not self.rules.get("button_stays_in_fantasyland", False):
            return False
        request = self.deals.filter(number=last[0]).values_list("request", flat=True).first()
        return played_in_fantasyland(request)


class SessionSeat(models.Model):
    """A player's seat at one session, under the name they sat down with.

    The session's deals are entered, scored and stored under that name, so renaming the
    player later (even during the session) changes neither the night's deals nor its reports.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=50, help_text="the player's name at this session")

    class Meta:
        ordering = ("session", "seat")
        constraints = (
            models.UniqueConstraint(fields=("session", "player"), name="seat_player_unique"),
            models.UniqueConstraint(fields=("session", "seat"), name="seat_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.name} in seat {self.seat}"


class SessionEvent(models.Model):
    """A close or a reopen of a session: its history, shown on the scoreboard."""

    class Action(models.TextChoices):
        CLOSE = "close"
        REOPEN = "reopen"

    session = models.ForeignKey("games.Session", on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=6, choices=Action.choices)
    reason = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("session", "at", "id")

    def __str__(self) -> str:
        return f"{self.action} of session {self.session_id}"
