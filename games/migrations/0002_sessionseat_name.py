"""Each seat keeps the name its player sat down with, so a later rename leaves the night's
deals (stored under that name) and its reports as they were."""

from typing import Any

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def name_seats(apps: Any, schema_editor: Any) -> None:
    SessionSeat = apps.get_model("games", "SessionSeat")
    Player = apps.get_model("games", "Player")
    name = Player.objects.filter(pk=OuterRef("player_id")).values("name")[:1]
    SessionSeat.objects.update(name=Subquery(name))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="sessionseat",
            name="name",
            field=models.CharField(
                default="", help_text="the player's name at this session", max_length=50
            ),
            preserve_default=False,
        ),
        migrations.RunPython(name_seats, migrations.RunPython.noop),
    ]
