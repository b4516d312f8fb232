"""The site's addresses: the site-wide pages here, each feature's own in its urls module.

The paths and names must not change: printed sheets and table cards carry QR codes of them.
"""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.rounds import first_dealer_views
from tournament.sheets import table_views
from tournament.team import views as team_views
from tournament.tournament_file import views as tournament_file_views
from tournament.tournaments import views as tournaments_views
from tournament.venue import account_email, accounts, password_reset
from tournament.venue import views as venue_views

TOURNAMENT = "t/<slug:slug>/"

urlpatterns = [
    path("", tournaments_views.tournament_list, name="tournament_list"),
    path("login/", accounts.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/password/", accounts.PasswordChangeView.as_view(), name="password_change"),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("account/email/", account_email.account_email, name="account_email"),
    # A forgotten password, by e-mail (Django's names; the link in the mail is the last one).
    path("account/reset/", password_reset.PasswordResetView.as_view(), name="password_reset"),
    path(
        "account/reset/sent/",
        password_reset.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "account/reset/done/",
        password_reset.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path(
        "account/reset/<uidb64>/<token>/",
        password_reset.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # A club as a whole: its settings and people (its admins), the address for phones and the
    # test link a phone opens, a club's public page on a site of many clubs.
    path("club/name/", tournaments_views.club_name, name="club_name"),  # the front page's form
    path("club/", include("tournament.team.club_urls")),
    path("club/", include("tournament.clubs.urls")),
    path("club/", include("tournament.club_file.urls")),  # the club's backup and its restore
    path("settings/address/", venue_views.site_address_edit, name="site_address_edit"),
    # Short: it may be typed on a phone.
    path("test/<str:token>/", venue_views.site_address_check, name="site_address_check"),
    path("clubs/<slug:slug>/", tournaments_views.club_public, name="club_public"),
    # A club's privacy: its settings, log and deletion, the public statement, a member's data.
    path("", include("tournament.privacy.urls")),
    # Before t/<slug>/, which would take "new" and "import" for slugs.
    path("t/new/", tournaments_views.tournament_create, name="tournament_create"),
    path("t/import/", tournament_file_views.tournament_upload, name="tournament_upload"),
    # The director's pages of one tournament.
    path(TOURNAMENT, include("tournament.tournaments.urls")),
    path(TOURNAMENT, include("tournament.tournament_file.urls")),
    path(TOURNAMENT, include("tournament.players.urls")),
    path(TOURNAMENT, include("tournament.rounds.urls")),
    path(TOURNAMENT, include("tournament.standings.urls")),
    path(TOURNAMENT, include("tournament.sheets.urls")),
    path(TOURNAMENT + "team/", include("tournament.team.urls")),
    path(TOURNAMENT + "print/", include("tournament.printing.urls")),
    path(TOURNAMENT, include("tournament.share.urls")),
    path(TOURNAMENT, include("tournament.sheet_photos.urls")),
    # Without an account: joining the team, a table's private link, the public pages.
    path("join/<slug:token>/", team_views.team_join_view, name="team_join"),
    path("s/<slug:token>/", table_views.table_entry, name="table_entry"),
    path("s/<slug:token>/", include("tournament.sheet_photos.urls_table")),
    path(
        "s/<slug:token>/first-dealer/",
        first_dealer_views.table_entry_first_dealer,
        name="table_entry_first_dealer",
    ),
    path("p/<slug:slug>/", include("tournament.standings.urls_public")),
    # A club's season: the register and competitions, and a competition's public page.
    path("season/", include("tournament.season.urls")),
    path("c/<slug:slug>/", include("tournament.season.urls_public")),
]

handler400 = "tournament.venue.error_pages.bad_request"
handler404 = "tournament.venue.error_pages.page_not_found"
handler500 = "tournament.venue.error_pages.server_error"
