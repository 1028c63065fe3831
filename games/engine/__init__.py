"""The scoring engine: pure, typed Python with no framework imports.

Everything that scores (the API, the web page, PDFs, tasks) calls this package.
"""

from .errors import RuleError, ScoreError
from .request import Deal, parse_request, render, score_deal, score_request
from .rules import PRESETS, Rules

__all__ = [
    "PRESETS",
    "Deal",
    "RuleError",
    "Rules",
    "ScoreError",
    "parse_request",
    "render",
    "score_deal",
    "score_request",
]
