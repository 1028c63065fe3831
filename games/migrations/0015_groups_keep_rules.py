"""Every group has rules: a group made without any (in the admin, by a script) before
``Group.save`` stored version 1 gets version 1 now, the standard preset."""

from typing import Any

from django.db import migrations

from games.engine.rules import Rules


def give_rules(apps: Any, schema_editor: Any) -> None:
    Group = apps.get_model("games", "Group")
    RuleSet = apps.get_model("games", "RuleSet")
    rules = Rules.from_mapping("standard").to_mapping()
    for group in Group.objects.filter(rule_sets__isnull=True):
        RuleSet.objects.create(group=group, version=1, spec="standard", rules=rules)


class Migration(migrations.Migration):
    dependencies = [("games", "0014_players")]

    operations = [migrations.RunPython(give_rules, migrations.RunPython.noop)]
