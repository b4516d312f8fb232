"""A table's link's photos, under /s/<token>/: the upload of its own sheet and the photo
waiting on it."""

from django.urls import path

from tournament.sheet_photos import views

urlpatterns = [
    path("photos/", views.table_entry_photos, name="table_entry_photos"),
    path("photos/<int:pk>/page.jpg", views.table_entry_photo_page, name="table_entry_photo_page"),
]
