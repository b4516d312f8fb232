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
from tournament.permissions import ADMIN, SignedInRequest, club_required
from tournament.venue.forms import SiteAddressForm
from tournament.venue.qr import qr_data_uri
from tournament.venue.site_address import (
    AddressSource,
    machine_site_urls,
    network_url,
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
def site_address_edit(request: SignedInRequest, club: Club) -> HttpResponse:
    fixed = bool(operator_site_url())  # SITE_URL: the server's, no club changes it
    example = network_url(request) or next(iter(machine_site_urls(request)), None)
    several = Club.objects.exclude(pk=club.pk).exists()  # then only ALLOWED_HOSTS answer
    form = SiteAddressForm(request.POST or None, example=example, answered_only=several)
    if request.method == "POST" and not fixed and form.is_valid():
        site_address_set(club=club, url=form.cleaned_data["site_url"], by_user=request.user)
        site_address_forget(request)
        address = site_address(request, club=club)
        problem = site_url_problem(address.url)
        if problem:
            # Saved, but it says so in the warning below: no "phones now open".
            messages.warning(
                request,
                _("Saved: %(url)s. Phones cannot open it, see below.") % {"url": address.url},
            )
        elif form.cleaned_data["site_url"]:
            messages.success(
                request,
                _("Phones now open %(url)s. Test it with your phone: scan the code below.")
                % {"url": address.url},
            )
        else:
            messages.success(
                request,
                _("The address is found automatically again: %(url)s.") % {"url": address.url},
            )
        return redirect("site_address_edit")
    address = site_address(request, club=club)
    if request.method != "POST" and address.source == AddressSource.SITE:
        form = SiteAddressForm(
            initial={"site_url": address.url}, example=example, answered_only=several
        )
    # The test code: the latest change's test link on the new address (it confirms the
    # change once a phone opens it); else the front page at the address phones open.
    change = None if fixed else site_address_untested(club)
    test_url = address.url + (
        reverse("site_address_check", args=[site_address_check_token(change)]) if change else "/"
    )
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
            "untested": change,
            "may_change_address": not fixed,  # this is the page; the link to it is left out
            "address_fixed": fixed,
            "changes": site_address_changes(club),
            "suggestions": [url for url in machine_site_urls(request) if url != address.url],
        },
        status=form_page_status(request),
    )


@never_cache
def site_address_check(request: HttpRequest, token: str) -> HttpResponse:
    """The test code's link, opened by a phone: the address works (confirmed when a phone came
    by the new address), or says why this visit does not count."""
    found = site_address_confirm(
        token=token, host=request.get_host(), client=request.META.get("REMOTE_ADDR")
    )
    if found is None:
        raise Http404
    change, outcome = found
    response = render(
        request,
        "tournament/site_address_check.html",
        {"change": change, "outcome": outcome},
    )
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
