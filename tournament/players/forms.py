"""Forms of the player pages: they validate and delegate to services."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import Player
from tournament.names import name_sort_key
from tournament.text import VisibleTextField


class PlayerForm(forms.Form):
    name = VisibleTextField(label=_("Name"), max_length=200)
    club = VisibleTextField(label=_("Club"), max_length=200, required=False)


class PlayerPasteForm(forms.Form):
    text = forms.CharField(
        label=_("Players, one per line"),
        widget=forms.Textarea(attrs={"rows": 12, "cols": 50}),
        help_text=_(
            "Optionally the club after a tab or a semicolon: “Anna de Vries; De Troefkaart”."
        ),
    )


class PlayerUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Excel or CSV file"),
        help_text=_("First column the name, second the club; a header row “Naam / Club” is fine."),
    )


class PlayerConfirmForm(forms.Form):
    """Carries the checked rows of a preview (signed, so they cannot be altered on the way)."""

    payload = forms.CharField(widget=forms.HiddenInput)


class PlayerWithdrawForm(forms.Form):
    from_round = forms.IntegerField(label=_("Withdraw from round"), min_value=1, max_value=99)


class ApartPairForm(forms.Form):
    """Another player of the tournament, to keep from (or no longer from) a player's table."""

    other = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Never at a table with"))
    action = forms.ChoiceField(choices=[("add", "add"), ("remove", "remove")], initial="add")

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        others = player.tournament.players.exclude(pk=player.pk)
        if self.data.get("action") != "remove":
            # Adding: the players already kept apart from this one are not offered again.
            paired = player.tournament.apart_pairs.filter(Q(player_a=player) | Q(player_b=player))
            partners = paired.values_list("player_a", "player_b")
            others = others.exclude(pk__in=[pk for pair in partners for pk in pair])
        field = cast(forms.ModelChoiceField[Player], self.fields["other"])
        field.queryset = others
        field.empty_label = _("Choose a player")
        # Dutch list order ("van der Meer" under M); the queryset still validates the choice.
        listed = sorted(others, key=lambda p: (name_sort_key(p.name), p.pk))
        field.choices = [("", field.empty_label), *((p.pk, p.name) for p in listed)]
