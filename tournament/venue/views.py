"""The page where a director sets the address phones open (``tournament.venue.site_address``) and
checks it with their own phone."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.errors import form_page_status
from tournament.printing.render import qr_data_uri
from tournament.venue.forms import SiteAddressForm
from tournament.venue.site_address import (
    AddressSource,
    machine_site_urls,
    site_address,
    site_address_forget,
    site_address_set,
    site_url_problem,
)


def _directs_a_tournament(user) -> bool:
    """The address is the whole site's: anyone who directs a tournament may set it."""
    if not user.is_active:
        return False
    return user.is_superuser or user.directed_tournaments.exists()


def site_address_edit(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not _directs_a_tournament(request.user):
        raise PermissionDenied
    form = SiteAddressForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        site_address_set(url=form.cleaned_data["site_url"])
        site_address_forget(request)
        address = site_address(request)
        if form.cleaned_data["site_url"]:
            done = _("Phones now open %(url)s.")
        else:
            done = _("The address is found automatically again: %(url)s.")
        messages.success(request, done % {"url": address.url})
        return redirect("site_address_edit")
    address = site_address(request)
    if request.method != "POST" and address.source == AddressSource.SITE:
        form = SiteAddressForm(initial={"site_url": address.url})
    return render(
        request,
        "tournament/site_address.html",
        {
            "form": form,
            "address": address,
            "qr": qr_data_uri(address.url + "/"),
            "site_url_problem": site_url_problem(address.url),
            "suggestions": [url for url in machine_site_urls(request) if url != address.url],
        },
        status=form_page_status(request),
    )
