"""The site's URLs plus pages that fail on purpose, for the error page tests."""

from django.db import OperationalError
from django.urls import include, path


def broken(request):
    raise RuntimeError("SECRET-DETAIL of a bug in a view")


def database_gone(request):
    raise OperationalError('connection to server at "db" failed: password authentication failed')


urlpatterns = [
    path("broken/", broken),
    path("database-gone/", database_gone),
    path("", include("bollen.urls")),
]

handler404 = "tournament.venue.error_pages.page_not_found"
handler500 = "tournament.venue.error_pages.server_error"
