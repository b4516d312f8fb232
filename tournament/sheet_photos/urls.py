"""Photos of score sheets: under /t/<slug>/ for the team, under /s/<token>/ for a table's link
(the token is the permission: ``urls_table``)."""

from django.urls import path

from tournament.sheet_photos import views

urlpatterns = [
    path("rounds/<int:number>/photos/", views.round_photos, name="round_photos"),
    path("photos/<int:pk>/page.jpg", views.sheet_photo_page, name="sheet_photo_page"),
    path("photos/<int:pk>/photo.jpg", views.sheet_photo_original, name="sheet_photo_original"),
]
