"""Setting a table's drawn first dealer: from the director's sheet and round pages, and from
the table's own link (``s/<token>/first-dealer/``, where the token is the whole permission, as
for the sheet itself). Each answers a plain form with a redirect back to its page, and the
phone's script (``X-Requested-With``) with JSON."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournament.errors import Refused, show_refused
from tournament.models import Seat, Table, Tournament
from tournament.permissions import team_required
from tournament.rounds.forms import FirstDealerForm
from tournament.sheets.first_dealer import table_first_dealer
from tournament.sheets.page import wants_json
from tournament.sheets.table_links import table_link_by_token, table_link_closed_reason


def _seat_posted(request: HttpRequest, table: Table) -> int | None:
    """The seat the form names: ``seat`` as given, or the seat of ``player`` at this table;
    ``None`` when it names nobody."""
    form = FirstDealerForm(request.POST)
    if not form.is_valid():
        return None
    seat: int | None = form.cleaned_data["seat"]
    if seat is not None:
        return seat
    player = form.cleaned_data["player"]
    if player is None:
        return None
    return (
        Seat.objects.filter(table=table, player_id=player)
        .values_list("position", flat=True)
        .first()
    )


def _dealer_name(table: Table) -> str:
    if table.first_dealer_seat is None:  # asked only once the first dealer is set
        raise ValueError(f"table {table.pk} has no first dealer")
    return table.seats.get(position=table.first_dealer_seat).player.name


def _answer(
    request: HttpRequest, table: Table, *, back: str, refused: Refused | None
) -> HttpResponse:
    if wants_json(request):
        if refused is not None:
            return JsonResponse({"outcome": "refused", "message": refused.message}, status=409)
        return JsonResponse({"outcome": "saved", "firstDealer": table.first_dealer_seat})
    if refused is not None:
        show_refused(request, refused)
    else:
        messages.success(
            request,
            _("%(name)s deals first at table %(table)s.")
            % {"name": _dealer_name(table), "table": table.number},
        )
    return redirect(back)


# The team's, not only the directors': the first dealer belongs to the sheet (the seats do not
# move), and whoever enters the sheet hears who drew it.
@team_required
@require_POST
def table_first_dealer_set(
    request: HttpRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    """The team's buttons, on the sheet page and the round page (``back=round``)."""
    table_obj = get_object_or_404(
        Table.objects.select_related("round"),
        round__tournament=tournament,
        round__number=number,
        number=table,
    )
    seat = _seat_posted(request, table_obj)
    if seat is None:
        raise Http404
    if request.POST.get("back") == "round":
        back = reverse("round_detail", args=[tournament.slug, number])
    else:
        back = reverse("sheet_edit", args=[tournament.slug, number, table])
    try:
        table_obj = table_first_dealer(table=table_obj, seat=seat)
    except Refused as exc:
        return _answer(request, table_obj, back=back, refused=exc)
    return _answer(request, table_obj, back=back, refused=None)


@never_cache
@require_POST
def table_entry_first_dealer(request: HttpRequest, token: str) -> HttpResponse:
    """The table's answer to "who deals first?", through its private link."""
    link = table_link_by_token(token)
    if link is None:
        raise Http404
    table = link.table
    back = reverse("table_entry", args=[token])
    closed = table_link_closed_reason(table)
    if closed is not None:
        return _answer(request, table, back=back, refused=Refused.because(closed))
    seat = _seat_posted(request, table)
    if seat is None:
        if wants_json(request):
            return JsonResponse(
                {"outcome": "refused", "message": _("Choose who deals first.")}, status=400
            )
        messages.error(request, _("Choose who deals first."))
        return redirect(back)
    try:
        table = table_first_dealer(table=table, seat=seat)
    except Refused as exc:
        return _answer(request, table, back=back, refused=exc)
    response = _answer(request, table, back=back, refused=None)
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
