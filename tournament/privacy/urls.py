"""The club's privacy pages: under /club/ its admins' settings, log and deleting the club;
/clubs/<slug>/privacy/ the public statement; a member's data file, erasure and consent under
/season/members/<pk>/; a player's consent under /t/<slug>/players/<pk>/."""

from django.urls import path

from tournament.privacy import views

urlpatterns = [
    path("club/privacy/", views.club_privacy, name="club_privacy"),
    path("club/log/", views.club_log_view, name="club_log"),
    path("club/delete/", views.club_delete_view, name="club_delete"),
    path("clubs/<slug:slug>/privacy/", views.club_privacy_public, name="club_privacy_public"),
    path(
        "season/members/<int:pk>/data.json",
        views.member_data_download,
        name="member_data_download",
    ),
    path("season/members/<int:pk>/erase/", views.member_erase_view, name="member_erase"),
    path("season/members/<int:pk>/consent/", views.member_consent, name="member_consent"),
    path(
        "t/<slug:slug>/players/<int:pk>/consent/",
        views.player_consent,
        name="player_consent",
    ),
]
