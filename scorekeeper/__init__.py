# Loaded with Django so that tasks queued from views use this app and its settings.
from scorekeeper.celery import app as celery_app

__all__ = ["celery_app"]
