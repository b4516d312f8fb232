"""The director's round pages (under /t/<slug>/): seating, adjusting, publishing."""

from django.urls import path

from tournament.rounds import first_dealer_views, views

urlpatterns = [
    path("rounds/", views.round_list, name="round_list"),
    path("rounds/seat/", views.round_seat, name="round_seat"),
    path("rounds/<int:number>/", views.round_detail, name="round_detail"),
    path("rounds/<int:number>/adjust/", views.round_adjust, name="round_adjust"),
    path("rounds/<int:number>/publish/", views.round_publish, name="round_publish"),
    path("rounds/<int:number>/balance/", views.round_balance, name="round_balance"),
    path("rounds/<int:number>/close/", views.round_close_view, name="round_close"),
    path("rounds/<int:number>/reopen/", views.round_reopen_view, name="round_reopen"),
    path("rounds/<int:number>/unseat/", views.round_unseat, name="round_unseat"),
    path(
        "rounds/<int:number>/tables/<int:table>/first-dealer/",
        first_dealer_views.table_first_dealer_set,
        name="table_first_dealer",
    ),
]
