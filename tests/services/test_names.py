"""Names: stored in NFKC with control and invisible characters refused, unique in a group
after case-folding."""

import pytest
from django.contrib.auth.models import User
from hypothesis import given
from hypothesis import strategies as st

from games import services
from games.models import Group, Player, Session
from games.services import names
from tests.api.conftest import API, client_for
from tests.services.test_text_writers import stored_text_is_clean


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Ann ", "Ann"),
        ("Mary   Jane", "Mary Jane"),
        ("\uff21\uff4e\uff4e", "Ann"),  # full-width letters
        ("Ann\u00a0Lee", "Ann Lee"),  # a no-break space
        ("Đức", "Đức"),
        ("Ann\n", "Ann"),  # a line break typed at the end is trimmed, not refused
    ],
)
def test_a_name_is_stored_normalised(typed: str, stored: str) -> None:
    assert names.clean(typed, max_length=50) == stored


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("An\nn", "a control character (U+000A line break) at position 3"),
        ("Ann\rEve", "a control character (U+000D line break) at position 4"),
        ("A\tnn", "a control character (U+0009) at position 2"),
        ("B\u200bob", "an invisible character (U+200B ZERO WIDTH SPACE) at position 2"),
        ("\u202eAnn", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("Ann\u2028Eve", "U+2028 LINE SEPARATOR"),
        ("\u200b\u200b", "U+200B"),  # only invisible characters: refused, not blank
        ("", "a player needs a name"),
        ("   ", "a player needs a name"),
        ("x" * 51, "at most 50 characters, got 51"),
    ],
)
def test_a_name_that_hides_or_breaks_is_refused_with_its_cause(typed: str, words: str) -> None:
    with pytest.raises(services.ServiceError) as refused:
        names.clean(typed, max_length=50)
    assert refused.value.field == "name"
    assert refused.value.message.startswith("name: ")
    assert words in refused.value.message


def test_a_name_must_be_text() -> None:
    with pytest.raises(services.ServiceError, match="name: expected text, got int"):
        names.clean(5, max_length=50)


@given(st.text(max_size=60))
def test_whatever_is_typed_a_stored_name_is_clean_and_stable(typed: str) -> None:
    try:
        stored = names.clean(typed, max_length=50)
    except services.ServiceError:
        return
    assert stored and len(stored) <= 50
    assert stored == stored.strip() and "  " not in stored
    assert stored_text_is_clean(stored, form="NFKC")  # a joiner only between emoji
    assert names.clean(stored, max_length=50) == stored  # cleaning twice changes nothing
    assert names.key(stored.upper()) == names.key(stored.lower()) == names.key(stored)


@given(st.text(min_size=1, max_size=40))
def test_a_file_name_part_is_safe_in_a_header(name: str) -> None:
    part = names.file_part(name)
    assert part
    assert not any(c in part for c in '\r\n"\\/ ;')


@pytest.mark.parametrize("look_alike", ["ann", "ANN", "\uff21\uff4e\uff4e", " Ann "])
def test_a_look_alike_of_a_player_is_the_same_player(
    group: Group, players: dict[str, Player], bob_user: User, look_alike: str
) -> None:
    with pytest.raises(services.ServiceError) as refused:
        services.add_player(group, look_alike, by=bob_user)
    assert refused.value.field == "name"
    assert "Friday club already has a player named 'Ann'" in refused.value.message
    assert group.players.count() == 4


def test_a_rename_to_a_look_alike_is_refused_but_a_change_of_case_is_not(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    with pytest.raises(services.ServiceError, match="already has a player named 'Ann'"):
        services.update_player(players["Bob"], ann_user, name="aNN")
    renamed = services.update_player(players["Ann"], ann_user, name="ANN")
    assert renamed.name == "ANN"


def test_group_names_and_places_are_checked_too(
    group: Group, session: Session, ann_user: User
) -> None:
    with pytest.raises(services.ServiceError, match="name: an invisible character"):
        services.update_group(group, ann_user, name="Friday\u200b club")
    with pytest.raises(services.ServiceError, match="name: at most 100 characters"):
        services.create_group(ann_user, "G" * 101, "EUR", 1, "classic-1-6")
    with pytest.raises(services.ServiceError, match="place: a control character"):
        services.update_session(session, ann_user, place="Ann's\nkitchen")
    with pytest.raises(services.ServiceError, match="place: at most 100 characters"):
        services.update_session(session, ann_user, place="P" * 500)
    assert services.update_session(session, ann_user, place="  ").place == ""


def test_the_api_answers_400_for_each_kind_of_bad_name(
    group: Group, players: dict[str, Player], bob_user: User
) -> None:
    url = f"{API}/groups/{group.pk}/players/"
    as_bob = client_for(bob_user)
    for name, words in [
        ("ann", "already has a player named 'Ann' ('ann' is the same name)"),
        ("Ev\u200be", "U+200B ZERO WIDTH SPACE"),
        ("Ev\r\ne", "a control character (U+000D line break)"),
    ]:
        answer = as_bob.post(url, {"name": name}, format="json")
        assert answer.status_code == 400, name
        assert words in answer.json()["error"]
        assert answer.json()["field"] == "name"
    made = as_bob.post(url, {"name": "\uff25ve"}, format="json")
    assert made.status_code == 201 and made.json()["name"] == "Eve"


def test_a_session_seats_a_player_named_in_another_case(
    group: Group, players: dict[str, Player], bob_user: User
) -> None:
    answer = client_for(bob_user).post(
        f"{API}/sessions/", {"group": group.pk, "players": ["ann", "BOB", "Cy"]}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    seated = Session.objects.get(pk=answer.json()["id"]).seat_names()
    assert list(seated.values()) == ["Ann", "Bob", "Cy"]
