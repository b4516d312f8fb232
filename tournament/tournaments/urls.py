"""A tournament's own page and settings (under /t/<slug>/)."""

from django.urls import path

from tournament.tournaments import views

urlpatterns = [
    path("", views.tournament_detail, name="tournament_detail"),
    path("edit/", views.tournament_edit, name="tournament_edit"),
    path("finish/", views.tournament_finish_page, name="tournament_finish"),
    path("reopen/", views.tournament_reopen_view, name="tournament_reopen"),
]
