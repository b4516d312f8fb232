"""Names on the public pages and the projector, which wrap between their words only:
``{{ name|unbroken }}`` keeps each hyphenated part ("Bakker-van", "Zwaluw-Brinkman") on one
line, where a browser would break it after the hyphen. live.js writes names the same way
(``nameNode``). One exception, in public.css: on a phone the standings' name column may break a
double surname after its hyphen ("Oosterhuis-" / "Schimmelpenninck"), never inside a word, or
one long name would take half the screen."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# What a browser may break a line after inside a word.
BREAKS_INSIDE = re.compile(r"[-\u2010\u2013/]")


@register.filter
def unbroken(name: object) -> SafeString:
    words = [
        format_html('<span class="name-part">{}</span>', word)
        if BREAKS_INSIDE.search(word)
        else escape(word)
        for word in str(name).split(" ")
    ]
    return mark_safe(" ".join(words))  # noqa: S308  # every word is escaped above
