"""Names in templates as ``tournament.names`` reads them: ``{{ name|folded }}`` for a page's
script to search (``data-folded``), and ``{% name_folding %}``, the table its script folds
what is typed with."""

from __future__ import annotations

import json

from django import template

from tournament import names

register = template.Library()


@register.filter
def folded(text: object) -> str:
    return names.folded(str(text))


@register.simple_tag
def name_folding() -> str:
    return json.dumps(names.folding_table(), ensure_ascii=False, separators=(",", ":"))
