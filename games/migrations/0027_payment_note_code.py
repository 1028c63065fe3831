"""Payments get a ``note_code``: the note "settles the night of <date>" that settling a night
writes is rendered in the reader's language and the reader's date, not stored as text in the
settler's language with an ISO date.

The rows written before, in any of the site's languages, become that code when their date
is their night's; a note typed by hand (any other text) stays as it is. Going back writes
the English sentence into the rows again.
"""

from typing import Any

from django.db import migrations, models

SETTLES_NIGHT = "settles-night"
# "settles the night of %(date)s" as the catalogues had it when these notes were written
# (English, Vietnamese, Simplified and Traditional Chinese), with the ISO date.
WRITTEN = (
    "settles the night of {}",
    "thanh toán đêm {}",
    "结清 {} 那一晚",
    "結清 {} 那一晚",
)


def _is_settling_note(note: str, night: Any) -> bool:
    return night is not None and note in {form.format(night.isoformat()) for form in WRITTEN}


def to_codes(apps: Any, schema_editor: Any) -> None:
    Payment = apps.get_model("games", "Payment")
    PaymentRevision = apps.get_model("games", "PaymentRevision")
    nights = {}
    rows = Payment.objects.exclude(session=None).exclude(note="").select_related("session")
    for payment in rows.iterator():
        nights[payment.pk] = payment.session.date
        if _is_settling_note(payment.note, payment.session.date):
            payment.note, payment.note_code = "", SETTLES_NIGHT
            payment.save(update_fields=["note", "note_code"])
    revisions = PaymentRevision.objects.filter(payment_id__in=list(nights)).exclude(note="")
    for revision in revisions.iterator():
        if _is_settling_note(revision.note, nights[revision.payment_id]):
            revision.note, revision.note_code = "", SETTLES_NIGHT
            revision.save(update_fields=["note", "note_code"])


def to_text(apps: Any, schema_editor: Any) -> None:
    Payment = apps.get_model("games", "Payment")
    PaymentRevision = apps.get_model("games", "PaymentRevision")
    for model, night in ((Payment, "session__date"), (PaymentRevision, "payment__session__date")):
        coded = model.objects.filter(note_code=SETTLES_NIGHT, note="").exclude(**{night: None})
        for pk, date in coded.values_list("pk", night).iterator():
            model.objects.filter(pk=pk).update(note=WRITTEN[0].format(date.isoformat()))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0026_live_message_code"),
    ]

    operations = [
        migrations.AddField(
            model_name="payment",
            name="note_code",
            field=models.CharField(
                blank=True,
                choices=[("", "Typed"), ("settles-night", "Settles Night")],
                default="",
                help_text="a note rendered in the reader's language when ``note`` is empty",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="paymentrevision",
            name="note_code",
            field=models.CharField(
                blank=True,
                choices=[("", "Typed"), ("settles-night", "Settles Night")],
                default="",
                max_length=16,
            ),
        ),
        migrations.RunPython(to_codes, to_text),
    ]
