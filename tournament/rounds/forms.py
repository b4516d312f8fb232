"""Forms of the round pages: they validate and delegate to services."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Tournament


class FirstDealerForm(forms.Form):
    """Who drew the first deal at a table: their ``seat`` (the sheet's row, 0-based: the sheet
    pages and the phone send it) or, as the round page's list did, the ``player`` by id."""

    seat = forms.IntegerField(min_value=0, max_value=5, required=False)
    player = forms.IntegerField(min_value=1, max_value=2**31 - 1, required=False)


class RoundAdjustForm(forms.Form):
    """Swap two players, or put a player (e.g. a late arrival) at a table."""

    action = forms.ChoiceField(
        choices=[("swap", _("Swap two players")), ("move", _("Put a player at a table"))],
        widget=forms.HiddenInput,
    )
    player: forms.ModelChoiceField[Player] = forms.ModelChoiceField(
        queryset=None, label=_("Player")
    )
    other: forms.ModelChoiceField[Player] = forms.ModelChoiceField(
        queryset=None, label=_("with"), required=False
    )
    table = forms.TypedChoiceField(label=_("at table"), coerce=int, choices=(), required=False)

    def __init__(
        self, *args: Any, players: Iterable[Player], tables: Iterable[int], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        pks = [p.pk for p in players]
        queryset = Player.objects.filter(pk__in=pks).order_by("name")
        cast(forms.ModelChoiceField[Player], self.fields["player"]).queryset = queryset
        cast(forms.ModelChoiceField[Player], self.fields["other"]).queryset = queryset
        cast(forms.TypedChoiceField, self.fields["table"]).choices = [(n, str(n)) for n in tables]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("action") == "swap" and not cleaned.get("other"):
            self.add_error("other", _("Choose the player to swap with."))
        if cleaned.get("action") == "move" and not cleaned.get("table"):
            self.add_error("table", _("Choose a table."))
        return cleaned


class RoundBalanceForm(forms.Form):
    """The balance a draft round is to be seated with (from the options shown)."""

    balance = forms.ChoiceField(choices=Tournament.SeatingBalance.choices)
