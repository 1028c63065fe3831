"""Stored free text made to pass the text policy (``games.services.texts``): notes, reasons
and device names written before it may hold a line break, a tab or an invisible character,
which the pages and the API now refuse, so such a row could no longer be edited or exported
and imported again. Each becomes a space or is dropped (``texts.tidy``); a night's notes
keep their line breaks. Rows that already pass are not written."""

from __future__ import annotations

from typing import Any

from django.db import migrations

from games.services.texts import tidy

# (model, field, multi-line)
FIELDS = (
    ("Payment", "note", False),
    ("PaymentRevision", "note", False),
    ("PaymentRevision", "reason", False),
    ("DealRevision", "reason", False),
    ("Session", "notes", True),
    ("SessionEvent", "reason", False),
    ("DeviceToken", "device", False),
)


def tidy_stored_text(apps: Any, schema_editor: Any) -> None:
    for model_name, field, multiline in FIELDS:
        model = apps.get_model("games", model_name)
        limit = model._meta.get_field(field).max_length
        changed = []
        for pk, text in model.objects.exclude(**{field: ""}).values_list("pk", field).iterator():
            tidied = tidy(text, multiline=multiline)[:limit]
            if tidied != text:
                changed.append(model(pk=pk, **{field: tidied}))
        model.objects.bulk_update(changed, [field], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("games", "0020_live_presence")]

    operations = [migrations.RunPython(tidy_stored_text, migrations.RunPython.noop, elidable=True)]
