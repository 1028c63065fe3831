"""Login lock-out, done by django-axes: the pieces its settings name, and the few things it
does not do by itself.

Every login path (the admin, the browsable API's login, the token endpoint, the web pages)
checks a password through ``django.contrib.auth.authenticate()``. Axes' backend, first in
``AUTHENTICATION_BACKENDS``, refuses a locked-out username and address there; axes counts
every failed check in the database (its ``AccessAttempt`` rows, shared by every process),
keyed by the username and the client address together, so one player's wrong passwords on
a shared Wi-Fi never lock out another's. The failure that reaches ``LOGIN_FAILURE_LIMIT``
and every attempt after it, even with the right password, get the lock-out answer, until
``LOGIN_FAILURE_WINDOW`` seconds after that failure (``lockout_response``).

What axes leaves to the project: the client's address as the logs see it
(``login_address``), a username that fits its column (``login_username``), clearing the
count after a token was issued or a password changed (``forget_failures``: axes clears it
on a session login only), and the answer itself.
"""

from __future__ import annotations

import ipaddress
import math
from typing import Any

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.db.models import Max
from django.forms import Form
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.response import SimpleTemplateResponse
from django.utils import timezone

from scorekeeper.logging import client_ip

# axes' AccessAttempt.username column.
USERNAME_LENGTH = 255


def login_address(request: HttpRequest) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: the client's address as the request logs see it
    (``TRUST_X_FORWARDED_FOR`` included); None when that is no IP address (an
    X-Forwarded-For a client wrote itself), which axes' column could not hold."""
    address = client_ip(request)
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def login_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the username tried, cut to the length axes keeps (the
    token endpoint takes usernames of any length; a NUL could not be stored)."""
    if credentials:
        name = credentials.get("username")
    else:
        name = getattr(request, "POST", {}).get("username")
    if name is None:
        return None
    return str(name).replace("\0", "")[:USERNAME_LENGTH]


def _address_of(request: HttpRequest) -> str | None:
    return getattr(request, "axes_ip_address", None) or login_address(request)


def seconds_locked(request: HttpRequest, username: str | None) -> int:
    """The seconds until this username may try again from this request's address: the
    window counted from its last counted failure (at least 1)."""
    window = get_cool_off(request)
    seconds = window.total_seconds() if window else 0.0
    last = AccessAttempt.objects.filter(
        username=username, ip_address=_address_of(request)
    ).aggregate(last=Max("attempt_time"))["last"]
    if last is not None and window is not None:
        seconds = (last + window - timezone.now()).total_seconds()
    return max(1, math.ceil(seconds))


def lockout_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return (
        f"Too many failed logins from here: try again in {minutes} minute"
        f"{'s' if minutes > 1 else ''}."
    )


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: ``429 Too Many Requests`` with ``Retry-After``. A JSON
    answer (the token endpoint) becomes the API's error shape; a page with a form (every
    login form, the password change) is shown again with the message as its error; any
    other answer becomes the message as text."""
    username = login_username(request, credentials if isinstance(credentials, dict) else None)
    wait = seconds_locked(request, username)
    message = lockout_message(wait)
    content_type = original_response.get("Content-Type", "") if original_response else ""
    form = _form_of(original_response)
    response: HttpResponse
    if content_type.startswith("application/json"):
        response = JsonResponse({"error": message, "field": None}, status=429)
    elif isinstance(original_response, SimpleTemplateResponse) and form is not None:
        form.errors.clear()
        form.add_error(None, message)
        original_response.content = original_response.rendered_content
        original_response.status_code = 429
        response = original_response
    else:
        response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(wait)
    return response


def _form_of(response: HttpResponse | None) -> Form | None:
    context = getattr(response, "context_data", None) or {}
    form = context.get("form")
    return form if isinstance(form, Form) else None


def forget_failures(request: HttpRequest, username: str) -> None:
    """Clears the failures counted for this username from this request's address, after
    a proof of its password that is no session login (a token issued, a password
    changed), as axes does after one (``AXES_RESET_ON_SUCCESS``)."""
    AccessAttempt.objects.filter(
        username=login_username(request, {"username": username}),
        ip_address=_address_of(request),
    ).delete()
