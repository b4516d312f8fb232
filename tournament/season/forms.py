"""The season's forms: they parse and validate, the services decide."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.errors import Refused
from tournament.models import Club, Competition, Member, Tournament
from tournament.names import folded, name_sort_key
from tournament.season.check_in import GUEST, MEMBER, evening_date_check
from tournament.season.services import CompetitionSettings
from tournament.text import VisibleTextField, posted_id


class MemberForm(forms.Form):
    name = VisibleTextField(label=_("Name"), max_length=200)
    club = VisibleTextField(label=_("Club"), max_length=200, required=False)
    number = VisibleTextField(label=_("Member number"), max_length=40, required=False)
    active = forms.BooleanField(label=_("Active"), required=False, initial=True)


class MemberPasteForm(forms.Form):
    paste = forms.CharField(
        label=_("Paste a list"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "One member a line: name; club; member number (or with tabs between them, as "
            "copied from Excel). Club and number may be left out."
        ),
    )


class CompetitionForm(forms.Form):
    name = VisibleTextField(label=_("Name"), max_length=200)
    season = VisibleTextField(
        label=_("Season"),
        max_length=80,
        required=False,
        help_text=_(
            "e.g. 2026-2027. The title is the name with the season after it, unless the name "
            "contains the season already."
        ),
    )
    best = forms.IntegerField(
        label=_("Best evenings that count"),
        min_value=1,
        max_value=100,
        required=False,
        help_text=_("Empty: every evening counts."),
    )
    min_evenings = forms.IntegerField(
        label=_("Minimum evenings to be ranked"), min_value=0, max_value=100, initial=0
    )
    ranking = forms.ChoiceField(
        label=_("Ranking"),
        choices=Competition.Ranking.choices,
        initial=Competition.Ranking.BEST,
        required=False,  # left out (a script's post): the total of the best evenings
        widget=forms.RadioSelect,
        help_text=_(
            "Total of the best evenings: each member's points of their best evenings added up "
            "(how many: “Best evenings that count”). Average per evening: each member's "
            "points divided by the evenings they played, every evening counts, so missing an "
            "evening costs nothing. The minimum of evenings applies to both."
        ),
    )
    public = forms.BooleanField(label=_("Public season page on"), required=False)
    season_seating = forms.BooleanField(
        label=_("Round 1 seats members away from those they met most this season"),
        required=False,
    )

    def competition_settings(self) -> CompetitionSettings:
        data = self.cleaned_data
        return CompetitionSettings(
            name=data["name"],
            season=data["season"],
            best=data["best"],
            min_evenings=data["min_evenings"] or 0,
            ranking=Competition.Ranking(data["ranking"] or Competition.Ranking.BEST),
            public=data["public"],
            season_seating=data["season_seating"],
        )


class EveningAddForm(forms.Form):
    """A played tournament as an evening: its players are matched to the register, and the
    names not in it join as guests (as at the check-in) unless told they are members."""

    tournament = forms.ModelChoiceField(label=_("Tournament"), queryset=Tournament.objects.none())
    new_names = forms.ChoiceField(
        label=_("Names not in the register yet"),
        choices=[(GUEST, _("as a guest (the default)")), (MEMBER, _("as a member"))],
        initial=GUEST,
        required=False,  # left out (a script's post): as guests
        widget=forms.RadioSelect,
        help_text=_(
            "A guest plays and is known again at the next check-in, but is never ranked in a "
            "competition; you can make a guest a member later, on their page in the register. "
            "A name close to someone in the register is asked about first."
        ),
    )

    def __init__(self, *args: Any, tournaments: QuerySet[Tournament], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField[Tournament], self.fields["tournament"]).queryset = tournaments

    def as_guests(self) -> bool:
        """Whether the names not in the register join it as guests."""
        return bool(self.cleaned_data["new_names"] != MEMBER)


class MembersField(forms.ModelMultipleChoiceField[Member]):
    """Members ticked by their key: a value that no key can be ("²", a number of 30 digits,
    which SQLite cannot even compare) is refused as a wrong choice, before the database."""

    def _check_values(self, value: Iterable[object]) -> QuerySet[Member]:
        for item in value:
            if posted_id(str(item)) is None:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": str(item)[:20]},
                )
        # Django's own step of clean(), which the stubs leave out.
        checked: QuerySet[Member] = super()._check_values(value)  # type: ignore[misc]
        return checked


class CheckInForm(forms.Form):
    """Who is here tonight: members (and guests known already) ticked, new names one per line
    ("Name, club"), each then asked about: member or guest."""

    name = VisibleTextField(label=_("Name of the evening"), max_length=200)
    date = forms.DateField(
        label=_("Date"),
        initial=timezone.localdate,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": _("Give the date of the evening."),
            "invalid": _("The date of the evening is not a date: give day, month and year."),
        },
    )
    members = MembersField(
        label=_("Here tonight: members and guests"),
        queryset=Member.objects.none(),  # the club's register: __init__
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    new_people = forms.CharField(
        label=_("New names"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "One per line: name, club. For each new name you are asked next whether they are "
            "a member or a guest."
        ),
    )

    def __init__(self, *args: Any, register: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The active members of the competition's club, in the register's order: by surname,
        # the Dutch way. A member of another club's register is no choice.
        active = Member.objects.filter(register=register, active=True)
        field = self.fields["members"]
        assert isinstance(field, MembersField)
        field.queryset = active
        members = sorted(active, key=lambda m: name_sort_key(m.name))
        field.choices = [(m.pk, str(m)) for m in members]
        # Guests known from earlier evenings: marked as such in the list.
        self.guests = frozenset(m.pk for m in members if m.guest)

    def clean_date(self) -> datetime.date:
        try:
            return evening_date_check(self.cleaned_data["date"], today=timezone.localdate())
        except Refused as refused:
            raise ValidationError(
                [ValidationError(p.message, code=p.code) for p in refused.problems]
            ) from None

    def near_answers(self) -> dict[str, str]:
        """The answers to "do you mean ...?", by the folded new name they answer: a member's
        id, ``NEW_MEMBER`` or ``NEW_GUEST`` (posted as ``near-N`` with the name in
        ``near-N-name``); empty for a question that was on the page and left open."""
        return self._answers("near-")

    def kind_answers(self) -> dict[str, str]:
        """The answers to "member or guest?", by the folded new name they answer: ``MEMBER``
        or ``GUEST`` (posted as ``kind-N`` with the name in ``kind-N-name``); empty for a
        question that was on the page and left open."""
        return self._answers("kind-")

    def _answers(self, prefix: str) -> dict[str, str]:
        answers: dict[str, str] = {}
        for key, value in self.data.items():
            if key.startswith(prefix) and key.endswith("-name"):
                answer = self.data.get(key.removesuffix("-name"), "")
                # a name asked twice on one page: an answer given wins over one left open
                answers[folded(value)] = answer or answers.get(folded(value), "")
        return answers

    def new_people_rows(self) -> list[tuple[str, str]]:
        rows = []
        for line in self.cleaned_data["new_people"].splitlines():
            name, _sep, club = line.partition(",")
            if name.strip():
                rows.append((name.strip(), club.strip()))
        return rows


class CompetitionFileForm(forms.Form):
    file = forms.FileField(
        label=_("Competition file (.json)"),
        help_text=_("A competition exported from this or another site, format version 1."),
    )
