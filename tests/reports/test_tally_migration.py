"""Migrations 0005 and 0022 tally the deals stored before them, as recording does now."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine.tally import tally
from games.models import Deal, Session


def migrate(targets: list[tuple[str, str]]) -> None:
    MigrationExecutor(connection).migrate(targets)


@pytest.mark.django_db(transaction=True)
def test_the_migration_tallies_stored_deals(night: Session) -> None:
    results = dict(night.deals.values_list("pk", "result"))
    assert len(results) >= 10
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    # Back to before tallies (the column goes), then forward: the migration fills it in.
    migrate([("games", "0004_document")])
    try:
        migrate([("games", "0005_deal_tally")])
    finally:
        migrate(latest)

    stored = dict(Deal.objects.values_list("pk", "tally"))
    assert stored == {pk: tally(result) for pk, result in results.items()}


@pytest.mark.django_db(transaction=True)
def test_migration_0023_tallies_big_two_and_fantasy_land(night: Session) -> None:
    stored = dict(night.deals.values_list("pk", "tally"))
    # As tallied before: no scoops given, no Big Two counts, no fantasy land.
    season_keys = (
        "scooped",
        "wins",
        "cards_left",
        "multiplied",
        "twos",
        "fantasy_entries",
        "fantasy_stays",
    )
    for deal in Deal.objects.all():
        assert deal.tally is not None
        deal.tally = {
            name: {k: v for k, v in mine.items() if k not in season_keys}
            for name, mine in deal.tally.items()
        }
        deal.save(update_fields=["tally"])
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    migrate([("games", "0022_rules_keep_what_they_held")])
    try:
        migrate([("games", "0023_tally_big_two_and_fantasy_land")])
    finally:
        migrate(latest)
    assert dict(Deal.objects.values_list("pk", "tally")) == stored
    assert any(mine["scooped"] for tally in stored.values() if tally for mine in tally.values())
