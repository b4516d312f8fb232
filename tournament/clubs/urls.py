"""The header's club switch (under /club/)."""

from django.urls import path

from tournament.clubs import views

urlpatterns = [
    path("switch/", views.club_switch, name="club_switch"),
]
