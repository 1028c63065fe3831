"""Django's PostgreSQL backend with two changes for the hot paths (``base.py``)."""
