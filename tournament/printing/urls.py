"""Printouts and the final workbook (under t/<slug>/print/); add ?format=html to a printout to
see or print it in the browser."""

from django.urls import path

from tournament.printing import views

urlpatterns = [
    path("", views.print_index, name="print_index"),
    path("rounds/<int:round>/sheets/", views.print_sheets, name="print_sheets"),
    path("rounds/<int:round>/seating/", views.print_seating, name="print_seating"),
    path("blank/<int:seats>/", views.print_blank, name="print_blank"),
    path("standings/", views.print_standings, name="print_standings"),
    path("workbook/", views.print_workbook, name="print_workbook"),
]
