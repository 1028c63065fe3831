"""Arrangement analysis: every way to set 13 cards, a quick heuristic, a Monte
Carlo auto-arrange, a fantasy-land hand's best 13, and the review of a recorded deal.

The work is done in ``splits`` (every setting of 13 cards as arrays, and the heuristic),
``versus`` (scoring settings over arrays), ``expected`` (the Monte Carlo auto-arrange),
``fantasyland``, ``review`` (one player of a recorded deal) and ``review_batch`` (a whole
deal at once); ``request`` answers the API's JSON requests. What the rest of the code
uses is importable from here. The package builds on the scoring half of the engine
(``seats``, ``scoring``), which never imports it.
"""

from .expected import Arrangement, Choice, arrange_expected
from .fantasyland import FantasySetting, arrange_fantasyland
from .request import DEFAULT_SAMPLES, MAX_SAMPLES, arrange_request, review_request
from .review import Review, review, review_fantasyland
from .review_batch import review_all
from .splits import SPLITS, Hand13, Setting, arrange_heuristic, iter_settings, settings

__all__ = [
    "DEFAULT_SAMPLES",
    "MAX_SAMPLES",
    "SPLITS",
    "Arrangement",
    "Choice",
    "FantasySetting",
    "Hand13",
    "Review",
    "Setting",
    "arrange_expected",
    "arrange_fantasyland",
    "arrange_heuristic",
    "arrange_request",
    "iter_settings",
    "review",
    "review_all",
    "review_fantasyland",
    "review_request",
    "settings",
]
