"""Table-side entry and the second pair of eyes.

``s/<token>/`` is the page a table's private link opens (no account: the token is the
permission). The rest are the director's: a table's link, confirming a sheet by looking it over
or re-typing it, and whether unconfirmed sheets count in the standings.
"""

from django.urls import path

from tournament.views import confirmations, table_links

TABLE = "t/<slug:slug>/rounds/<int:round>/tables/<int:table>/"

urlpatterns = [
    path("s/<slug:token>/", table_links.table_entry, name="table_entry"),
    path(TABLE + "link/", table_links.table_link_show, name="table_link"),
    path(TABLE + "link/new/", table_links.table_link_new, name="table_link_new"),
    path(TABLE + "link/revoke/", table_links.table_link_remove, name="table_link_revoke"),
    path(TABLE + "confirm/", confirmations.sheet_confirm_look, name="sheet_confirm"),
    path(TABLE + "retype/", confirmations.sheet_confirm_retype, name="sheet_retype"),
    path(
        "t/<slug:slug>/standings/unconfirmed/",
        confirmations.standings_unconfirmed,
        name="standings_unconfirmed",
    ),
]
