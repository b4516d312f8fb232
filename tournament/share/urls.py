"""The shared result (under /t/<slug>/): the page and its text, PDF and PNG."""

from django.urls import path

from tournament.share import views

urlpatterns = [
    path("result/", views.result_share, name="result_share"),
    path("result/result.txt", views.result_text_download, name="result_text"),
    path("result/result.pdf", views.result_pdf_download, name="result_pdf"),
    path("result/result.png", views.result_png_download, name="result_png"),
]
