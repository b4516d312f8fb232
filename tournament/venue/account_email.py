"""The signed-in person's e-mail address: set, changed or removed on their account page.

What it is for: a new password by e-mail when the old one is forgotten, and (for a club's
admins) the notice when a role in the club changes. One account per address
(``tournament.mail.addresses``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournament.errors import Refused, form_page_status
from tournament.mail.addresses import AddressField, account_address_set, address_form_error
from tournament.mail.sending import email_enabled


class AccountEmailForm(forms.Form):
    email = AddressField(
        label=gettext_lazy("E-mail address"),
        help_text=gettext_lazy("Leave it empty to remove your address."),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_email(self) -> str:
        address: str = self.cleaned_data["email"]
        address_form_error(address, by_other_than=self.user)
        return address


@login_required
@require_http_methods(["GET", "POST"])
def account_email(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    form = AccountEmailForm(
        request.POST if request.method == "POST" else None,
        user=user,
        initial={"email": user.email},
    )
    if request.method == "POST" and form.is_valid():
        try:
            address = account_address_set(user=user, address=form.cleaned_data["email"])
        except Refused as refused:  # taken in the meantime
            form.add_error("email", refused.message)
        else:
            if address:
                messages.success(request, _("Saved: your e-mail address is %s.") % address)
            else:
                messages.success(request, _("Your e-mail address was removed."))
            return redirect("account_email")
    return render(
        request,
        "registration/account_email.html",
        {"form": form, "email_enabled": email_enabled()},
        status=form_page_status(request),
    )
