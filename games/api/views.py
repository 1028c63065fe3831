from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.parsers import JSONParser
from games.engine import ScoreError, score_request
from games.engine.arrange import arrange_request
from games.errors import error_body


def error_response(message: str, field: str | None = None) -> Response:
    return Response(error_body(message, field), status=400)


class _CalculatorView(APIView):
    """A stateless engine call: JSON object in, JSON out; it stores nothing, so it needs
    neither a login nor a CSRF token. ``ScoreError`` answers 400 ``{"error", "field"}``."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    parser_classes = (JSONParser,)
    what = "a request"

    def compute(self, body: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request) -> Response:
        try:
            body: Any = request.data
        except ParseError as exc:
            return error_response(str(exc.detail))
        if not isinstance(body, dict):
            return error_response(f"The body must be a JSON object: {self.what}.")
        try:
            return Response(self.compute(body))
        except ScoreError as exc:
            return error_response(exc.message, exc.field)


class ScoreView(_CalculatorView):
    """Score one deal: the body is a score request, the answer its result."""

    what = "a score request"

    def compute(self, body: dict[str, Any]) -> dict[str, Any]:
        return score_request(body)


class ArrangeView(_CalculatorView):
    """How to set 13 cards: the heuristic split, or the best expected one."""

    what = "an arrange request"

    def compute(self, body: dict[str, Any]) -> dict[str, Any]:
        return arrange_request(body)
