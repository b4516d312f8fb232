"""Developer tool: fill Dutch translations into tournament/locale/nl from a JSON glossary.

Usage: scripts/messages.sh (extracts the strings, then runs this with the glossary
tournament/locale/nl-glossary.json)
Reports every msgid that still has no Dutch text, so nothing visible stays untranslated.
"""

import json
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent


def main(glossary_path: str) -> int:
    glossary = json.loads(Path(glossary_path).read_text(encoding="utf-8"))
    catalogue = polib.pofile(str(ROOT / "tournament/locale/nl/LC_MESSAGES/django.po"))
    missing = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            # A guess by gettext from a similar text: never trust it.
            entry.flags.remove("fuzzy")
            entry.msgstr = ""
            entry.msgstr_plural = {k: "" for k in entry.msgstr_plural}
            entry.previous_msgid = None
            entry.previous_msgid_plural = None
            entry.previous_msgctxt = None
        # A text with a context is looked up as "context|text" first.
        key = f"{entry.msgctxt}|{entry.msgid}" if entry.msgctxt else entry.msgid
        if key not in glossary:
            key = entry.msgid
        if entry.msgid_plural:
            forms = glossary.get(key)
            if isinstance(forms, list) and len(forms) == 2:
                entry.msgstr_plural = {0: forms[0], 1: forms[1]}
            elif not all(entry.msgstr_plural.values()):
                missing.append(entry.msgid)
        elif isinstance(glossary.get(key), str):
            entry.msgstr = glossary[key]
        elif not entry.msgstr:
            missing.append(entry.msgid)
    catalogue.metadata_is_fuzzy = False
    catalogue.save()
    for msgid in missing:
        print(f"untranslated: {msgid!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
