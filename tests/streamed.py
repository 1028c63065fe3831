"""The body of an answer written as it is read (a ``StreamingHttpResponse``)."""

from typing import Any


def streamed(response: Any) -> bytes:
    """Every piece of the streamed answer, joined."""
    return b"".join(response.streaming_content)
