"""Where do I sit and a player's own page (under /p/<slug>/, no sign-in)."""

from django.urls import path

from tournament.rounds import public_views

urlpatterns = [
    path("", public_views.public_home, name="public_home"),
    path("players/<int:player_id>/", public_views.public_player, name="public_player"),
]
