"""The page where a club admin sets the address phones open (``tournament.venue.site_address``)
and checks it with their own phone, and the test link that phone opens."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from tournament.errors import form_page_status
from tournament.models import Club
from tournament.permissions import ADMIN, club_required
from tournament.printing.render import qr_data_uri
from tournament.venue.forms import SiteAddressForm
from tournament.venue.site_address import (
    AddressSource,
    machine_site_urls,
    operator_site_url,
    site_address,
    site_address_changes,
    site_address_check_token,
    site_address_confirm,
    site_address_forget,
    site_address_set,
    site_address_untested,
    site_url_problem,
)


@never_cache
@club_required(ADMIN)
def site_address_edit(request: HttpRequest, club: Club) -> HttpResponse:
    fixed = bool(operator_site_url())  # SITE_URL: the server's, no club changes it
    form = SiteAddressForm(request.POST or None)
    if request.method == "POST" and not fixed and form.is_valid():
        site_address_set(club=club, url=form.cleaned_data["site_url"], by_user=request.user)
        site_address_forget(request)
        address = site_address(request, club=club)
        if form.cleaned_data["site_url"]:
            done = _("Phones now open %(url)s. Test it with your phone: scan the code below.")
        else:
            done = _("The address is found automatically again: %(url)s.")
        messages.success(request, done % {"url": address.url})
        return redirect("site_address_edit")
    address = site_address(request, club=club)
    if request.method != "POST" and address.source == AddressSource.SITE:
        form = SiteAddressForm(initial={"site_url": address.url})
    # The test code: a one-time link on the new address, which confirms the change once a
    # phone opens it; else (found automatically, SITE_URL) the front page at that address.
    token = None if fixed else site_address_check_token(club=club)
    test_url = address.url + (reverse("site_address_check", args=[token]) if token else "/")
    return render(
        request,
        "tournament/site_address.html",
        {
            "club": club,
            "form": form,
            "fixed": fixed,
            "address": address,
            "qr": qr_data_uri(test_url),
            "test_url": test_url,
            "site_url_problem": site_url_problem(address.url),
            "untested": site_address_untested(club),
            "may_change_address": not fixed,  # this is the page; the link to it is left out
            "address_fixed": fixed,
            "changes": site_address_changes(club),
            "suggestions": [url for url in machine_site_urls(request) if url != address.url],
        },
        status=form_page_status(request),
    )


@never_cache
def site_address_check(request: HttpRequest, token: str) -> HttpResponse:
    """The test code's link, opened by a phone: the address works (confirmed when the phone
    came by the new address), or says it came by another one."""
    change = site_address_confirm(token=token, host=request.get_host())
    if change is None:
        raise Http404
    response = render(
        request,
        "tournament/site_address_check.html",
        {"change": change, "works": change.confirmed_at is not None},
    )
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
