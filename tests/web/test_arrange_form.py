"""Arrange on the deal form: the engine's expected-value search with a fixed seed, and the
page says how the rows were set."""

from django.test import Client

from games.models import Session

# The arrangement docs' example: the strength heuristic breaks KKK77 and the QQ front to
# put a king beside four aces; the expected-value setting keeps both.
EXAMPLE = "As Ad Ah Ac 2c Ks Kd Kh 7c 7d Qs Qd 3h"
BEST = {"front": "Qs Qd 3h", "middle": "Ks Kh Kd 7d 7c", "back": "As Ah Ad Ac 2c"}


def test_arrange_keeps_the_made_hands_and_says_how(session: Session, as_bob: Client) -> None:
    url = f"/sessions/{session.pk}/deal/"
    page = as_bob.post(url, {"p1-cards13": EXAMPLE, "arrange": "1"})
    assert page.status_code == 200
    seat = page.context["seats"][1]
    assert {row: getattr(seat["entry"], row) for row in BEST} == BEST
    assert seat["arranged"].startswith("Arranged for the most expected units (+11.")
    assert "tried against 1,000 random hands" in page.content.decode()

    js = as_bob.post(url + "preview/", {"p1-cards13": EXAMPLE, "arrange": "1"}).json()
    assert {row: js["arranged"][row] for row in BEST} == BEST
    assert js["arranged"]["how"] == seat["arranged"]  # the same seed, the same answer
