from django.apps import AppConfig
from django.core import signals


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.lib import after_response

        signals.request_started.connect(after_response.request_started)
        signals.request_finished.connect(after_response.request_finished)
