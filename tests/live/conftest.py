from tests.services.conftest import ann_user, bob_user, group, players, session, stranger

__all__ = ["ann_user", "bob_user", "group", "players", "session", "stranger"]
