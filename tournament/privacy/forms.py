"""The forms of the club's privacy pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Club

PRIVACY_TEXT_MAX = 20_000


class ClubPrivacyForm(forms.Form):
    name_display = forms.ChoiceField(
        label=_("Names on public pages"),
        choices=Club.NameDisplay.choices,
        widget=forms.RadioSelect,
        help_text=_(
            "Applies to every public page and shared result of the club: where do I sit, the "
            "standings, the projector, a player's page and the season standings. Without names "
            "a player is shown in the seating as their place (Table 3, seat 2) and in the "
            "standings as a player number (Player 12: the order in which the players were "
            "registered); a player finds their number by tapping their place. The director's "
            "own pages and printouts keep full names. Members who did not agree to their name "
            "being shown are always shown without it."
        ),
    )
    privacy_text = forms.CharField(
        label=_("Privacy statement"),
        max_length=PRIVACY_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 16}),
        required=False,
        help_text=_(
            "Shown on the club's privacy page, linked from every public page. Empty: the "
            "site's text, which follows the choice above."
        ),
    )


class ClubDeleteForm(forms.Form):
    typed = forms.CharField(label=_("The club's name"), max_length=200)


class ConsentForm(forms.Form):
    consent = forms.TypedChoiceField(
        coerce=lambda value: value == "1",
        choices=[("1", "1"), ("0", "0")],
    )
