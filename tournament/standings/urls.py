"""The director's standings (under /t/<slug>/) and their download."""

from django.urls import path

from tournament.standings import views

urlpatterns = [
    path("standings/", views.standings_page, name="standings"),
    path("standings/export.<str:format>", views.standings_download, name="standings_download"),
]
