"""The public season page, under ``/c/<slug>/`` (no sign-in; only when switched on)."""

from django.urls import path

from tournament.season import public_views

urlpatterns = [path("", public_views.public_season, name="public_season")]
