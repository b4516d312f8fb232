"""The team of one tournament (under /t/<slug>/team/): who is on it, invitations, removals.

The one-time link that joins it, ``join/<token>/``, is in bollen/urls.py.
"""

from django.urls import path

from tournament.team import views

urlpatterns = [
    path("", views.team, name="team"),
    path("invite/", views.team_invite, name="team_invite"),
    path("remove/", views.team_remove, name="team_remove"),
    path("confirmation/", views.team_confirmation_rule, name="team_confirmation_rule"),
    path(
        "invitations/<int:pk>/revoke/",
        views.team_invitation_revoke_view,
        name="team_invitation_revoke",
    ),
]
