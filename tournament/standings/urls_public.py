"""The public standings, the projector and their live document (under /p/<slug>/, no sign-in)."""

from django.urls import path

from tournament.standings import public_views

urlpatterns = [
    path("standings/", public_views.public_standings, name="public_standings"),
    path("screen/", public_views.public_screen, name="public_screen"),
    path("live.json", public_views.public_live, name="public_live"),
]
