"""The club's forms: its name and settings, inviting someone, changing a role."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.mail.addresses import AddressField
from tournament.models import Club, ClubRole, TeamInvitation
from tournament.text import VisibleTextField

NAME_HELP = _("As it appears at the top of the club's pages and of the public pages.")


class ClubNameForm(forms.Form):
    name = VisibleTextField(label=_("Name of the club"), max_length=200, help_text=NAME_HELP)


class ClubSettingsForm(forms.ModelForm[Club]):
    class Meta:
        model = Club
        fields = ("name", "directors_edit_register")
        field_classes = {"name": VisibleTextField}
        help_texts = {
            "name": NAME_HELP,
            "directors_edit_register": _(
                "Off: a director renames or merges only members who played their own evenings; "
                "the club admins correct the rest."
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].required = True


class ClubInviteForm(forms.Form):
    # A director first: the role most club invitations are for, and the one that can do least
    # harm when chosen by accident.
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[
            (TeamInvitation.Role.CLUB_DIRECTOR, _("director")),
            (TeamInvitation.Role.CLUB_ADMIN, _("club admin")),
        ],
        initial=TeamInvitation.Role.CLUB_DIRECTOR,
    )
    email = AddressField(
        label=_("E-mail address (optional)"), help_text=_("The link is mailed there too.")
    )


class ClubRoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=ClubRole.Role.choices)


class ClubSwitchForm(forms.Form):
    club = forms.SlugField()
