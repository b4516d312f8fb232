"""The club's own page for its admins (under /club/) and the header's club switch."""

from django.urls import path

from tournament.clubs import views

urlpatterns = [
    path("", views.club_page, name="club_page"),
    path("invite/", views.club_invite, name="club_invite"),
    path("people/<int:pk>/role/", views.club_role, name="club_role"),
    path("people/<int:pk>/remove/", views.club_remove, name="club_remove"),
    path(
        "invitations/<int:pk>/revoke/",
        views.club_invitation_revoke,
        name="club_invitation_revoke",
    ),
    path("switch/", views.club_switch, name="club_switch"),
]
