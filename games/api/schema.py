"""The OpenAPI schema held to what the service answers (``/api/schema/``).

drf-spectacular describes each operation's success from its serializers; the refusals the
shared machinery gives are added here, once, from what each view is made of, so that no
view lists them by hand and none is forgotten:

- 400 when the operation reads a body, takes query parameters or changes data (the
  services refuse a change that breaks a rule with ``ServiceError``);
- 401 when its first authenticator answers a challenge (``Authorization: Token``): no
  credentials, or a token that is not valid;
- 403 when a change may be refused for the caller's role or a browser session's missing
  CSRF token, and on every operation whose first authenticator has no challenge (the
  live table's seat links: DRF answers 403 where it would answer 401);
- 404 for a path naming an object (one of another group is not found either) and for a
  list's page out of range;
- 406 for an ``Accept`` header no renderer offers;
- 413 and 415 for a body over the size limit (``games.api.limits``) or of a media type
  no parser reads;
- 429 where the view is throttled;
- 503 everywhere: the database did not answer (``games.lib.health``), try again.

The requests are held to what the views take, too: a PATCH body is checked whole, as a
PUT's (``games.api.groups.validated``), so its required fields stay required; a text
field that may not be blank needs a character other than white space (DRF trims it), and
no text field takes a NUL.

Every refusal has the one body of ``games.api.errors``: ``{"error", "field"}``. What only
some views answer (409, a lock-out's 429) they declare with ``refusal()`` in their own
``extend_schema``; a code a view declares itself is kept as it is.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiResponse
from rest_framework import permissions, serializers
from rest_framework.authentication import SessionAuthentication

from games.api.authentication import DeviceTokenAuthentication

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# DRF's CharField: no NUL anywhere; unless blank is allowed, something besides white space.
NO_NUL = "^[^\\u0000]*$"
NOT_BLANK = "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$"


class ErrorSerializer(serializers.Serializer[Any]):
    """The body of every refusal: what went wrong, and the field that caused it."""

    error = serializers.CharField(help_text="what went wrong, for people to read")
    field = serializers.CharField(
        allow_null=True,
        help_text="the request's culprit as a path (players[1].front), or null",
    )


def refusal(description: str) -> OpenApiResponse:
    """A refusal a view declares itself (``extend_schema(responses={409: refusal(...)})``)."""
    return OpenApiResponse(ErrorSerializer, description=description)


CONFLICT = refusal(
    "Refused by the state of the data, not by the request: a closed session, a void deal"
    " or payment, recorded history, a deal in progress that does not allow it."
)


# (name, description, headers) of each shared refusal, by status code.
RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 0},
        "description": "seconds to wait before sending the request again",
    }
}
SHARED: dict[int, tuple[str, str, dict[str, Any]]] = {
    400: ("BadRequest", "The request is malformed or breaks a rule: `error` says why.", {}),
    401: ("Unauthorized", "No credentials, or a token that is not valid.", {}),
    403: (
        "Forbidden",
        "Refused to this caller: a role it lacks, a browser session without its CSRF token,"
        " or a seat link that is not valid here.",
        {},
    ),
    404: ("NotFound", "No such object among the caller's groups, or no such page.", {}),
    406: ("NotAcceptable", "No answer in a media type the Accept header allows.", {}),
    413: ("PayloadTooLarge", "The body is over the size limit.", {}),
    415: ("UnsupportedMediaType", "The body is of a media type the operation does not read.", {}),
    429: (
        "TooManyRequests",
        "Too many requests: try again after Retry-After seconds.",
        RETRY_AFTER,
    ),
    503: ("ServiceUnavailable", "The database is not answering: try again shortly.", RETRY_AFTER),
}


class ServiceSchema(AutoSchema):
    """drf-spectacular's AutoSchema, with the shared refusals each operation can answer."""

    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: Any,
    ) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(
            path, path_regex, path_prefix, method, registry
        )
        if operation is None:
            return None
        responses: dict[str, Any] = operation["responses"]
        for code in sorted(self.refusals(operation)):
            responses.setdefault(str(code), self._shared(code))
        return operation

    def get_auth(self) -> list[Any]:
        """The security of the operation, every device-token reader shown as the one
        ``tokenAuth`` scheme: a view may read the token with more (its session too, as the
        live table and recording a deal do), but the client sends the same header."""
        view = self.view
        readers = view.get_authenticators

        def as_sent() -> list[Any]:
            return [
                DeviceTokenAuthentication()
                if isinstance(found, DeviceTokenAuthentication)
                else found
                for found in readers()
            ]

        view.get_authenticators = as_sent  # type: ignore[method-assign]
        try:
            auth: list[Any] = super().get_auth()
        finally:
            del view.get_authenticators
        return auth

    def _get_request_for_media_type(self, serializer: Any, direction: str = "request") -> Any:
        if self.method != "PATCH":
            return super()._get_request_for_media_type(serializer, direction)
        # The views check a PATCH body whole (module docstring): not DRF's partial one.
        self.method = "PUT"
        try:
            return super()._get_request_for_media_type(serializer, direction)
        finally:
            self.method = "PATCH"

    def _map_serializer_field(
        self, field: Any, direction: str, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        plain_text = type(field) is serializers.CharField and schema.get("type") == "string"
        if plain_text and direction == "request" and "pattern" not in schema:
            blank_is_refused = not field.allow_blank and field.trim_whitespace
            schema["pattern"] = NOT_BLANK if blank_is_refused else NO_NUL
            if not field.allow_blank:
                schema.setdefault("minLength", 1)
        return schema

    def refusals(self, operation: dict[str, Any]) -> set[int]:
        """The status codes the shared machinery may answer this operation with."""
        codes = {406, 503}
        parameters = operation.get("parameters", [])
        has_body = "requestBody" in operation
        changes = self.method not in SAFE_METHODS
        if has_body:
            codes |= {413, 415}
        if has_body or changes or any(p["in"] == "query" for p in parameters):
            codes.add(400)
        if any(p["in"] == "path" for p in parameters) or self._is_paginated():
            codes.add(404)
        authenticators = self.view.get_authenticators()
        if authenticators:
            challenge = authenticators[0].authenticate_header(self.view.request)
            codes.add(401 if challenge else 403)
            session = any(isinstance(a, SessionAuthentication) for a in authenticators)
            if changes and (session or not self._allows_anyone()):
                codes.add(403)
        if self.view.get_throttles():
            codes.add(429)
        return codes

    def _allows_anyone(self) -> bool:
        return any(isinstance(p, permissions.AllowAny) for p in self.view.get_permissions())

    def _is_paginated(self) -> bool:
        return self.method == "GET" and self._is_list_view() and self._get_paginator() is not None

    def _shared(self, code: int) -> dict[str, str]:
        name, description, headers = SHARED[code]
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        response: dict[str, Any] = {
            "description": description,
            "content": {"application/json": {"schema": error}},
        }
        if headers:
            response["headers"] = headers
        self.registry.register_on_missing(
            ResolvedComponent(
                name=name, type=ResolvedComponent.RESPONSE, object=name, schema=response
            )
        )
        return {"$ref": f"#/components/responses/{name}"}
