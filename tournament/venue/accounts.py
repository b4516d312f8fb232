"""Signing in, changing the password and the account's e-mail address: Django's own views,
except that a refused form (a wrong password, a new password too weak) is answered 422, like
every refused form of the site. (A forgotten password: ``password_reset``.)"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.forms import Form
from django.http import HttpResponse
from django.utils.translation import gettext_lazy, ngettext_lazy

from tournament.errors import FORM_REFUSED_STATUS
from tournament.mail.sending import email_enabled

# Django's own texts of the sign-in and password forms, listed here so that the site's
# catalogue holds them in the site's Dutch ("je", not "u"). Django 5.2 changed the text of
# the short-password message, and its own Dutch catalogue has not got the new one: without
# this, the Dutch invitation page said "This password is too short". The validators run in the
# view, after ChosenLanguageMiddleware has activated the page's language, so every message is
# in the visitor's language once a catalogue has it; tests/site/test_password_language.py checks
# each configured validator's texts, so a Django update that rewords one fails there first.
DJANGO_TEXTS = (
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    gettext_lazy("Your password can’t be too similar to your other personal information."),  # noqa: RUF001
    gettext_lazy("Your password can’t be a commonly used password."),  # noqa: RUF001
    gettext_lazy("Your password can’t be entirely numeric."),  # noqa: RUF001
    gettext_lazy("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_lazy(
        "Enter a valid username. This value may contain only letters, numbers, and "
        "@/./+/-/_ characters."
    ),
    # Django's Dutch says "Uw" here; the password page says "je".
    gettext_lazy("Your old password was entered incorrectly. Please enter it again."),
)


class RefusedFormIs422:
    def form_invalid(self, form: Form) -> HttpResponse:
        response: HttpResponse = super().form_invalid(form)  # type: ignore[misc]
        response.status_code = FORM_REFUSED_STATUS
        return response


class LoginView(RefusedFormIs422, auth_views.LoginView):
    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        context["email_enabled"] = email_enabled()  # "Forgot your password?" or who to ask
        return context


class PasswordFieldsTellTheirOwnMistakes:
    """A new password too short or too common is told under the new password, where it was
    chosen (Django tells it under the confirmation)."""

    def validate_password_for_user(self, user: Any, password_field_name: str = "") -> None:
        super().validate_password_for_user(  # type: ignore[misc]
            user,
            password_field_name="new_password1",  # noqa: S106 (a field's name)
        )


class PasswordChangeForm(PasswordFieldsTellTheirOwnMistakes, auth_forms.PasswordChangeForm):
    """Django's form, except that mistakes are told where they were made."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.is_bound:
            # Sent back with mistakes: the page opens at their summary, not in the old password.
            self.fields["old_password"].widget.attrs.pop("autofocus", None)


class PasswordChangeView(RefusedFormIs422, auth_views.PasswordChangeView):
    form_class = PasswordChangeForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        context["email_enabled"] = email_enabled()  # the e-mail address, and what it is for
        return context
