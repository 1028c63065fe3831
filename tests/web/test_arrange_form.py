"""Arrange on the deal form: the engine's expected-value search with a fixed seed, and the
page says how the rows were set."""

from django.test import Client

from games.models import Session
from tests.services.hands import HANDS
from tests.web.forms import deal_form

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


def test_a_natural_is_declared_from_the_13_cards_alone(session: Session, as_bob: Client) -> None:
    """Di holds six pairs (hand D): she declares it and gives her 13 cards, no rows."""
    form = deal_form(Ann="A", Bob="B", Cy="C")
    form["p3-natural"] = "six_pairs"
    form["p3-cards13"] = " ".join(HANDS["D"].values())
    preview = as_bob.post(f"/sessions/{session.pk}/deal/preview/", form).json()
    assert "error" not in preview
    assert {p["name"]: p["units"] for p in preview["units"]}["Di"] == "+9"

    saved = as_bob.post(f"/sessions/{session.pk}/deal/", form)
    assert saved.status_code == 302
    di = session.deals.get().request["players"][3]
    # Stored as given: the 13 cards, which the engine lays out as the natural.
    assert di == {"name": "Di", "natural": "six_pairs", "cards": form["p3-cards13"]}
    units = {p["name"]: p["units"] for p in session.deals.get().result["players"]}
    assert units == {"Ann": "-10", "Bob": "2", "Cy": "-1", "Di": "9"}


def test_a_natural_the_cards_do_not_make_is_refused_with_the_cards_kept(
    session: Session, as_bob: Client
) -> None:
    form = deal_form(Ann="A", Bob="B", Cy="C")
    form["p3-natural"] = "six_pairs"
    form["p3-cards13"] = " ".join(HANDS["A"].values()).replace("Ac", "As")
    form["p0-front"] = "Ac Kc 3d"
    page = as_bob.post(f"/sessions/{session.pk}/deal/", form)
    assert page.status_code == 400
    assert "Di declared six_pairs, but no setting of the 13 cards makes it" in page.content.decode()
    assert page.context["seats"][3]["entry"].cards13 == form["p3-cards13"]
    assert session.deals.count() == 0
