from typing import Any

from django.conf import settings
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.authentication import DeviceTokenAuthentication
from games.api.errors import score_error_response
from games.api.parsers import JSONParser
from games.api.score_answer import ScoreAnswerSerializer
from games.api.throttles import CostThrottle, signed_in
from games.engine import Rules, ScoreError, score_request
from games.engine.arrangement import MAX_SAMPLES, arrange_request
from games.errors import error_body
from games.words import answer_language, localized_result

# What the calculators read before the engine does: the rules, and the players' hands or
# the cards to arrange (docs/deal-format.md; the engine names any other fault).
RULES_SCHEMA = {"description": "a preset's name, or {'preset': NAME, option: value, ...}"}


def request_schema(required: str, description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"rules": RULES_SCHEMA, required: {"description": description}},
        "required": ["rules", required],
    }


LANG_PARAMETER = OpenApiParameter(
    "lang",
    str,
    description="the language of the answer's words (en, vi, ...); wins over Accept-Language",
    required=False,
)


def error_response(message: str, field: str | None = None) -> Response:
    return Response(error_body(message, field), status=400)


class _CalculatorView(APIView):
    """A stateless engine call: JSON object in, JSON out; it stores nothing, so it needs
    neither a login nor a CSRF token. ``ScoreError`` answers 400 ``{"error", "field"}``.

    A token or a signed-in session, when sent, names the caller, who is then throttled as
    that user rather than by address (``games.api.throttles``). They are checked as
    everywhere in the API: a bad token is 401, a session needs its CSRF token."""

    authentication_classes = (DeviceTokenAuthentication, SessionAuthentication)
    permission_classes = (AllowAny,)
    parser_classes = (JSONParser,)
    throttle_classes = (CostThrottle,)
    throttle_scope = "score"
    what = "a request"

    def compute(self, request: Request, body: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def post(self, request: Request) -> Response:
        try:
            body: Any = request.data
        except ParseError as exc:
            return error_response(str(exc.detail))
        if not isinstance(body, dict):
            return error_response(f"The body must be a JSON object: {self.what}.")
        try:
            return Response(self.compute(request, body))
        except ScoreError as exc:
            return score_error_response(exc, request)

    def check_scope(self, request: Request, scope: str) -> None:
        """Counts the call under a further scope too: 429 when that one is used up."""
        throttle = CostThrottle(scope)
        if not throttle.allow_request(request, self):
            self.throttled(request, throttle.wait())


@extend_schema_view(
    post=extend_schema(
        request={
            "application/json": request_schema("players", "2 to 4 players, each a name and a hand")
        },
        parameters=[LANG_PARAMETER],
        responses=ScoreAnswerSerializer,
    )
)
class ScoreView(_CalculatorView):
    """Score one deal: the body is a score request, the answer its result."""

    what = "a score request"

    def compute(self, request: Request, body: dict[str, Any]) -> dict[str, Any]:
        result = score_request(body)
        with translation.override(answer_language(request)):
            return localized_result(result, Rules.from_mapping(result["rules"]))

    def post(self, request: Request) -> Response:
        response = super().post(request)
        if response.status_code == 200:
            response["Content-Language"] = answer_language(request)
        return response


@extend_schema_view(
    post=extend_schema(
        request={
            "application/json": request_schema("cards", "13 cards (a fantasy-land hand: 14 to 17)")
        },
        responses=OpenApiTypes.OBJECT,
    )
)
class ArrangeView(_CalculatorView):
    """How to set 13 cards: the heuristic split, or the best expected one.

    Expected mode costs up to seconds of CPU: it counts under the ``expected`` scope as
    well as ``arrange``, and an anonymous caller may ask for at most
    ``ARRANGE_ANON_MAX_SAMPLES`` samples (signed in, the engine's ``MAX_SAMPLES``) and a
    fantasy-land hand of at most ``ARRANGE_ANON_MAX_FANTASY_CARDS`` cards (signed in, 17)."""

    what = "an arrange request"
    throttle_scope = "arrange"

    def compute(self, request: Request, body: dict[str, Any]) -> dict[str, Any]:
        if body.get("mode") == "expected":
            self.check_scope(request, "expected")
        if signed_in(request):
            return arrange_request(body)
        cap: int = settings.ARRANGE_ANON_MAX_SAMPLES
        fantasy_cap: int = settings.ARRANGE_ANON_MAX_FANTASY_CARDS
        try:
            return arrange_request(body, max_samples=cap, max_fantasy_cards=fantasy_cap)
        except ScoreError as exc:
            if exc.field == "samples" and cap < MAX_SAMPLES:
                raise ScoreError.refused(
                    "anonymous_samples", exc.field, reason=exc.code, most=MAX_SAMPLES
                ) from exc
            if exc.field == "cards" and "fantasy-land" in exc.message and fantasy_cap < 17:
                raise ScoreError.refused("anonymous_fantasy", exc.field, reason=exc.code) from exc
            raise
