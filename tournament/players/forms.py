"""Forms of the player pages: they validate and delegate to services."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.db.models import Q
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from tournament.models import Player
from tournament.names import name_sort_key
from tournament.players.importing import MAX_ROWS
from tournament.players.layout import (
    HEADER_SCAN,
    Layout,
    Table,
    column_example,
    column_letter,
    column_title,
    layout_for_header,
    row_text,
    used_columns,
)
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

    def clean_text(self) -> str:
        """At most as many players as a file may hold (a list is read, checked and signed in
        full for its preview)."""
        text: str = self.cleaned_data["text"]
        lines = sum(1 for line in text.splitlines() if line.strip())
        if lines > MAX_ROWS:
            raise forms.ValidationError(
                _("%(count)s lines: at most %(max)s players can be pasted at once."),
                code="too_many_lines",
                params={"count": lines, "max": MAX_ROWS},
            )
        return text


class PlayerUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Excel or CSV file"),
        help_text=_(
            "A header row (“Naam”, “Club”, or “Voornaam” and “Achternaam”) is found, also below "
            "a title; the preview shows which row and columns are taken, and you can choose "
            "others."
        ),
    )


class PlayerLayoutForm(forms.Form):
    """Where the players are in an uploaded list, chosen on the preview: the header row, the
    name's columns and the club's. The list itself comes along signed (``table``, checked by
    the view), so nothing is uploaded again and nothing in it can be altered."""

    table = forms.CharField(widget=forms.HiddenInput)
    shown_header = forms.CharField(widget=forms.HiddenInput, required=False)
    header = forms.ChoiceField(label=_("Header row"), required=False)
    name = forms.ChoiceField(label=_("Name from"))
    club = forms.ChoiceField(label=_("Club from"), required=False)

    def __init__(self, *args: Any, table: Table, layout: Layout | None = None, **kwargs: Any):
        """``layout``: the one shown (an unbound form starts from it; a bound one, the
        director's choice, is checked against the table alone)."""
        super().__init__(*args, **kwargs)
        self.rows = table
        shown = layout or Layout(None, self._submitted_name(), None)
        header = cast(forms.ChoiceField, self.fields["header"])
        header.choices = [("", _("No header row"))] + [
            (str(n), _("Row %(number)s: %(cells)s") % {"number": n, "cells": row_text(row)})
            for n, row in enumerate(table[:HEADER_SCAN], start=1)
            if any(row)
        ]
        columns = [(str(c), self._column_text((c,), shown)) for c in used_columns(table)]
        joined = []
        if len(shown.name) > 1:
            joined = [("+".join(map(str, shown.name)), self._column_text(shown.name, shown))]
        cast(forms.ChoiceField, self.fields["name"]).choices = joined + columns
        cast(forms.ChoiceField, self.fields["club"]).choices = [("", _("No club")), *columns]
        if layout is not None:
            self.initial.update(
                header=str(layout.header or ""),
                shown_header=str(layout.header or ""),
                name="+".join(str(c) for c in layout.name),
                club="" if layout.club is None else str(layout.club),
            )

    def _submitted_name(self) -> tuple[int, ...]:
        """A name joined from two or three of the table's columns, as submitted, or ``()``."""
        parts = str(self.data.get("name", "")).split("+")
        if not 1 < len(parts) <= 3 or not all(
            part.isascii() and part.isdigit() and len(part) < 4 for part in parts
        ):
            return ()
        name = tuple(int(part) for part in parts)
        if len(set(name)) < len(name) or set(name) - set(used_columns(self.rows)):
            return ()
        return name

    def _column_text(self, columns: tuple[int, ...], layout: Layout) -> str:
        """ "Column B: Naam" by its header text; without one "Column B, e.g. Anna de Vries"
        (a player is no column name)."""
        letters = " + ".join(column_letter(c) for c in columns)
        titles = " + ".join(t for c in columns if (t := column_title(self.rows, layout, c)))
        if len(columns) > 1:
            if not titles:
                return _("Columns %(letters)s") % {"letters": letters}
            return _("Columns %(letters)s: %(titles)s") % {"letters": letters, "titles": titles}
        if titles:
            return _("Column %(letter)s: %(title)s") % {"letter": letters, "title": titles}
        example = column_example(self.rows, layout, columns[0])
        if example:
            return _("Column %(letter)s, e.g. %(example)s") % {
                "letter": letters,
                "example": row_text([example], limit=30),
            }
        return _("Column %(letter)s") % {"letter": letters}

    def layout(self) -> Layout:
        """The layout chosen; a header row other than the one shown brings its own columns."""
        data = self.cleaned_data
        header = int(data["header"]) if data["header"] else None
        if data["header"] != (data["shown_header"] or ""):
            return layout_for_header(self.rows, header)
        name = tuple(int(c) for c in data["name"].split("+"))
        return Layout(header, name, int(data["club"]) if data["club"] else None)


class PlayerConfirmForm(forms.Form):
    """Carries the checked rows of a preview (signed, so they cannot be altered on the way).
    With ``ticked``, the preview's boxes came along: only the lines ticked (the ``line`` values
    posted) are registered; without it, every row."""

    payload = forms.CharField(widget=forms.HiddenInput)
    ticked = forms.BooleanField(widget=forms.HiddenInput, required=False, initial=True)

    def lines_ticked(self) -> set[int] | None:
        """The lines ticked on the preview, or ``None``: register every row."""
        if not self.cleaned_data.get("ticked"):
            return None
        values = self.data.getlist("line") if isinstance(self.data, QueryDict) else []
        return {
            int(value) for value in values if value.isascii() and value.isdigit() and len(value) < 7
        }


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
