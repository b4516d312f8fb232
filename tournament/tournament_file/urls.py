"""The tournament file of one tournament (under /t/<slug>/); importing one is site-wide."""

from django.urls import path

from tournament.tournament_file import views

urlpatterns = [
    path("export/", views.tournament_download, name="tournament_download"),
]
