"""The group page's player actions without a browser: who may, and errors where they happen."""

import re

from django.test import Client

from games.models import Group, Player, PlayerMerge, Session


def action(group: Group, player: Player) -> str:
    return f"/groups/{group.pk}/players/{player.pk}/"


def test_members_see_no_actions_and_may_not_post_them(
    as_bob: Client, group: Group, players: dict[str, Player]
) -> None:
    page = as_bob.get(f"/groups/{group.pk}/").content.decode()
    assert "players-list" not in page and "Cy, Di" in page
    response = as_bob.post(action(group, players["Di"]), {"action": "retire"})
    assert response.status_code == 403
    assert not Player.objects.get(pk=players["Di"].pk).is_retired


def test_a_refused_merge_is_shown_beside_the_player(
    as_alice: Client, group: Group, players: dict[str, Player], session: Session
) -> None:
    response = as_alice.post(
        action(group, players["Cy"]), {"action": "merge", "into": players["Di"].pk}
    )

    assert response.status_code == 400
    page = response.content.decode()
    assert "Cy and Di both sat at the session of" in page
    # The refused player's panel is the one left open, whatever the template's indents.
    opened = re.search(r'<li data-player="(\d+)">\s*<details class="manage" open>', page)
    assert opened is not None and opened.group(1) == str(players["Cy"].pk)
    assert not PlayerMerge.objects.exists()


def test_retire_then_bring_back_and_rename(
    as_alice: Client, group: Group, players: dict[str, Player]
) -> None:
    di = players["Di"]
    assert as_alice.post(action(group, di), {"action": "retire"}).status_code == 302
    new_session = as_alice.get(f"/groups/{group.pk}/sessions/new/").content.decode()
    assert f'value="{di.pk}"' not in new_session
    posted = as_alice.post(
        f"/groups/{group.pk}/sessions/new/",
        {"seat1": players["Ann"].pk, "seat2": di.pk, "game": "chinese"},
    )
    assert posted.status_code == 400 and "Di retired" in posted.content.decode()
    assert as_alice.post(action(group, di), {"action": "unretire"}).status_code == 302
    assert f'value="{di.pk}"' in as_alice.get(f"/groups/{group.pk}/sessions/new/").content.decode()
    renamed = as_alice.post(action(group, di), {"action": "rename", "name": "Diana"}, follow=True)
    assert "Di is now called Diana" in renamed.content.decode()
    refused = as_alice.post(action(group, di), {"action": "rename", "name": "ann"})
    assert refused.status_code == 400 and "already has a player named" in refused.content.decode()
    assert as_alice.post(action(group, di), {"action": "juggle"}).status_code == 400


def test_the_pair_stake_picker_offers_no_retired_player(
    as_alice: Client, group: Group, players: dict[str, Player]
) -> None:
    import re

    di = players["Di"]
    assert as_alice.post(action(group, di), {"action": "retire"}).status_code == 302
    page = as_alice.get(f"/groups/{group.pk}/").content.decode()
    for select in ("pair-first", "pair-second"):
        options = re.search(rf'<select id="{select}" name="\w+">(.*?)</select>', page, re.S)
        assert options is not None
        offered = re.findall(r'<option value="(\d+)"', options.group(1))
        assert str(di.pk) not in offered and str(players["Ann"].pk) in offered
