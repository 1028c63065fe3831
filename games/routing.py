"""The WebSocket URLs (``scorekeeper.asgi``); every other URL is Django's (``urls.py``)."""

from django.urls import path

from games.consumers import SessionConsumer

websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", SessionConsumer.as_asgi()),
]
