"""The director's pages of one tournament (all under /t/<slug>/)."""

from django.urls import path

from tournament.views import players, rounds, standings, tournaments

urlpatterns = [
    path("", tournaments.tournament_detail, name="tournament_detail"),
    path("edit/", tournaments.tournament_edit, name="tournament_edit"),
    path("export/", tournaments.tournament_download, name="tournament_download"),
    path("players/", players.player_list, name="player_list"),
    path("players/paste/", players.player_paste, name="player_paste"),
    path("players/import/", players.player_import, name="player_import"),
    path("players/<int:pk>/", players.player_detail, name="player_detail"),
    path("players/<int:pk>/edit/", players.player_edit, name="player_edit"),
    path("players/<int:pk>/apart/", players.player_apart, name="player_apart"),
    path("players/<int:pk>/withdraw/", players.player_withdraw, name="player_withdraw"),
    path("rounds/", rounds.round_list, name="round_list"),
    path("rounds/seat/", rounds.round_seat, name="round_seat"),
    path("rounds/<int:number>/", rounds.round_detail, name="round_detail"),
    path("rounds/<int:number>/adjust/", rounds.round_adjust, name="round_adjust"),
    path("rounds/<int:number>/publish/", rounds.round_publish, name="round_publish"),
    path("rounds/<int:number>/balance/", rounds.round_balance, name="round_balance"),
    path("rounds/<int:number>/unseat/", rounds.round_unseat, name="round_unseat"),
    path(
        "rounds/<int:number>/tables/<int:table>/first-dealer/",
        rounds.table_first_dealer,
        name="table_first_dealer",
    ),
    path("standings/", standings.standings_page, name="standings"),
    path("standings/export.<str:format>", standings.standings_download, name="standings_download"),
]
