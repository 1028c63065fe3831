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


BIG_TWO_KEYS = ("wins", "cards_left", "multiplied", "twos")


@pytest.mark.django_db(transaction=True)
def test_migration_0022_adds_the_big_two_counts_to_older_tallies(night: Session) -> None:
    results = dict(night.deals.values_list("pk", "result"))
    # The tallies as stored before the Big Two counts; one deal already has them.
    first, *others = sorted(results)
    for pk in others:
        old = {
            name: {key: value for key, value in mine.items() if key not in BIG_TWO_KEYS}
            for name, mine in tally(results[pk]).items()
        }
        Deal.objects.filter(pk=pk).update(tally=old)
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    migrate([("games", "0021_tidy_free_text")])
    try:
        migrate([("games", "0022_tally_big_two")])
    finally:
        migrate(latest)

    stored = dict(Deal.objects.values_list("pk", "tally"))
    assert stored == {pk: tally(result) for pk, result in results.items()}
    assert all(mine["wins"] == 0 for mine in stored[first].values())
