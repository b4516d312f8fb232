"""Where do I sit: the public front page of a tournament (under /p/<slug>/, no sign-in)."""

from django.urls import path

from tournament.rounds import public_views

urlpatterns = [
    path("", public_views.public_home, name="public_home"),
]
