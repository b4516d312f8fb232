"""The site's own settings (the address phones open)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class SiteSettings(models.Model):
    """Settings of the whole site that a director may change on the site itself (one row).

    - ``site_url``: the address phones open (QR codes, table links, "where do I sit"), e.g.
      ``http://192.168.1.20:8000``. Empty: the ``SITE_URL`` environment setting, or else the
      server's own network address.
    """

    site_url = models.URLField(_("address for phones"), max_length=200, blank=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("site settings")
        verbose_name_plural = _("site settings")

    def __str__(self) -> str:
        return str(_("site settings"))

    @classmethod
    def current(cls) -> SiteSettings:
        settings_row, _created = cls.objects.get_or_create(pk=1)
        return settings_row
