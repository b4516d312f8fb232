"""The public front of a tournament (under /p/<slug>/, no sign-in): where do I sit and a
player's own page, the standings, the projector and their live document."""

from django.urls import path

from tournament.standings import player_views, public_views

urlpatterns = [
    path("", player_views.public_home, name="public_home"),
    path("players/<int:player_id>/", player_views.public_player, name="public_player"),
    path("standings/", public_views.public_standings, name="public_standings"),
    path("screen/", public_views.public_screen, name="public_screen"),
    path("live.json", public_views.public_live, name="public_live"),
]
