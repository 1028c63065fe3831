# Written by hand: the tallies of the deals already stored gain the season's counts.

from django.db import migrations

from games.engine.tally import tally

BATCH = 500


def retally_stored_deals(apps, schema_editor):
    """Tally every stored deal again from its result and request, so that Big Two's wins
    and cards left and open-face fantasy land are counted for the nights already played
    (the other counts come out as they were)."""
    Deal = apps.get_model("games", "Deal")
    batch = []
    for deal in Deal.objects.only("pk", "result", "request").iterator(chunk_size=BATCH):
        deal.tally = tally(deal.result, deal.request)
        batch.append(deal)
        if len(batch) == BATCH:
            Deal.objects.bulk_update(batch, ["tally"])
            batch = []
    Deal.objects.bulk_update(batch, ["tally"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_rules_keep_what_they_held"),
    ]

    operations = [
        migrations.RunPython(retally_stored_deals, migrations.RunPython.noop, elidable=True),
    ]
