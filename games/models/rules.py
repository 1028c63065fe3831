"""A group's rules, version by version, and the rule that a group always keeps one.

Version 1 is stored with the group (``Group.save``); later versions come from
``services.set_rules``. Sessions PROTECT the version they started under, and deleting a
group's last version is refused (``LastRuleSet``), so a group's page always has rules.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import ProtectedError


class LastRuleSet(ProtectedError):
    """Deleting these rule sets would leave a group without rules."""


class RuleSetQuerySet(models.QuerySet["RuleSet"]):
    def delete(self) -> tuple[int, dict[str, int]]:
        """Refused (LastRuleSet) when a group would keep none of its versions.

        Deleting the group itself takes its rule sets with it (the cascade does not come
        through here).
        """
        with transaction.atomic(using=self.db):
            doomed = list(self.select_for_update().values_list("pk", "group_id"))
            groups = {group for _, group in doomed}
            kept = set(
                RuleSet.objects.filter(group_id__in=groups)
                .exclude(pk__in=[pk for pk, _ in doomed])
                .values_list("group_id", flat=True)
            )
            bare = groups - kept
            if bare:
                last = list(RuleSet.objects.filter(group_id__in=bare))
                raise LastRuleSet(
                    "a group always keeps a rules version: its last one cannot be deleted",
                    set(last),
                )
            return super().delete()


class RuleSet(models.Model):
    """One version of a group's rules: the spec as agreed and the engine's resolution.

    A group's last version cannot be deleted (LastRuleSet); sessions PROTECT theirs.
    """

    group = models.ForeignKey("games.Group", on_delete=models.CASCADE, related_name="rule_sets")
    version = models.PositiveIntegerField()
    spec = models.JSONField(help_text="a preset name, or {'preset': NAME, OPTION: VALUE}")
    rules = models.JSONField(help_text="Rules.from_mapping(spec).to_mapping()")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RuleSetQuerySet.as_manager()

    class Meta:
        ordering = ("group", "version")
        constraints = (
            models.UniqueConstraint(fields=("group", "version"), name="ruleset_version_unique"),
        )

    def __str__(self) -> str:
        return f"{self.group} rules v{self.version} ({self.rules.get('preset')})"

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        return RuleSet.objects.filter(pk=self.pk).delete()
