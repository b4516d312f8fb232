"""The upload form of a club backup."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ClubBackupForm(forms.Form):
    file = forms.FileField(
        label=_("Club backup (.zip)"),
        help_text=_("The file “Download the club's backup” made, on this site or another."),
    )
