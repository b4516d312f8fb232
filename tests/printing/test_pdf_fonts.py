"""Printouts embed the fonts that come with the site and are tagged PDFs."""

import io
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.printing.reading import pdf_pages
from tournament.models import Player
from tournament.printing import pdf

pytestmark = pytest.mark.django_db

SHIPPED = {"Bollen-Sans", "Bollen-Sans-Bold", "Bollen-Mono", "Bollen-Mono-Bold"}
WIDE_LATIN = "Łukasz Ærøe-Østergaard Ğül Şahin Żaneta Œuvre"


def _fonts(pdf: bytes, tmp_path) -> list[dict]:
    """What ``pdffonts`` (poppler) reports: name, embedded, subset, per font."""
    path = tmp_path / "out.pdf"
    path.write_bytes(pdf)
    lines = subprocess.run(
        ["pdffonts", str(path)], check=True, capture_output=True, text=True
    ).stdout.splitlines()[2:]
    fonts = []
    for line in lines:
        parts = line.split()
        # name type... emb sub uni object ID: the flags are the 5th to 3rd from the end
        fonts.append({"name": parts[0], "emb": parts[-5], "sub": parts[-4]})
    return fonts


@pytest.mark.parametrize("view", ["print_sheets", "print_seating", "print_standings"])
def test_printouts_embed_the_shipped_fonts_and_print_wide_latin_names(
    director_client, tournament, tmp_path, view, monkeypatch, caplog
):
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    player.name = WIDE_LATIN
    player.save(update_fields=["name"])
    served = []
    fetch = pdf.StaticFetcher.fetch

    def watched(self, url, headers=None):
        served.append(url)
        return fetch(self, url, headers)

    monkeypatch.setattr(pdf.StaticFetcher, "fetch", watched)
    args = [tournament.slug] if view == "print_standings" else [tournament.slug, 1]
    response = director_client.get(reverse(view, args=args))
    assert response.status_code == 200
    assert any(url.endswith("/static/fonts/DejaVuSans.ttf") for url in served)
    assert any(url.endswith("/static/fonts/DejaVuSans-Bold.ttf") for url in served)

    fonts = _fonts(response.content, tmp_path)
    assert fonts
    for font in fonts:
        # WeasyPrint names an embedded font after its @font-face family: only the site's own.
        assert font["name"].split("+")[-1] in SHIPPED, font
        assert font["emb"] == "yes" and font["sub"] == "yes", font
    assert WIDE_LATIN in " ".join(pdf_pages(response.content))
    assert not [r for r in caplog.records if r.name == "weasyprint" and r.levelname == "ERROR"]


def test_printouts_are_tagged_pdfs(director_client, tournament):
    response = director_client.get(reverse("print_standings", args=[tournament.slug]))
    catalog = PdfReader(io.BytesIO(response.content)).trailer["/Root"]
    assert catalog["/MarkInfo"]["/Marked"]
    assert "/StructTreeRoot" in catalog
