"""The translation catalogues compile, and a message defined twice is refused by name."""

import re
from pathlib import Path

import polib
import pytest
from django.core.management import CommandError, call_command


def write_catalogue(folder, entries):
    catalogue = polib.POFile()
    catalogue.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for msgid, msgstr in entries:
        catalogue.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    target = folder / "nl" / "LC_MESSAGES"
    target.mkdir(parents=True)
    # polib itself keeps only unique entries; write the text by hand to get a duplicate.
    text = str(catalogue)
    (target / "django.po").write_text(text, encoding="utf-8")
    return target / "django.po"


def test_a_message_defined_twice_is_refused_with_its_line(tmp_path, settings):
    po = write_catalogue(tmp_path, [("version %(number)s", "versie %(number)s")])
    po.write_text(
        po.read_text(encoding="utf-8") + '\nmsgid "version %(number)s"\nmsgstr "versie"\n',
        encoding="utf-8",
    )
    settings.LOCALE_PATHS = [tmp_path]
    with pytest.raises(CommandError, match="twee keer"):
        call_command("compile_translations")
    assert not po.with_suffix(".mo").exists()


def test_the_projects_catalogue_has_every_message_once():
    from django.conf import settings

    for folder in settings.LOCALE_PATHS:
        for po_path in folder.glob("*/LC_MESSAGES/*.po"):
            keys = [(e.msgctxt, e.msgid) for e in polib.pofile(str(po_path))]
            assert len(keys) == len(set(keys)), po_path


def test_the_dutch_site_says_je_never_u():
    """One voice: the site speaks to directors and players informally ("je", "jij"), so a
    translation with the formal "u" or "uw" stands out on a page next to the others."""
    formal = re.compile(r"(?<![\w%(])(u|uw|U|Uw)(?![\w)])")
    po = Path(__file__).resolve().parents[1] / "tournament/locale/nl/LC_MESSAGES/django.po"
    found = [
        (entry.linenum, text)
        for entry in polib.pofile(str(po))
        for text in (entry.msgstr, *entry.msgstr_plural.values())
        if text and formal.search(text)
    ]
    assert found == []
