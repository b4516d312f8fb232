from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament import selectors


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Signed-in directors see their tournaments; visitors see the public ones."""
    return render(
        request,
        "tournament/tournament_list.html",
        {
            "directed": selectors.tournaments_directed(request.user),
            "public": selectors.tournaments_public(),
        },
    )
