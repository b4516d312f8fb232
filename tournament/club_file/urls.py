"""The club's backup (under /club/)."""

from django.urls import path

from tournament.club_file import views

urlpatterns = [
    path("backup/", views.club_backup_download, name="club_backup_download"),
    path("restore/", views.club_backup_restore, name="club_backup_restore"),
]
