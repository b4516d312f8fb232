"""Public pages of a tournament (no sign-in), when the director has switched them on."""

from django.urls import path

from tournament.views import public

urlpatterns = [
    path("", public.public_home, name="public_home"),
    path("standings/", public.public_standings, name="public_standings"),
    path("screen/", public.public_screen, name="public_screen"),
]
