"""The season's pages for directors, under ``/season/``."""

from django.urls import path

from tournament.season import (
    attendance_views,
    card_views,
    evening_views,
    member_views,
    views,
)
from tournament.season.register_exports import member_list_download

urlpatterns = [
    path("members/", member_views.member_list, name="member_list"),
    path("members/<int:pk>/", member_views.member_edit, name="member_edit"),
    path("members/download/<str:fmt>/", member_list_download, name="member_list_download"),
    path("members/<int:pk>/card/", card_views.member_card, name="member_card"),
    path("members/<int:pk>/card/print/", card_views.member_card_print, name="member_card_print"),
    path("members/<int:pk>/merge/", member_views.member_merge, name="member_merge"),
    path(
        "members/<int:pk>/merge/remove/",
        member_views.member_merge_remove,
        name="member_merge_remove",
    ),
    path("", views.competition_list, name="competition_list"),
    path("import/", views.competition_upload, name="competition_upload"),
    path("<slug:slug>/", views.competition_detail, name="competition_detail"),
    path("<slug:slug>/settings/", views.competition_edit, name="competition_edit"),
    path("<slug:slug>/evenings/add/", views.evening_add, name="evening_add"),
    path(
        "<slug:slug>/evenings/<int:pk>/take-out/",
        evening_views.evening_take_out,
        name="evening_remove",
    ),
    path(
        "<slug:slug>/evenings/put-back/<int:pk>/",
        evening_views.evening_put_back_page,
        name="evening_put_back",
    ),
    path("<slug:slug>/check-in/", views.check_in, name="check_in"),
    path("<slug:slug>/questions/", views.competition_questions, name="competition_questions"),
    path("<slug:slug>/file/", views.competition_file, name="competition_file"),
    path("<slug:slug>/print/", views.competition_print, name="competition_print"),
    path(
        "<slug:slug>/attendance/",
        attendance_views.competition_attendance,
        name="competition_attendance",
    ),
    path(
        "<slug:slug>/attendance/download/<str:fmt>/",
        attendance_views.competition_attendance_download,
        name="competition_attendance_download",
    ),
    path(
        "<slug:slug>/sign-in-list/",
        attendance_views.competition_sign_in,
        name="competition_sign_in",
    ),
    path(
        "<slug:slug>/download/<str:fmt>/",
        views.competition_download,
        name="competition_download",
    ),
]
