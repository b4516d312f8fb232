"""The tournament's settings form: it validates and delegates to services."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.standings import TieBreak
from tournament.models import Tournament
from tournament.text import VisibleTextField

TIEBREAK_LABELS = {
    TieBreak.TOURNAMENT_POINTS: _("most tournament points"),
    TieBreak.FEWER_BOLLEN: _("fewest bollen"),
    TieBreak.MORE_CORRECT: _("most correct deals"),
    TieBreak.MORE_POINTS: _("most points (kept bids)"),
}


class TournamentForm(forms.ModelForm[Tournament]):
    """Name, date, place, rounds planned, table sizes and preference, tie-break order, and how
    sheets are confirmed."""

    table_sizes = forms.TypedMultipleChoiceField(
        label=_("Table sizes"),
        choices=[(3, "3"), (4, "4"), (5, "5"), (6, "6")],
        coerce=int,
        initial=[4, 5],
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tables of 4 and 5 are usual; 3 or 6 only when the count demands it."),
    )
    prefer_size = forms.TypedChoiceField(
        label=_("Preferred table size"),
        choices=[(4, "4"), (5, "5"), (3, "3"), (6, "6")],
        coerce=int,
        initial=4,
        help_text=_("Used as often as possible; e.g. 20 players: 5 tables of 4 or 4 of 5."),
    )
    rounds_planned = forms.IntegerField(
        label=_("Rounds planned"),
        min_value=1,
        max_value=50,
        initial=4,
        help_text=_("The seating plans this many rounds ahead, so players meet new opponents."),
    )
    tiebreak_1 = forms.TypedChoiceField(
        label=_("Ranked by"),
        coerce=TieBreak,
        choices=(),
        help_text=_(
            "Tournament points: bid + 2 for a correct bid, -2 for a bol or a penalty bol. "
            "Bollen: wrong bids and penalty bollen. Correct deals: bids that were made. Points "
            "(kept bids): the bids that were made, added up, as in a game at home. Players equal "
            "on every criterion chosen share the rank (1, 2, 2, 4)."
        ),
    )
    tiebreak_2 = forms.TypedChoiceField(label=_("then by"), coerce=TieBreak, choices=())
    tiebreak_3 = forms.TypedChoiceField(
        label=_("then by"), coerce=TieBreak, choices=(), required=False, empty_value=None
    )

    class Meta:
        model = Tournament
        field_classes = {"name": VisibleTextField, "place": VisibleTextField}
        fields = [
            "name",
            "date",
            "place",
            "rounds_planned",
            "seating_balance",
            "clubs_apart_first_round",
            "language",
            "public",
            "confirmation_rule",
            "first_dealer_rule",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "seating_balance": forms.RadioSelect,
            "first_dealer_rule": forms.RadioSelect,
            # Radios: the choices are sentences, too long for a select on a phone or laptop.
            "confirmation_rule": forms.RadioSelect,
        }
        help_texts = {
            "public": _("Players can look up their table and the standings without signing in."),
            "seating_balance": _(
                "Only matters with tables of two sizes (4 and 5): even tables keeps everyone "
                "about equally often at the larger table; fewest repeats lets players meet as "
                "few earlier opponents as possible. Seating a round shows what each gives, and "
                "you can take the other before publishing."
            ),
            "clubs_apart_first_round": _(
                "From the players' clubs, as far as the number of tables allows. Pairs that "
                "may never sit together (partners, family) are set on the player's page."
            ),
            "confirmation_rule": _(
                "Another person: whoever saved a sheet never confirms it. Re-typing: anyone, "
                "also the one who saved it, confirms by typing the paper form blind into an "
                "empty copy. No confirmation: every sheet counts as final at once."
            ),
            "first_dealer_rule": _(
                "The site: the top player of each sheet deals first, marked on the printed "
                "sheet. The table draws: the printed sheet leaves the dealer open, and the table "
                "tells the site who deals first before deal 1; the rows stay as printed."
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(str(tb), label) for tb, label in TIEBREAK_LABELS.items()]
        cast(forms.TypedChoiceField, self.fields["tiebreak_1"]).choices = choices
        cast(forms.TypedChoiceField, self.fields["tiebreak_2"]).choices = choices
        cast(forms.TypedChoiceField, self.fields["tiebreak_3"]).choices = [
            ("", _("(nothing: shared rank)")),
            *choices,
        ]
        order = list(self.instance.tiebreaks) if self.instance.pk else None
        order = order or [str(TieBreak.TOURNAMENT_POINTS), str(TieBreak.FEWER_BOLLEN)]
        for index, value in enumerate(order[:3], start=1):
            self.initial.setdefault(f"tiebreak_{index}", value)
        # A form sent without the rule (an older page, a script) keeps the one in force.
        self.fields["confirmation_rule"].required = False
        # A form posted without it (an older page, a script) keeps the fair default.
        self.fields["seating_balance"].required = False
        self.fields["first_dealer_rule"].required = False
        if self.instance.pk:
            self.initial["table_sizes"] = self.instance.table_sizes
            self.initial["prefer_size"] = self.instance.prefer_size
        if self.instance.pk and self.instance.finished_at is not None:
            # The final standings stay as they were finished: shown, not posted.
            for name in ("tiebreak_1", "tiebreak_2", "tiebreak_3", "confirmation_rule"):
                self.fields[name].disabled = True
            for name in ("tiebreak_1", "confirmation_rule"):
                self.fields[name].help_text = _(
                    "The tournament is finished, so its final standings stay ranked and counted "
                    "as they are: reopen it to change this."
                )

    def clean_confirmation_rule(self) -> str:
        rule: str = self.cleaned_data.get("confirmation_rule") or self.instance.confirmation_rule
        return rule

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        sizes = cleaned.get("table_sizes") or []
        prefer = cleaned.get("prefer_size")
        if sizes and prefer is not None and prefer not in sizes:
            self.add_error("prefer_size", _("The preferred size must be one of the table sizes."))
        chosen = [(f"tiebreak_{i}", cleaned.get(f"tiebreak_{i}")) for i in (1, 2, 3)]
        seen: set[TieBreak] = set()
        for name, tiebreak in chosen:
            if not tiebreak:
                continue
            if tiebreak in seen:  # the error goes to the choice that repeats an earlier one
                self.add_error(name, _("Each criterion can be used once."))
            seen.add(tiebreak)
        cleaned["tiebreaks"] = [str(tb) for _name, tb in chosen if tb]
        return cleaned

    def tournament_fields(self) -> dict[str, Any]:
        """The cleaned values as keyword arguments for the tournament services."""
        data = {name: self.cleaned_data[name] for name in self.Meta.fields}
        data["table_sizes"] = sorted(self.cleaned_data["table_sizes"])
        data["prefer_size"] = self.cleaned_data["prefer_size"]
        data["tiebreaks"] = self.cleaned_data["tiebreaks"]
        data["seating_balance"] = data["seating_balance"] or Tournament.SeatingBalance.EVEN
        # A form posted without it (an older page, a script) keeps the rule in force.
        data["first_dealer_rule"] = data["first_dealer_rule"] or (
            self.instance.first_dealer_rule if self.instance.pk else Tournament.FirstDealerRule.SITE
        )
        return data


class PrizesForm(forms.Form):
    """The prizes of the final standings (on the finish page, where the prize-giving is
    prepared): how many places are announced, from 0 (none) up to the number of players, and
    whether the last place is named ("de verliezer")."""

    prize_places = forms.IntegerField(
        label=_("Places announced"),
        min_value=0,
        help_text=_(
            "The top places named as prize winners in the final standings, the shared result "
            "and on the projector. Players sharing a place share its prize. 0: none."
        ),
        error_messages={
            "required": _("Type how many places are announced, e.g. 3 (0: none)."),
            "invalid": _("Type a whole number of places, e.g. 3 (0: none)."),
        },
    )
    prize_last_place = forms.BooleanField(
        label=_("Also name the last place (“the loser”)"),
        required=False,
        help_text=_("An old club tradition; players who withdrew are never the last place."),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "prize_places": tournament.prize_places,
                "prize_last_place": tournament.prize_last_place,
            },
        )
        super().__init__(*args, **kwargs)
        self.players = tournament.players.count()
        self.fields["prize_places"].widget.attrs["max"] = self.players
        self.fields["prize_places"].error_messages["min_value"] = self._range_message()

    def _range_message(self) -> str:
        return ngettext(
            "Choose from 0 to %(players)s places: the tournament has %(players)s player.",
            "Choose from 0 to %(players)s places: the tournament has %(players)s players.",
            self.players,
        ) % {"players": self.players}

    def clean_prize_places(self) -> int:
        places: int = self.cleaned_data["prize_places"]
        if places > self.players:
            raise ValidationError(self._range_message(), code="max_value")
        return places
