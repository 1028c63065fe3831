"""ASGI entry point: Django's pages and API over HTTP, the live pages' WebSockets.

Served by Daphne (``runserver`` in development, the ``live`` process in production:
docs/operations.md). A WebSocket is accepted only from an origin in ``ALLOWED_HOSTS``, and
carries the signed-in user from the session cookie.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

# Django is set up before anything imports the models (the consumers do).
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games.lib import after_response  # noqa: E402
from games.lib.asgi_limit import limited  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Work left for after the response (announcements, review tasks) waits for it
        # under ASGI too (games.lib.after_response); so many requests at once, no more
        # (a thread and a database connection each: games.lib.asgi_limit), and one that
        # cannot start in time is answered 503 with Retry-After (games.lib.busy).
        "http": limited(
            after_response.asgi(django_application),
            settings.ASGI_MAX_REQUESTS,
            settings.ASGI_MAX_WAIT,
        ),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
