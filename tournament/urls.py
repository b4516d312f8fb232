from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.views import home, site_address, team, tournaments

urlpatterns = [
    path("", home.tournament_list, name="tournament_list"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("settings/address/", site_address.site_address_edit, name="site_address_edit"),
    path("t/new/", tournaments.tournament_create, name="tournament_create"),
    path("t/import/", tournaments.tournament_upload, name="tournament_upload"),
    path("t/<slug:slug>/", include("tournament.urls_director")),
    # The team: invitations, and the one-time link that joins it.
    path("t/<slug:slug>/team/", include("tournament.urls_team")),
    path("join/<slug:token>/", team.team_join_view, name="team_join"),
    path("p/<slug:slug>/", include("tournament.urls_public")),
    # The score sheet pages (director's entry of a table's sheet).
    path("t/<slug:slug>/", include("tournament.urls_sheets")),
    # Table links (s/<token>/) and confirming sheets.
    path("", include("tournament.urls_table")),
    # Printing: PDFs and the statistics workbook.
    path("t/<slug:slug>/print/", include("tournament.printing.urls")),
]

handler500 = "tournament.views.errors.server_error"
