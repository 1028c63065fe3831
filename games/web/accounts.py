"""Accounts: sign-up, password change and password reset, on Django's own auth views.

Sign-up and reset requests are counted per client address (games.lib.form_posts), so
neither can be used to flood the database or someone's mailbox. The password change checks
the old password through ``authenticate()``, so a wrong one counts as a failed login of
that user from that address and a locked-out user is refused there too (django-axes,
games.lib.lockout).

A new password, changed or reset, revokes every API token of the user
(games.models.accounts) and ends their other signed-in browsers (Django's session hash
follows the password); the page after it says so, with the number of tokens revoked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from games.lib.form_posts import form_posts_refused
from games.lib.lockout import forget_failures
from games.models.accounts import revoked_tokens

# The backend that signs in a new account: Django's own (axes' backend, first in the list,
# only refuses locked-out logins and signs no one in).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"

if TYPE_CHECKING:
    BaseSignUpForm = UserCreationForm[User]
else:  # the stubs' generic form is not subscriptable at run time
    BaseSignUpForm = UserCreationForm


class SignUpForm(BaseSignUpForm):
    """Django's sign-up form with an e-mail address, where a password reset is sent."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail"),
        required=False,
        help_text=gettext_lazy("Optional: where a link to reset a forgotten password is sent."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


def _next(request: HttpRequest) -> str:
    """The page to go on to (an invite, say): only one of this site's."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


def _go_on(following: str) -> HttpResponse:
    # A path as typed, never a view name: "next=0" must not be looked up as one.
    if following:
        return HttpResponseRedirect(following)
    return redirect(settings.LOGIN_REDIRECT_URL)


def _refused(
    request: HttpRequest, template: str, context: dict[str, Any], wait: int
) -> HttpResponse:
    context["error"] = _("Too many tries from here: wait a while, then try again.")
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account (the project's password validators apply); signed in at once."""
    following = _next(request)
    if request.user.is_authenticated:
        return _go_on(following)
    form = SignUpForm(request.POST or None)
    context: dict[str, Any] = {"form": form, "next": following}
    if request.method == "POST":
        if wait := form_posts_refused("signup", request, settings.SIGNUP_LIMIT):
            return _refused(request, "web/accounts/signup.html", context, wait)
        if form.is_valid():
            user = form.save()
            login(request, user, backend=MODEL_BACKEND)
            return _go_on(following)
        return render(request, "web/accounts/signup.html", context, status=400)
    return render(request, "web/accounts/signup.html", context)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request, counted per client address before any mail goes out."""

    template_name = "web/accounts/password_reset.html"
    email_template_name = "web/accounts/password_reset_email.txt"
    subject_template_name = "web/accounts/password_reset_subject.txt"
    success_url = reverse_lazy("web:password-reset-done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if wait := form_posts_refused("password-reset", request, settings.PASSWORD_RESET_LIMIT):
            context = self.get_context_data(form=self.get_form())
            return _refused(request, self.template_name, context, wait)
        return super().post(request, *args, **kwargs)


def _tell_signed_out(request: HttpRequest, user: User, *, this_browser_kept: bool) -> None:
    """Says on the next page what the new password signed out: the API tokens revoked, and
    the other browsers."""
    count = len(revoked_tokens(user))
    tokens = ngettext(
        "%(count)d API token (an app or device signed in to your account) was revoked.",
        "%(count)d API tokens (apps and devices signed in to your account) were revoked.",
        count,
    ) % {"count": count}
    if this_browser_kept:
        browsers = _("Other browsers signed in to your account were signed out; this one stays.")
    else:
        browsers = _("Every browser signed in to your account was signed out.")
    messages.success(request, f"{tokens} {browsers}")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's reset by the mailed link; the page after it says what was signed out."""

    template_name = "web/accounts/password_reset_confirm.html"
    success_url = reverse_lazy("web:password-reset-complete")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        _tell_signed_out(self.request, form.user, this_browser_kept=False)
        return response


password_reset = PasswordResetView.as_view()
password_reset_done = auth_views.PasswordResetDoneView.as_view(
    template_name="web/accounts/password_reset_done.html"
)
password_reset_confirm = PasswordResetConfirmView.as_view()
password_reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="web/accounts/password_reset_complete.html"
)


class CheckedPasswordChangeForm(PasswordChangeForm):
    """Django's password change, the old password checked through ``authenticate()``:
    axes then counts a wrong one as a failed login of this user from this address, and
    refuses every one while they are locked out (the view then answers 429)."""

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        username = self.user.get_username()
        if authenticate(self.request, username=username, password=old_password) is None:
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = CheckedPasswordChangeForm
    template_name = "web/accounts/password_change.html"
    success_url = reverse_lazy("web:password-change-done")

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form: Any) -> HttpResponse:
        forget_failures(self.request, form.user.get_username())
        response = super().form_valid(form)
        _tell_signed_out(self.request, form.user, this_browser_kept=True)
        return response


password_change = PasswordChangeView.as_view()
password_change_done = auth_views.PasswordChangeDoneView.as_view(
    template_name="web/accounts/password_change_done.html"
)
