"""The Content-Security-Policy header: django-csp's middleware, with two things on top.

django-csp writes ``CONTENT_SECURITY_POLICY["DIRECTIVES"]`` (settings) on every answer
that has no such header yet. It has no way to widen the policy for every page under a path
prefix (short of a decorator on each view, and the admin's and DRF's views are not ours),
nor to add sources that depend on the request; this subclass adds both, as django-csp's
own ``update`` (its sources after the policy's own, each once):

- ``CONTENT_SECURITY_POLICY_ADDITIONS``: sources added for the pages under a path prefix
  (Django's admin, DRF's browsable API and Swagger UI bring inline styles of their own);
- ``connect-src``: the request's own host over ws: and wss: and the live socket's origin
  (``games.live.socket_url``), which depend on the host the page was asked for.

django-csp writes the directives in no fixed order (it goes through a set); the header is
then put back in the settings' order, so that it reads the same on every answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from csp.constants import HEADER
from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from games.live.socket_url import connect_sources

Policy = Mapping[str, Sequence[str]]


def merged(*policies: Policy) -> dict[str, list[str]]:
    """The directives of all ``policies``, each directive's sources in order, once each."""
    directives: dict[str, list[str]] = {}
    for policy in policies:
        for name, sources in policy.items():
            have = directives.setdefault(name, [])
            have.extend(source for source in sources if source not in have)
    return directives


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, plus the additions of every prefix the path starts with
    and the request's WebSocket origins."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if report_only:
            return parts
        additions: Mapping[str, Policy] = settings.CONTENT_SECURITY_POLICY_ADDITIONS
        by_path = [extra for prefix, extra in additions.items() if request.path.startswith(prefix)]
        sockets = {"connect-src": connect_sources(request)}
        parts.update = merged(*by_path, sockets, parts.update or {})
        return parts

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response = super().process_response(request, response)
        if HEADER in response:
            response[HEADER] = in_order(response[HEADER], settings.CONTENT_SECURITY_POLICY)
        return response


def in_order(header: str, config: Mapping[str, Mapping[str, object]]) -> str:
    """The header's directives in the order of the policy in ``config`` (django-csp's
    setting), any other after them as they came."""
    directives = [part.strip() for part in header.split(";") if part.strip()]
    order = {name: k for k, name in enumerate(config.get("DIRECTIVES", {}))}
    ranked = sorted(directives, key=lambda part: order.get(part.split()[0], len(order)))
    return "; ".join(ranked)
