"""The engine's words in the reader's language: hand names, foul reasons, the review's
reasons, card errors and the refusals of bad input, rendered from the message codes the
engine gives beside its English text (``games.engine.messages``), on the pages, the seat
pages, the PDFs and in the API's answers.

``said`` renders one message; ``results`` walks a stored result, finding again the codes
of one stored before they existed, from its cards.
"""

from games.words.refusals import error_text, refusal_text
from games.words.results import (
    answer_language,
    localized_result,
    result_codes,
    result_in,
    review_code,
    review_in,
    row_labels,
)
from games.words.said import card_error_text, foul_text, hand_label, review_text

__all__ = [
    "answer_language",
    "card_error_text",
    "error_text",
    "foul_text",
    "hand_label",
    "localized_result",
    "refusal_text",
    "result_codes",
    "result_in",
    "review_code",
    "review_in",
    "review_text",
    "row_labels",
]
