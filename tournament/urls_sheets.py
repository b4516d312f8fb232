"""The score sheet pages of one tournament (under /t/<slug>/): entry, history, restore."""

from django.urls import path

from tournament.views import sheets

urlpatterns = [
    path("rounds/<int:round>/tables/<int:table>/", sheets.sheet_edit, name="sheet_edit"),
    path(
        "rounds/<int:round>/tables/<int:table>/history/",
        sheets.sheet_history,
        name="sheet_history",
    ),
    path(
        "rounds/<int:round>/tables/<int:table>/history/<int:pk>/restore/",
        sheets.sheet_version_restore,
        name="sheet_version_restore",
    ),
]
