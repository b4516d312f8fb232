"""The upload form of a tournament file."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class TournamentFileForm(forms.Form):
    file = forms.FileField(
        label=_("Tournament file (.json)"),
        help_text=_("A backup or export of a tournament, format version 1."),
    )
