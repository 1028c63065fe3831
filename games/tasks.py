"""The Celery tasks, imported here so that the workers find them (``autodiscover_tasks``).

Each task lives beside the work it runs: a deal's review in ``games.services.reviews``, a
document's rendering in ``games.sheets.documents``, an uploaded export's import in
``games.services.imports``. They take ids and are queued once the
transaction that wrote their rows commits, so a worker never looks for a row that is not
committed yet. Without a broker (the embedded default) they run inline, in the process
that queued them.
"""

from games.services.imports import import_group_file
from games.services.reviews import review_deal, review_deals
from games.sheets.documents import MAX_RETRIES, TRANSIENT_ERRORS, render_document

__all__ = [
    "MAX_RETRIES",
    "TRANSIENT_ERRORS",
    "import_group_file",
    "render_document",
    "review_deal",
    "review_deals",
]
