"""Rule sets, sessions and deals stored before the Mau Binh presets gained
``five_consecutive_pairs`` and the open-face presets ``button_stays_in_fantasyland`` keep
the rules they were played under (RULES 13): each spec is pinned to what it gave, and each
resolved mapping is written as ``Rules.to_mapping`` writes it now
(``games.engine.stored``)."""

from typing import Any

from django.db import migrations

from games.engine.stored import as_played, missing


def keep_what_they_held(apps: Any, schema_editor: Any) -> None:
    RuleSet = apps.get_model("games", "RuleSet")
    Session = apps.get_model("games", "Session")
    Deal = apps.get_model("games", "Deal")
    DealRevision = apps.get_model("games", "DealRevision")
    for rule_set in RuleSet.objects.all().iterator():
        if missing(rule_set.rules):
            rule_set.spec, rule_set.rules = as_played(rule_set.spec, rule_set.rules)
            rule_set.save(update_fields=["spec", "rules"])
    for session in Session.objects.all().iterator():
        if missing(session.rules):
            before = session.rules
            if session.rules_override is not None:
                session.rules_override = as_played(session.rules_override, before)[0]
            session.rules = as_played(before, before)[1]
            session.save(update_fields=["rules_override", "rules"])
    for deal in Deal.objects.all().iterator():
        if missing(deal.rules):
            deal.rules = as_played(deal.rules, deal.rules)[1]
            if isinstance(deal.result, dict) and missing(deal.result.get("rules")):
                deal.result["rules"] = deal.rules
            deal.save(update_fields=["rules", "result"])
    for revision in DealRevision.objects.all().iterator():
        result = revision.result
        if isinstance(result, dict) and missing(result.get("rules")):
            result["rules"] = as_played(result["rules"], result["rules"])[1]
            revision.save(update_fields=["result"])


class Migration(migrations.Migration):
    dependencies = [("games", "0021_tidy_free_text")]

    operations = [migrations.RunPython(keep_what_they_held, migrations.RunPython.noop)]
