"""``manage.py render_document``: a session's sheet or a player's ledger, straight to a PDF file.

For scripts and cron: renders in this process (no worker, no ``Document`` row) and writes
the file, or standard output with ``-o -``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Document, Player, Session
from games.sheets import compose


class Command(BaseCommand):
    help = (
        "Render a session's settlement sheet, or one player's ledger against each opponent "
        "at it, to a PDF file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=[kind.value for kind in Document.Kind])
        parser.add_argument("session", type=int, help="the session's id")
        parser.add_argument(
            "--player", help="ledgers: the player, by id or by the name they sat down with"
        )
        parser.add_argument(
            "--paper",
            default=Document.Paper.A4.value,
            choices=[paper.value for paper in Document.Paper],
            help="paper size (default A4)",
        )
        parser.add_argument(
            "-o",
            "--output",
            help="the PDF file to write ('-' for standard output); "
            "default <kind>-<session>[-<player>].pdf in the current directory",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        session = (
            Session.objects.select_related("group", "rule_set")
            .filter(pk=options["session"])
            .first()
        )
        if session is None:
            raise CommandError(f"there is no session {options['session']}")
        kind = options["kind"]
        player = None
        if kind == Document.Kind.LEDGER:
            player = self._player(session, options["player"])
        elif options["player"] is not None:
            raise CommandError("--player is for ledgers only")

        content = compose.render(kind, session, player, options["paper"])
        output = options["output"] or self._default_name(kind, session, player)
        if output == "-":
            sys.stdout.buffer.write(content)
            sys.stdout.buffer.flush()
            return
        try:
            Path(output).write_bytes(content)
        except OSError as exc:
            raise CommandError(f"cannot write {output}: {exc.strerror}") from None
        self.stderr.write(f"wrote {output} ({len(content):,} bytes)")

    @staticmethod
    def _player(session: Session, given: str | None) -> Player:
        if given is None:
            raise CommandError("a ledger needs --player (an id, or a name at the session)")
        seats = session.seats.select_related("player")
        seat = (
            seats.filter(player_id=int(given)).first()
            if given.isdigit()
            else seats.filter(name=given).first()
        )
        if seat is None:
            names = ", ".join(seats.values_list("name", flat=True))
            raise CommandError(f"no player {given!r} sat at session {session.pk} ({names})")
        return seat.player

    @staticmethod
    def _default_name(kind: str, session: Session, player: Player | None) -> str:
        whose = f"-{player.pk}" if player is not None else ""
        return f"{kind}-{session.pk}{whose}.pdf"
