"""The scoring engine: pure, typed Python with no framework imports.

Everything that scores (the API, the web page, PDFs, tasks) calls this package. What
differs from game to game is described in ``games`` (``GAMES``, ``descriptor_for``), and
every rule option in ``options`` (``OPTIONS``).
"""

from .errors import RuleError, ScoreError
from .games import GAMES, Descriptor, descriptor_for, player_hands
from .options import OPTIONS, OPTIONS_BY_GAME, Option
from .request import Deal, parse_request, render, score_deal, score_request
from .rules import PRESETS, Rules

__all__ = [
    "GAMES",
    "OPTIONS",
    "OPTIONS_BY_GAME",
    "PRESETS",
    "Deal",
    "Descriptor",
    "Option",
    "RuleError",
    "Rules",
    "ScoreError",
    "descriptor_for",
    "parse_request",
    "player_hands",
    "render",
    "score_deal",
    "score_request",
]
