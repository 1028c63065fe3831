"""The API tests' Friday club (Alice owns it, Bob plays, Mallory is an outsider)."""

from tests.api import conftest as api_fixtures

alice = api_fixtures.alice
bob = api_fixtures.bob
mallory = api_fixtures.mallory
as_alice = api_fixtures.as_alice
as_mallory = api_fixtures.as_mallory
group = api_fixtures.group
players = api_fixtures.players
session = api_fixtures.session
