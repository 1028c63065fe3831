"""The WebSocket URLs (``scorekeeper.asgi``); every other URL is Django's (``urls.py``)."""

from django.urls import path

from games.live.consumers import SessionConsumer

websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", SessionConsumer.as_asgi()),
]
