"""A PDF document's life as a ``Document`` row, and the task that renders it.

What a document shows is ``games.sheets.compose``' job; turning HTML into a PDF is
``games.sheets.pdf``'s.

A document is requested (``request_document``: a ``pending`` row, its task queued after
the transaction commits), rendered by ``render_document`` (``render``), and then ``ready``
with its file stored, or ``failed`` with the reason. A worker killed while rendering does
not lose the task: the broker hands it to a worker again, and a document whose rendering
has stopped its worker ``MAX_LOST_RENDERS`` times is failed rather than tried again. A row
left ``pending`` longer than ``settings.DOCUMENT_PENDING_TIMEOUT`` (no worker running, say)
is marked failed when its status is next read, or by ``expire_overdue``
(``manage.py expire_documents``), so no row stays pending for ever; asking again renders a
new one. A ready document whose session has changed since is reported stale.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import re
from collections.abc import Callable
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone, translation
from kombu.exceptions import OperationalError as BrokerError

from games.languages import language_for
from games.models import Deal, Document, Group, Payment, Player, ReviewLine, Session
from games.permissions import require_member
from games.reports import Span
from games.sheets import compose, season

logger = logging.getLogger(__name__)

# Renders begun but never finished (their worker killed) before a document is given up on.
MAX_LOST_RENDERS = 2


def slug(text: str) -> str:
    """The text as a file name part: "Thursday night" -> "thursday-night"."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "session"


# --- what a document shows ---------------------------------------------------------------------


def fingerprint(session: Session, player: Player | None = None) -> str:
    """A hash of what a document of the session shows, cheap to take on every status read.

    Any deal recorded, edited or voided changes the count or the sum of versions; the
    session's details, the group's name and currency, and (for a ledger) the player's name
    and stakes are included as they are.
    """
    deals = session.deals.aggregate(
        count=Count("pk"), versions=Sum("version"), reviewed=Count("review")
    )
    parts: dict[str, Any] = {
        # Reviews (units missed) are added in the background after each deal.
        "deals": [deals["count"], deals["versions"] or 0, deals["reviewed"]],
        "session": [str(session.date), session.place, session.status, session.rules],
        # A close and a reopen: the sheet of a night closed again is made again.
        "events": session.events.count(),
        "group": [session.group.name, session.group.currency],
        "seats": list(session.seat_names().values()),
        # The sheet's payments and the balances carried in and out follow the
        # group's payments and its nights up to this one's date.
        "payments": list(
            Payment.objects.filter(group_id=session.group_id)
            .aggregate(count=Count("pk"), versions=Sum("version"))
            .values()
        ),
        "before": list(
            Deal.objects.filter(session__group_id=session.group_id, session__date__lte=session.date)
            .aggregate(count=Count("pk"), versions=Sum("version"))
            .values()
        ),
    }
    if player is not None:
        parts["player"] = player.name
        stakes = session.group.pair_stakes.filter(Q(player_a=player) | Q(player_b=player))
        parts["stakes"] = sorted(
            (a, b, str(m))
            for a, b, m in stakes.values_list("player_a_id", "player_b_id", "multiplier")
        )
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def season_fingerprint(
    group: Group,
    date_from: datetime.date | None,
    date_to: datetime.date | None,
    game: str = "",
) -> str:
    """A hash of what a season's PDF shows: its deals (count and versions, so any deal
    recorded, edited or voided changes it), its review lines, its seats (a merge moves
    them) and players' names, and the group's name and currency."""
    deals = Deal.objects.filter(session__group=group)
    lines = ReviewLine.objects.filter(deal__session__group=group)
    if date_from is not None:
        deals = deals.filter(session__date__gte=date_from)
        lines = lines.filter(deal__session__date__gte=date_from)
    if date_to is not None:
        deals = deals.filter(session__date__lte=date_to)
        lines = lines.filter(deal__session__date__lte=date_to)
    if game:
        deals = deals.filter(session__game=game)
        lines = lines.filter(deal__session__game=game)
    parts = {
        "deals": list(deals.aggregate(count=Count("pk"), versions=Sum("version")).values()),
        "lines": list(lines.aggregate(count=Count("pk"), missed=Sum("units_missed")).values()),
        "players": sorted(group.players.values_list("pk", "name")),
        "seats": sorted(
            deals.values_list("session_id", "session__seats__player_id").distinct().order_by()
        ),
        "group": [group.name, group.currency],
    }
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def document_fingerprint(document: Document) -> str:
    """The fingerprint of what the document shows now: its season's, or its session's."""
    if document.kind == Document.Kind.SEASON:
        assert document.group is not None
        return season_fingerprint(
            document.group, document.date_from, document.date_to, document.game
        )
    assert document.session is not None
    return fingerprint(document.session, document.player)


def _fresh(matching: Any, current: Callable[[], str]) -> Document | None:
    """Of the documents ``matching`` a request (a queryset), one still good: pending and
    not overdue, or ready with the fingerprint the data has now (``current``, worked out
    only when a ready one is there to compare)."""
    candidates = matching.filter(
        status__in=(Document.Status.PENDING, Document.Status.READY)
    ).order_by("-requested_at", "-pk")
    fingerprint_now = None
    for document in candidates[:5]:
        if document.status == Document.Status.PENDING:
            if not _overdue(document):
                return document
            continue
        fingerprint_now = fingerprint_now or current()
        if document.fingerprint == fingerprint_now:
            return document
    return None


def _fresh_existing(
    session: Session, kind: str, paper: str, player: Player | None, language: str
) -> Document | None:
    """A document of the same kind already ready and not stale, or pending and not overdue."""
    matching = Document.objects.filter(
        session=session, kind=kind, paper=paper, player=player, language=language
    )
    return _fresh(matching, lambda: fingerprint(session, player))


def request_document(
    session: Session,
    kind: str,
    by: User,
    *,
    player: Player | None = None,
    paper: str = Document.Paper.A4,
) -> tuple[Document, bool]:
    """A document of the session for a member of its group: ``(document, created)``.

    An up-to-date one (ready and not stale, or still pending) is returned as it is;
    otherwise a new ``pending`` row is made and its rendering queued once the transaction
    commits. ``player`` names whose ledger (ledgers only). It is rendered in the language
    of whoever asked: their stored choice, else the request's language.
    """
    require_member(by, session.group)
    if (kind == Document.Kind.LEDGER) != (player is not None):
        raise ValueError("a ledger needs a player, and only a ledger")
    language = language_for(by)
    existing = _fresh_existing(session, kind, paper, player, language)
    if existing is not None:
        return existing, False
    with transaction.atomic():
        document = Document.objects.create(
            session=session,
            kind=kind,
            player=player,
            paper=paper,
            language=language,
            requested_by=by,
        )
        transaction.on_commit(lambda: queue(document.pk))
    return document, True


def request_season_document(
    group: Group,
    by: User,
    *,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    game: str = "",
    paper: str = Document.Paper.A4,
) -> tuple[Document, bool]:
    """A PDF of the group's season between the two dates (of one game, or all) for a
    member of the group: ``(document, created)``, as ``request_document`` answers."""
    require_member(by, group)
    language = language_for(by)
    matching = Document.objects.filter(
        group=group,
        kind=Document.Kind.SEASON,
        date_from=date_from,
        date_to=date_to,
        game=game,
        paper=paper,
        language=language,
    )
    existing = _fresh(matching, lambda: season_fingerprint(group, date_from, date_to, game))
    if existing is not None:
        return existing, False
    with transaction.atomic():
        document = Document.objects.create(
            group=group,
            kind=Document.Kind.SEASON,
            date_from=date_from,
            date_to=date_to,
            game=game,
            paper=paper,
            language=language,
            requested_by=by,
        )
        transaction.on_commit(lambda: queue(document.pk))
    return document, True


def queue(document_id: int) -> None:
    """Send the document's task to the workers; a broker that cannot be reached fails it."""
    try:
        render_document.delay(document_id)
    except BrokerError as exc:
        logger.exception("could not queue document %s", document_id)
        mark_failed(document_id, f"could not queue the rendering: {exc}")


def render(document_id: int, tries: int = 0) -> Document | None:
    """Render a pending document and store its file: the task's work. None if not pending.

    ``tries``: the renders of it the task began before and saw fail (retried errors). Any
    other render begun (``attempts``) was lost with its worker; after ``MAX_LOST_RENDERS``
    of them, the document is marked failed instead of rendered, so a document that kills
    its worker every time ends. Rendering again is safe: a file left by a lost render is
    never referenced by the row, and the new one is saved under a name of its own.

    The fingerprint is taken before the data is read, so a change made while rendering
    can only make the document look stale, never hide that it is.
    """
    document = (
        Document.objects.select_related("session__group", "session__rule_set", "player", "group")
        .filter(pk=document_id)
        .first()
    )
    if document is None or document.status != Document.Status.PENDING:
        return None
    lost = document.attempts - tries
    if lost >= MAX_LOST_RENDERS:
        logger.error("document %s: %s renders lost with their worker; giving up", document_id, lost)
        mark_failed(
            document_id,
            f"the worker rendering it stopped {lost} times (killed, or out of memory); "
            "ask for the document again",
        )
        document.refresh_from_db()
        return document
    Document.objects.filter(pk=document_id).update(attempts=F("attempts") + 1)
    taken = document_fingerprint(document)
    session = document.session
    with translation.override(document.language):
        if session is None:
            assert document.group is not None
            span = Span("custom", document.date_from, document.date_to)
            html = season.season_html(
                document.group,
                span,
                document.game or None,
                compose.PAPER_SIZES[Document.Paper(document.paper)],
            )
            content = compose.pdf_bytes(html)
        else:
            content = compose.render(document.kind, session, document.player, document.paper)
    if session is None:
        assert document.group is not None
        name = f"{slug(document.group.name)}-{file_stem(document)}.pdf"
    else:
        name = f"{slug(session.group.name)}-{session.date}-{file_stem(document)}.pdf"
    document.file.save(name, ContentFile(content), save=False)
    document.fingerprint = taken
    document.status = Document.Status.READY
    document.error = ""
    document.finished_at = timezone.now()
    document.save(update_fields=["file", "fingerprint", "status", "error", "finished_at"])
    return document


def file_stem(document: Document) -> str:
    if document.kind == Document.Kind.SHEET:
        return f"sheet-{document.paper.lower()}"
    if document.kind == Document.Kind.SEASON:
        start, end = document.date_from or "start", document.date_to or "now"
        return f"season-{start}-{end}-{document.paper.lower()}"
    assert document.player is not None
    return f"ledger-{slug(document.player.name)}-{document.paper.lower()}"


def mark_failed(document_id: int, reason: str) -> None:
    """Record why a document could not be made (only while it is still pending)."""
    Document.objects.filter(pk=document_id, status=Document.Status.PENDING).update(
        status=Document.Status.FAILED, error=reason[:2000], finished_at=timezone.now()
    )


def pending_timeout() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.DOCUMENT_PENDING_TIMEOUT)


def duration_text(seconds: int) -> str:
    """A duration in words: whole minutes as minutes ("10 minutes", "1 minute"), anything
    else in seconds ("45 seconds", "90 seconds")."""
    if seconds >= 60 and not seconds % 60:
        count, unit = seconds // 60, "minute"
    else:
        count, unit = seconds, "second"
    return f"{count} {unit}{'' if count == 1 else 's'}"


def overdue_reason() -> str:
    return (
        f"not rendered within {duration_text(settings.DOCUMENT_PENDING_TIMEOUT)}: no worker "
        "took the task, or it was lost; ask for the document again"
    )


def _overdue(document: Document) -> bool:
    return (
        document.status == Document.Status.PENDING
        and timezone.now() - document.requested_at > pending_timeout()
    )


def refresh(document: Document) -> Document:
    """The document as it stands, an overdue pending one marked failed first."""
    if _overdue(document):
        mark_failed(document.pk, overdue_reason())
        document.refresh_from_db()
    return document


def expire_overdue() -> int:
    """Mark every overdue pending document failed, read or not; how many were."""
    return Document.objects.filter(
        status=Document.Status.PENDING, requested_at__lt=timezone.now() - pending_timeout()
    ).update(status=Document.Status.FAILED, error=overdue_reason(), finished_at=timezone.now())


def is_stale(document: Document) -> bool:
    """Whether a ready document no longer shows its session as it is now."""
    if document.status != Document.Status.READY:
        return False
    return document.fingerprint != document_fingerprint(document)


def download_name(document: Document) -> str:
    """The file name offered to the browser."""
    return (document.file.name or "document.pdf").rsplit("/", 1)[-1]


# Worth another try: the database or the storage went away for a moment.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, OSError)
MAX_RETRIES = 3


# Acknowledged once done, not when taken: if the worker dies mid-render (SIGKILL, out of
# memory) the broker hands the task out again instead of dropping it. A pool process lost
# is requeued at once; a whole worker lost, after the broker's visibility timeout
# (settings). ``render`` counts the renders lost, so this cannot loop for ever.
@shared_task(
    name="games.tasks.render_document",  # as before the tasks moved beside their work
    bind=True,
    max_retries=MAX_RETRIES,
    acks_late=True,
    reject_on_worker_lost=True,
)
def render_document(self: Task, document_id: int) -> str:
    """Render a pending ``Document`` and store its file; it ends ``ready`` or ``failed``.

    Transient errors are retried: on a worker after 2, 4 and 8 s (the worker is free in
    between); run eagerly (no broker), at once, in the caller, since Celery's eager mode
    propagates a retry as an error. After the last try, or on any other error, the row is
    marked failed with the reason. Returns "ready", "failed", or "skipped" (not pending).
    """
    tries = self.request.retries
    while True:
        try:
            document = render(document_id, tries)
        except TRANSIENT_ERRORS as exc:
            if tries >= MAX_RETRIES:
                logger.exception("document %s failed after %s tries", document_id, tries + 1)
                mark_failed(
                    document_id,
                    f"gave up after {tries + 1} tries: {type(exc).__name__}: {exc}",
                )
                return "failed"
            logger.warning("document %s: %s; retrying", document_id, exc)
            if not self.request.is_eager:
                raise self.retry(exc=exc, countdown=2 ** (tries + 1)) from exc
            tries += 1
        except Exception as exc:
            logger.exception("document %s could not be rendered", document_id)
            mark_failed(document_id, f"could not render: {type(exc).__name__}: {exc}")
            return "failed"
        else:
            return str(document.status) if document is not None else "skipped"
