"""A forgotten password, reset by e-mail: Django's four views (``password_reset`` and the steps
after it), with the site's limits.

- The page answers the same whether an account has the address or not ("if an account has
  it, a mail is on its way"), as fast (the mail is sent by a background thread, not while the
  visitor waits), and a mail that could not be sent is only logged: the page must not tell
  which addresses are known.
- Each request is counted per address and per client (``tournament.mail.throttle``); above the
  limits it is refused (429) and nothing is sent.
- The link is made with ``SITE_URL`` when the server sets it, else with the address the browser
  used; it works once (Django's token changes with the password) and for
  ``PASSWORD_RESET_TIMEOUT`` seconds. A link that no longer works gets a page that says so
  (410), with the way to a new one.
- A password set so lifts django-axes' sign-in pause for that username.
- Without ``EMAIL_HOST`` the page says that e-mail is off and who can set a new password.
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_client_ip_address
from axes.utils import reset as axes_reset
from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse, reverse_lazy
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from tournament.mail.sending import email_enabled, mail_send_later
from tournament.mail.throttle import Throttled, reset_mail_throttled
from tournament.venue.accounts import PasswordFieldsTellTheirOwnMistakes, RefusedFormIs422
from tournament.venue.site_address import operator_site_url

THROTTLED = {
    Throttled.ADDRESS: _(
        "A new password was asked for this e-mail address several times in the last hour. "
        "Look in your inbox (and the spam folder) for the mail, or try again in an hour."
    ),
    Throttled.CLIENT: _(
        "Many new passwords were asked from this device in the last hour. Try again in an hour, "
        "or ask your club's admin."
    ),
}
THROTTLED_STATUS = 429
LINK_GONE_STATUS = 410


def reset_hours() -> int:
    return max(1, round(int(settings.PASSWORD_RESET_TIMEOUT) / 3600))


def reset_base_url(request: HttpRequest) -> str:
    """The start of the link in the mail: ``SITE_URL``, else the address the browser used."""
    return operator_site_url() or request.build_absolute_uri("/").rstrip("/")


class PasswordResetForm(auth_forms.PasswordResetForm):
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        """The site's mail (``mail/password_reset.html``) in the page's language, sent after the
        answer; a mail that could not be sent is logged and not told (see the module)."""
        path = reverse(
            "password_reset_confirm", kwargs={"uidb64": context["uid"], "token": context["token"]}
        )
        user: User = context["user"]
        mail_send_later(
            name="password_reset",
            to=[to_email],
            context={
                "username": user.get_username(),
                "reset_url": context["base_url"] + path,
                "hours": reset_hours(),
            },
            language=translation.get_language(),
        )


class _MailContext:
    request: HttpRequest

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)  # type: ignore[misc]
        context["email_enabled"] = email_enabled()
        context["hours"] = reset_hours()
        return context


class PasswordResetView(RefusedFormIs422, _MailContext, auth_views.PasswordResetView):
    form_class = PasswordResetForm
    success_url = reverse_lazy("password_reset_done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not email_enabled():  # the page says so, and what to do instead
            return self.get(request, *args, **kwargs)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: auth_forms.PasswordResetForm) -> HttpResponse:
        throttled = reset_mail_throttled(
            address=form.cleaned_data["email"], client=get_client_ip_address(self.request)
        )
        if throttled is not None:
            form.add_error(None, forms.ValidationError(THROTTLED[throttled], code="throttled"))
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = THROTTLED_STATUS
            return response
        form.save(
            request=self.request,
            use_https=self.request.is_secure(),
            token_generator=self.token_generator,
            extra_email_context={"base_url": reset_base_url(self.request)},
        )
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetDoneView(_MailContext, auth_views.PasswordResetDoneView):
    pass


# (Generic in django-stubs only: not subscriptable at runtime.)
class SetPasswordForm(PasswordFieldsTellTheirOwnMistakes, auth_forms.SetPasswordForm):  # type: ignore[type-arg]
    pass


class PasswordResetConfirmView(RefusedFormIs422, _MailContext, auth_views.PasswordResetConfirmView):
    form_class = SetPasswordForm

    def dispatch(self, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = super().dispatch(*args, **kwargs)
        if not self.validlink and isinstance(response, TemplateResponse):
            response.status_code = LINK_GONE_STATUS  # used, expired or never made
        return response

    def form_valid(self, form: auth_forms.SetPasswordForm[User]) -> HttpResponse:
        response = super().form_valid(form)
        # Whoever read the mail may sign in again at once, even after five wrong passwords.
        axes_reset(username=form.user.get_username())
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    pass
