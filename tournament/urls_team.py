"""The team of one tournament (under /t/<slug>/team/): who is on it, invitations, removals."""

from django.urls import path

from tournament.views import team

urlpatterns = [
    path("", team.team, name="team"),
    path("invite/", team.team_invite, name="team_invite"),
    path("remove/", team.team_remove, name="team_remove"),
    path(
        "invitations/<int:pk>/revoke/",
        team.team_invitation_revoke_view,
        name="team_invitation_revoke",
    ),
]
