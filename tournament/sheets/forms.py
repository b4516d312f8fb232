"""The score sheet form: one small form per box pair (deal and seat), and the penalty bollen.

The boxes take one digit each; whether the digits make a legal sheet is ``scoring``'s to say, and
the save service asks it (the sheet is the exception to "clean() calls the scoring checks"): the
form only parses the boxes, and a refused save's problems are put at their boxes.
``sheet_grid`` lays the form out as the paper sheet for the template.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, TypedDict, Unpack, cast

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.forms.renderers import BaseRenderer
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.deals import (
    DEAL_COUNT,
    MAX_SEATS,
)
from scoring.errors import ErrorCode, Problem
from scoring.sheet import Sheet
from tournament.errors import PlacedProblem, deal_name, place_rule_problem
from tournament.sheets.submission import SheetSubmission

# Where on the sheet each rule problem is shown: at a bid box, at a tricks box, under the deal,
# or with the penalty bollen.
BID_PROBLEMS = {ErrorCode.BID_RANGE, ErrorCode.DEALER_BID, ErrorCode.BIDS_INCOMPLETE}
TRICKS_PROBLEMS = {ErrorCode.TRICKS_RANGE, ErrorCode.TRICKS_INCOMPLETE}
PENALTY_PROBLEMS = {ErrorCode.PENALTY_DEAL, ErrorCode.PENALTY_SEAT}

ONE_DIGIT = gettext_lazy("Enter one digit.")


class BoxInput(forms.TextInput):
    """A one-digit box. Drawn with ``format_html`` rather than the template engine: a sheet has
    over a hundred of them, and widget templates would be most of the page's time."""

    def __init__(self) -> None:
        super().__init__(
            attrs={
                "inputmode": "numeric",
                "pattern": "[0-9]",
                "maxlength": "1",
                "size": "1",
                "autocomplete": "off",
                "class": "box",
            }
        )

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: BaseRenderer | None = None,
    ) -> SafeString:
        final = {"type": "text", "name": name, **self.build_attrs(self.attrs, attrs)}
        value = self.format_value(value)
        if value is not None:
            final["value"] = value
        # Every attribute value is escaped here: the labels hold players' names.
        html = "".join(
            f" {key}" if given is True else f' {key}="{escape(str(given), quote=True)}"'
            for key, given in final.items()
            if given is not None and given is not False
        )
        return SafeString(f"<input{html}>")


class DigitField(forms.IntegerField):
    """One box of the paper form: empty, or a single digit."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", BoxInput())
        messages = {"invalid": ONE_DIGIT, "min_value": ONE_DIGIT, "max_value": ONE_DIGIT}
        super().__init__(
            required=False, min_value=0, max_value=9, error_messages=messages, **kwargs
        )


class CellForm(forms.Form):
    """A seat's bid and tricks in one deal."""

    bid = DigitField(label=gettext_lazy("bid"))
    tricks = DigitField(label=gettext_lazy("tricks"))


# A sheet has at most ``DEAL_COUNT * MAX_SEATS`` box pairs; a form count beyond that is
# tampering, refused before a single extra form is built.
CELLS_MAX = DEAL_COUNT * MAX_SEATS
CellFormSet = forms.formset_factory(
    CellForm, extra=0, max_num=CELLS_MAX, absolute_max=CELLS_MAX, validate_max=True
)


def cell_index(n_seats: int, deal: int, seat: int) -> int:
    """Which of the sheet form's cell forms holds the box pair of ``deal`` and ``seat``: deal
    1's seats first (the ``N`` of its fields ``cell-N-bid`` and ``cell-N-tricks``)."""
    return (deal - 1) * n_seats + seat


def cell_place(n_seats: int, index: int) -> tuple[int, int]:
    """``(deal, seat)`` of the cell form at ``index``: the inverse of :func:`cell_index`."""
    deal, seat = divmod(index, n_seats)
    return deal + 1, seat


def cell_field(n_seats: int, deal: int, seat: int, kind: str) -> str:
    """The name of the bid (``kind`` "bid") or tricks ("tricks") box of ``deal`` and ``seat``
    as the sheet form posts it."""
    return f"cell-{cell_index(n_seats, deal, seat)}-{kind}"


# The largest version number a sheet can reach (the database's positive integer).
VERSION_MAX = 2**31 - 1


class PenaltyForm(forms.Form):
    """A revoke ("verzaken"): one penalty bol for a player in a deal."""

    seat = forms.TypedChoiceField(
        label=gettext_lazy("Player"), coerce=int, required=False, empty_value=None
    )
    deal = forms.TypedChoiceField(
        label=gettext_lazy("Deal"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = tuple(players)
        cast(forms.TypedChoiceField, self.fields["seat"]).choices = [("", "—"), *enumerate(players)]
        cast(forms.TypedChoiceField, self.fields["deal"]).choices = [
            ("", "—"),
            *((deal, deal_name(deal)) for deal in range(1, DEAL_COUNT + 1)),
        ]

    def clean(self) -> dict[str, Any]:
        """A row names both who revoked and in which deal, or neither (the empty row)."""
        super().clean()
        cleaned = self.cleaned_data
        seat, deal = cleaned.get("seat"), cleaned.get("deal")
        if seat is not None and deal is None and "deal" not in self.errors:
            raise ValidationError(
                _("Penalty bol of %(player)s: choose the deal in which they revoked.")
                % {"player": self.players[seat]},
                code="penalty_deal",
            )
        if deal is not None and seat is None and "seat" not in self.errors:
            raise ValidationError(
                _("Penalty bol in %(deal)s: choose who revoked.") % {"deal": deal_name(deal)},
                code="penalty_player",
            )
        return cleaned


# One penalty bol per player per deal is already far more than any table gives (plus the
# empty row).
PENALTIES_MAX = DEAL_COUNT * MAX_SEATS + 1
PenaltyFormSet = forms.formset_factory(
    PenaltyForm,
    extra=1,
    can_delete=True,
    max_num=PENALTIES_MAX,
    absolute_max=PENALTIES_MAX,
    validate_max=True,
)


def penalty_formset(
    data: Mapping[str, Any] | None, *, players: Sequence[str], stored: Sheet
) -> forms.BaseFormSet[PenaltyForm]:
    """The penalty bollen as submitted, or (unbound) as ``stored``, plus one empty row."""
    return PenaltyFormSet(
        data,
        prefix="penalty",
        initial=None
        if data is not None
        else [{"seat": p.seat, "deal": p.deal} for p in stored.penalties],
        form_kwargs={"players": players},
    )


class StoredPenalties:
    """The penalty bollen part of a ``SheetForm`` on a stored sheet (what
    ``sheets/_penalties.html`` shows), without the sheet's boxes: the page redraws it after
    every save."""

    penalty_errors: tuple[str, ...] = ()

    def __init__(self, *, players: Sequence[str], stored: Sheet) -> None:
        self.penalties = penalty_formset(None, players=tuple(players), stored=stored)


def sheet_form_data(
    n_seats: int,
    cells: Mapping[tuple[int, int], tuple[int | None, int | None]],
    penalties: Sequence[tuple[int, int]] = (),
    *,
    base_version: int = 0,
    key: uuid.UUID | str | None = None,
    removed: Sequence[int] = (),
) -> dict[str, str]:
    """What the sheet page posts for ``cells`` (``{(deal, seat): (bid, tricks)}``) and
    ``(deal, seat)`` ``penalties`` (``removed``: indexes of penalties ticked for removal): the
    fields :class:`SheetForm` reads. For scripts and tests that save a sheet over HTTP."""
    data = {
        "base_version": str(base_version),
        "idempotency_key": str(key or uuid.uuid4()),
        "cell-TOTAL_FORMS": str(DEAL_COUNT * n_seats),
        "cell-INITIAL_FORMS": str(DEAL_COUNT * n_seats),
        "cell-MIN_NUM_FORMS": "0",
        "cell-MAX_NUM_FORMS": "1000",
        "penalty-TOTAL_FORMS": str(len(penalties) + 1),
        "penalty-INITIAL_FORMS": str(len(penalties)),
        "penalty-MIN_NUM_FORMS": "0",
        "penalty-MAX_NUM_FORMS": "1000",
        f"penalty-{len(penalties)}-seat": "",
        f"penalty-{len(penalties)}-deal": "",
    }
    for deal in range(1, DEAL_COUNT + 1):
        for seat in range(n_seats):
            bid, tricks = cells.get((deal, seat), (None, None))
            data[cell_field(n_seats, deal, seat, "bid")] = "" if bid is None else str(bid)
            data[cell_field(n_seats, deal, seat, "tricks")] = "" if tricks is None else str(tricks)
    for index, (deal, seat) in enumerate(penalties):
        data[f"penalty-{index}-seat"] = str(seat)
        data[f"penalty-{index}-deal"] = str(deal)
        if index in removed:
            data[f"penalty-{index}-DELETE"] = "on"
    return data


class Sender(TypedDict, total=False):
    """Who sent a sheet how, as :class:`SheetSubmission` records it."""

    by_user: AbstractBaseUser | AnonymousUser | None
    via: str
    ip: str | None
    hold: bool
    draft_seen: str | None
    photo_id: int | None


class SheetForm(forms.Form):
    """A table's whole score sheet, with the version it was started from.

    ``cells`` holds ``DEAL_COUNT * n_seats`` forms, deal 1's seats first; ``penalties`` the
    penalty bollen (plus one empty row to add one). The form parses the boxes; the save service
    judges the rules, and ``add_problems`` puts what it found at their box (``cells`` form
    errors), under their deal (``deal_errors``), with the penalty bollen (``penalty_errors``)
    and all together in ``problems``.
    """

    base_version = forms.IntegerField(min_value=0, max_value=VERSION_MAX, widget=forms.HiddenInput)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        players: Sequence[str],
        stored: Sheet | None = None,
        version: int = 0,
    ) -> None:
        super().__init__(data, initial={"base_version": version, "idempotency_key": uuid.uuid4()})
        self.players = tuple(players)
        self.n_seats = len(self.players)
        # A submission stands on its own: it may come from a page drawn before someone else
        # saved, so the stored sheet only fills an unbound form (``None``: a blank sheet).
        bound = data is not None
        if stored is None:
            stored = Sheet(n_seats=self.n_seats, deals=())
        self.cells = CellFormSet(
            data, prefix="cell", initial=None if bound else self._cell_initial(stored)
        )
        self.penalties = penalty_formset(data, players=self.players, stored=stored)
        self.deal_errors: dict[int, list[str]] = defaultdict(list)
        self.penalty_errors: list[str] = []
        self.problems: list[PlacedProblem] = []
        self._label_boxes()

    def _cell_initial(self, stored: Sheet) -> list[dict[str, int | None]]:
        initial = []
        for deal in range(1, DEAL_COUNT + 1):
            entry = stored.deals[deal - 1] if deal <= len(stored.deals) else None
            for seat in range(self.n_seats):
                bid = entry.bids[seat] if entry else None
                tricks = entry.tricks[seat] if entry else None
                initial.append({"bid": bid, "tricks": tricks})
        return initial

    @property
    def malformed(self) -> bool:
        """Whether the submission is not this table's sheet at all (a box count other than the
        table's, or a damaged form): there is nothing to show at the boxes, only to refuse."""
        if not self.is_bound:
            return False
        counts = []
        for formset, most in ((self.cells, CELLS_MAX), (self.penalties, PENALTIES_MAX)):
            management = formset.management_form
            # A valid management form has its count (a required field).
            total = management.cleaned_data["TOTAL_FORMS"] if management.is_valid() else None
            if total is None or total > most:
                return True
            counts.append(total)
        return counts[0] != DEAL_COUNT * self.n_seats

    def cell_form(self, deal: int, seat: int) -> CellForm:
        return self.cells.forms[cell_index(self.n_seats, deal, seat)]

    def _label_boxes(self) -> None:
        """Name every box for screen readers. The boxes keep the document order (a row per
        player, a pair per deal); the script moves on in bidding order as digits are typed."""
        if len(self.cells.forms) != DEAL_COUNT * self.n_seats:
            return  # a tampered submission; clean() refuses it
        for deal in range(1, DEAL_COUNT + 1):
            where = deal_name(deal)
            for seat in range(self.n_seats):
                for kind in ("bid", "tricks"):
                    label = (
                        _("Bid of %(player)s, %(deal)s")
                        if kind == "bid"
                        else _("Tricks of %(player)s, %(deal)s")
                    )
                    self.cell_form(deal, seat).fields[kind].widget.attrs.update(
                        {
                            "aria-label": label % {"player": self.players[seat], "deal": where},
                            "aria-describedby": f"msg-{deal}-{seat} deal-msg-{deal}",
                            "data-deal": str(deal),
                            "data-seat": str(seat),
                            "data-kind": kind,
                        }
                    )

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        cells_ok = self.cells.is_valid()
        if cells_ok and self.cells.total_form_count() != DEAL_COUNT * self.n_seats:
            raise ValidationError(
                _("The sheet arrived incomplete. Reload the page and try again."), code="cells"
            )
        if not cells_ok:
            raise ValidationError(
                _("Some boxes are not filled in correctly; see the marked boxes."), code="boxes"
            )
        if not self.penalties.is_valid():
            for form in self.penalties.forms:
                for errors in form.errors.values():
                    self.penalty_errors.extend(str(error) for error in errors)
            raise ValidationError(
                _("A penalty bol is not filled in completely; see the penalty bollen."),
                code="penalties",
            )
        # The rules of the game span the whole sheet: the save service judges them (once) and
        # the page puts its problems at their boxes with ``add_problems``. Re-typing the paper
        # form checks none: a mistake on paper is a difference to show.
        return cleaned

    def cell_values(self) -> dict[tuple[int, int], tuple[int | None, int | None]]:
        """``{(deal, seat): (bid, tricks)}`` of the boxes that hold something."""
        values = {}
        for index, form in enumerate(self.cells.forms):
            bid, tricks = form.cleaned_data.get("bid"), form.cleaned_data.get("tricks")
            if bid is not None or tricks is not None:
                values[cell_place(self.n_seats, index)] = (bid, tricks)
        return values

    def submission(self, **sender: Unpack[Sender]) -> SheetSubmission:
        """The valid form as the save service takes it; ``sender`` says who sent it how."""
        return SheetSubmission(
            cells=self.cell_values(),
            penalties=tuple(self.penalty_values()),
            base_version=self.cleaned_data["base_version"],
            idempotency_key=self.cleaned_data["idempotency_key"],
            **sender,
        )

    def penalty_values(self) -> list[tuple[int, int]]:
        """The penalty bollen as ``(deal, seat)`` pairs, leaving out removed and empty rows."""
        return [
            (form.cleaned_data["deal"], form.cleaned_data["seat"])
            for form in self.penalties.forms
            if form.cleaned_data
            and not form.cleaned_data.get("DELETE")
            and form.cleaned_data.get("seat") is not None
        ]

    def add_problems(self, problems: Sequence[Problem]) -> None:
        """Show ``scoring``'s problems at their boxes and in the list above the sheet."""
        for problem in problems:
            placed = place_rule_problem(problem, round=None, table=None, players=self.players)
            self.problems.append(placed)
            error = ValidationError(placed.message, code=str(problem.code))
            deal, seat = problem.deal, problem.seat
            if deal is not None and seat is not None and problem.code in BID_PROBLEMS:
                self.cell_form(deal, seat).add_error("bid", error)
            elif deal is not None and seat is not None and problem.code in TRICKS_PROBLEMS:
                self.cell_form(deal, seat).add_error("tricks", error)
            elif problem.code in PENALTY_PROBLEMS:
                self.penalty_errors.append(str(placed))
            elif problem.deal is not None:
                self.deal_errors[problem.deal].append(placed.message)
            self.add_error(None, ValidationError(str(placed), code=str(problem.code)))


class RestoreForm(forms.Form):
    """A history page's restore button: the version the page showed, and its own key."""

    base_version = forms.IntegerField(min_value=0, max_value=VERSION_MAX, widget=forms.HiddenInput)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)
