# Written by hand: the stored tallies gain the Big Two counts (no schema change).

from django.db import migrations

from games.engine.tally import tally

BATCH = 500


def retally_stored_deals(apps, schema_editor):
    """Tally again the deals whose stored tally lacks the Big Two counts (``wins``,
    ``cards_left``, ``multiplied``, ``twos``), so every summary can add them up."""
    Deal = apps.get_model("games", "Deal")
    batch = []
    stored = Deal.objects.filter(tally__isnull=False).only("pk", "tally", "result")
    for deal in stored.iterator(chunk_size=BATCH):
        if all("wins" in mine for mine in deal.tally.values()):
            continue
        deal.tally = tally(deal.result)
        batch.append(deal)
        if len(batch) == BATCH:
            Deal.objects.bulk_update(batch, ["tally"])
            batch = []
    Deal.objects.bulk_update(batch, ["tally"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_tidy_free_text"),
    ]

    operations = [
        migrations.RunPython(retally_stored_deals, migrations.RunPython.noop, elidable=True),
    ]
