"""The season's pages for directors, under ``/season/``."""

from django.urls import path

from tournament.season import member_views, views

urlpatterns = [
    path("members/", member_views.member_list, name="member_list"),
    path("members/<int:pk>/", member_views.member_edit, name="member_edit"),
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
    path("<slug:slug>/check-in/", views.check_in, name="check_in"),
    path("<slug:slug>/questions/", views.competition_questions, name="competition_questions"),
    path("<slug:slug>/file/", views.competition_file, name="competition_file"),
    path("<slug:slug>/print/", views.competition_print, name="competition_print"),
    path(
        "<slug:slug>/download/<str:fmt>/",
        views.competition_download,
        name="competition_download",
    ),
]
