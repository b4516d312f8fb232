"""The commands a page tells whoever runs the site to type, as this site runs them:
``{% manage_command %} axes_reset`` (``.venv/bin/python manage.py`` in a checkout,
``bollen manage`` installed) and ``{% site_checkout as checkout %}``."""

from __future__ import annotations

from django import template
from django.conf import settings

from tournament import text

register = template.Library()


@register.simple_tag
def manage_command() -> str:
    return text.manage_command()


@register.simple_tag
def site_checkout() -> bool:
    return bool(settings.CHECKOUT)
