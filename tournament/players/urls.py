"""The director's player pages (under /t/<slug>/)."""

from django.urls import path

from tournament.players import views

urlpatterns = [
    path("players/", views.player_list, name="player_list"),
    path("players/paste/", views.player_paste, name="player_paste"),
    path("players/import/", views.player_import, name="player_import"),
    path("players/<int:pk>/", views.player_detail, name="player_detail"),
    path("players/<int:pk>/edit/", views.player_edit, name="player_edit"),
    path("players/<int:pk>/apart/", views.player_apart, name="player_apart"),
    path("players/<int:pk>/withdraw/", views.player_withdraw, name="player_withdraw"),
    path("players/<int:pk>/delete/", views.player_delete, name="player_delete"),
]
