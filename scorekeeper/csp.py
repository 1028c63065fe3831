"""A Content-Security-Policy header on every answer.

``CONTENT_SECURITY_POLICY`` (settings) is the policy, directive by directive: the
table-side pages load scripts, styles and images from this site only, and run no inline
script. ``CONTENT_SECURITY_POLICY_ADDITIONS`` widens it for the pages under a path prefix
that need more (Django's admin, DRF's browsable API and Swagger UI bring inline styles of
their own): each source listed there is added to the directive's sources. ``connect-src``
also gets the request's own host over ws: and wss: and the live socket's origin
(``games.live.socket_url``), which depend on the host the page was asked for. A header a view
set itself is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games.live.socket_url import connect_sources

HEADER = "Content-Security-Policy"
Policy = Mapping[str, Sequence[str]]


def header_value(policy: Policy, *additions: Policy) -> str:
    """The header's text: each directive with its sources, those of ``additions`` after
    the policy's own (once each)."""
    directives: dict[str, list[str]] = {name: list(sources) for name, sources in policy.items()}
    for extra in additions:
        for name, sources in extra.items():
            have = directives.setdefault(name, [])
            have.extend(source for source in sources if source not in have)
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


class ContentSecurityPolicyMiddleware:
    """Sets the policy (with the additions of every prefix the path starts with)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        policy: Policy = settings.CONTENT_SECURITY_POLICY
        additions: Mapping[str, Policy] = settings.CONTENT_SECURITY_POLICY_ADDITIONS
        self.default = [policy]
        self.by_prefix = [
            (prefix, [policy, *(additions[p] for p in additions if prefix.startswith(p))])
            for prefix in sorted(additions, key=len, reverse=True)
        ]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            policies = next(
                (found for prefix, found in self.by_prefix if request.path.startswith(prefix)),
                self.default,
            )
            sockets = {"connect-src": ["'self'", *connect_sources(request)]}
            response[HEADER] = header_value(*policies, sockets)
        return response
