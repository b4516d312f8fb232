"""The club's own page for its admins (under /club/)."""

from django.urls import path

from tournament.team import club_views

urlpatterns = [
    path("", club_views.club_page, name="club_page"),
    path("invite/", club_views.club_invite, name="club_invite"),
    path("people/<int:pk>/role/", club_views.club_role, name="club_role"),
    path("people/<int:pk>/remove/", club_views.club_remove, name="club_remove"),
    path(
        "invitations/<int:pk>/revoke/",
        club_views.club_invitation_revoke,
        name="club_invitation_revoke",
    ),
]
