"""A table's score sheet (under /t/<slug>/): the director's entry, its history, the table's
link and confirming the sheet by looking it over or re-typing it.

The table's own page, ``s/<token>/``, is in bollen/urls.py: the token is the permission.
"""

from django.urls import path

from tournament.sheets import confirmation_views, table_views, views

TABLE = "rounds/<int:round>/tables/<int:table>/"

urlpatterns = [
    path(TABLE, views.sheet_edit, name="sheet_edit"),
    path(TABLE + "history/", views.sheet_history, name="sheet_history"),
    path(
        TABLE + "history/<int:pk>/restore/",
        views.sheet_version_restore,
        name="sheet_version_restore",
    ),
    path(TABLE + "link/", table_views.table_link_show, name="table_link"),
    path(TABLE + "link/new/", table_views.table_link_new, name="table_link_new"),
    path(TABLE + "link/revoke/", table_views.table_link_remove, name="table_link_revoke"),
    path(TABLE + "confirm/", confirmation_views.sheet_confirm_look, name="sheet_confirm"),
    path(TABLE + "retype/", confirmation_views.sheet_confirm_retype, name="sheet_retype"),
    path(
        "standings/unconfirmed/",
        confirmation_views.standings_unconfirmed,
        name="standings_unconfirmed",
    ),
]
