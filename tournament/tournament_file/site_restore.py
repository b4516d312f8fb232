"""Restoring the site's own records from a checked portable file: the first-dealer rule and
drawn rows, the closed rounds (read by the import), and ``site_restore``, which stores the
team, the sheet history, the confirmations and the table links on the imported tournament
and says in plain sentences what it could not give back. What the record is:
``tournament_file.site``; its check: ``tournament_file.site_reading``.
"""

from __future__ import annotations

import datetime
import secrets
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Count, Q
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import (
    Club,
    Player,
    SheetConfirmation,
    SheetVersion,
    Table,
    TableLink,
    TournamentFinish,
)
from tournament.models import Tournament as TournamentModel
from tournament.tournament_file.site import SITE_KEY, parse_time, version_turned

TOKEN_BYTES = 32  # as ``table_links`` makes them (it cannot be imported here: import cycle)


def _checked_time(value: str) -> datetime.datetime:
    """A time of a checked file (the check refused one that is not a date and time)."""
    moment = parse_time(value)
    assert moment is not None, f"{value!r} passed the file's check"
    return moment


def _record(document: dict[str, Any]) -> dict[str, Any]:
    return document.get("settings", {}).get(SITE_KEY) or {}


def site_first_dealer_rule(document: dict[str, Any]) -> str:
    """The tournament's first-dealer rule the checked file holds; a file without the site's
    records (or without the rule) is a plain v1 file: the site decides, seats[0] deals first."""
    rule: str = _record(document).get("first_dealer_rule", TournamentModel.FirstDealerRule.SITE)
    return rule


def site_first_dealers(document: dict[str, Any]) -> dict[tuple[int, int], int]:
    """``{(round, table): row}``: the tables of the checked file whose first dealer was drawn,
    with the drawn row of the printed sheet (the file's seats start with that player)."""
    return {
        (entry["round"], entry["table"]): entry["first_dealer"]
        for entry in _record(document).get("tables", [])
        if entry.get("first_dealer") is not None
    }


def site_closed_rounds(document: dict[str, Any]) -> dict[int, datetime.datetime | None]:
    """``{round number: closed at}``: the rounds the director had closed."""
    return {
        item["round"]: parse_time(item["closed_at"]) for item in _record(document).get("rounds", [])
    }


@dataclass(frozen=True, slots=True)
class FinishedClaim:
    """The file's word that the tournament was finished: when, and by which account of this
    club (``None``: not one of its people, or not named)."""

    at: datetime.datetime
    by: User | None


@dataclass
class SiteRestored:
    """What restoring the ``x-site`` record did not do as the file says, in plain sentences,
    and whether the file says the tournament was finished (``finished``: applied by the import
    once every sheet is in, see ``site_restore_finished``)."""

    notes: list[str] = field(default_factory=list)
    finished: FinishedClaim | None = None


def site_restore(*, tournament: TournamentModel, document: dict[str, Any]) -> SiteRestored:
    """Store the checked ``x-site`` record of ``document`` on the freshly imported
    ``tournament`` (inside the import's transaction)."""
    outcome = SiteRestored()
    record = document.get("settings", {}).get(SITE_KEY)
    if record is None:
        return outcome
    users = _accounts(record, tournament.club)
    missing: dict[str, list[str]] = defaultdict(list)

    def account(name: str | None, role: str) -> User | None:
        if name is None:
            return None
        user = users.get(name)
        if user is None and role not in missing[name]:
            missing[name].append(role)
        return user

    hidden = record.get("not_public", [])
    if hidden:
        Player.objects.filter(tournament=tournament, file_id__in=hidden).update(
            public_consent=False
        )
    team = record.get("team", {})
    for name in team.get("directors", []):
        if (user := account(name, _("team: co-director"))) is not None:
            tournament.directors.add(user)
    for name in team.get("scorers", []):
        if (user := account(name, _("team: scorer"))) is not None:
            tournament.scorers.add(user)

    table_of = {(r, t): (pk, n, first) for pk, r, t, n, first in _tables_with_seats(tournament)}
    in_use = _tokens_in_use(record)
    versions: list[tuple[SheetVersion, dict[str, Any], list[SheetVersion]]] = []
    confirmations: list[tuple[SheetConfirmation, dict[str, Any]]] = []
    links: list[tuple[TableLink, dict[str, Any]]] = []
    # The tables whose link is in use elsewhere, by the tournament that has it (``None``:
    # another club's).
    taken: dict[int | None, tuple[TournamentModel, set[tuple[int, int]]]] = {}
    for entry in record.get("tables", []):
        table_id, n_seats, first = table_of[entry["round"], entry["table"]]
        of_table: list[SheetVersion] = []
        for item in entry.get("versions", []):
            cells, penalties = version_turned(
                item["cells"], item.get("penalties", []), first or 0, n_seats, back=True
            )
            version = SheetVersion(
                table_id=table_id,
                number=item["number"],
                base_number=item.get("base", 0),
                cells=cells,
                penalties=penalties,
                via=item.get("via", SheetVersion.Via.DIRECTOR),
                user=account(item.get("saved_by"), _("saved a sheet")),
                ip=item.get("ip"),
                idempotency_key=uuid.UUID(item["key"]) if "key" in item else None,
            )
            of_table.append(version)
            versions.append((version, item, of_table))
        for item in entry.get("links", []):
            token = item["token"]
            if token in in_use:
                other = in_use[token]
                if "revoked_at" not in item:
                    # Another club's tournament is not named (nothing of it is this club's).
                    key = other.pk if other.club_id == tournament.club_id else None
                    taken.setdefault(key, (other, set()))[1].add((entry["round"], entry["table"]))
                token = secrets.token_urlsafe(TOKEN_BYTES)
            links.append(
                (
                    TableLink(
                        table_id=table_id,
                        token=token,
                        created_by=account(item.get("created_by"), _("made a table link")),
                        revoked_at=parse_time(item["revoked_at"]) if "revoked_at" in item else None,
                    ),
                    item,
                )
            )

    SheetVersion.objects.bulk_create([v for v, _item, _table in versions], batch_size=1000)
    for version, item, of_table in versions:
        if item.get("restored_from") is not None:
            version.restored_from = of_table[item["restored_from"]]
        if "saved_at" in item:
            version.created_at = _checked_time(item["saved_at"])
        conf = item.get("confirmation")
        if conf is not None:
            confirmations.append(
                (
                    SheetConfirmation(
                        version=version,
                        user=account(conf.get("by"), _("confirmed a sheet")),
                        method=conf["method"],
                    ),
                    conf,
                )
            )
    if versions:
        SheetVersion.objects.bulk_update(
            [v for v, _item, _table in versions], ["restored_from", "created_at"], batch_size=500
        )
    SheetConfirmation.objects.bulk_create([c for c, _item in confirmations], batch_size=1000)
    _keep_times(SheetConfirmation, confirmations, "at")
    TableLink.objects.bulk_create([link for link, _item in links], batch_size=1000)
    _keep_times(TableLink, links, "created_at")
    finished = record.get("finished")
    if finished is not None:
        outcome.finished = FinishedClaim(
            at=_checked_time(finished["at"]),
            by=account(finished.get("by"), _("finished the tournament")),
        )

    outcome.notes.extend(_taken_links_notes(taken))
    if missing:
        outcome.notes.append(
            _(
                "These accounts are not in this database and were not created (a backup holds "
                "no passwords): %(names)s. Add the people again on the Team page; their "
                "saves and confirmations are kept without a name."
            )
            % {
                "names": "; ".join(
                    f"{name} ({', '.join(roles)})" for name, roles in sorted(missing.items())
                )
            }
        )
    return outcome


def _numbers(numbers: Sequence[int]) -> str:
    """``1-10, 12`` (with an en dash): sorted numbers, a run of three or more as a range."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    shown = [
        f"{run[0]}\N{EN DASH}{run[-1]}" if len(run) > 2 else ", ".join(map(str, run))
        for run in runs
    ]
    return ", ".join(shown)


def tables_text(tables: set[tuple[int, int]]) -> str:
    """``round 1 (tables 1-10) and rounds 2, 3 (tables 1-4)``: ``(round, table)`` pairs
    grouped by round; rounds with the same tables together."""
    by_round: dict[int, list[int]] = defaultdict(list)
    for round_number, table in tables:
        by_round[round_number].append(table)
    rounds_of: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for round_number, of_round in sorted(by_round.items()):
        rounds_of[tuple(sorted(of_round))].append(round_number)
    parts = []
    for numbers, rounds in sorted(rounds_of.items(), key=lambda item: item[1][0]):
        parts.append(
            ngettext("round %(rounds)s", "rounds %(rounds)s", len(rounds))
            % {"rounds": _numbers(rounds)}
            + " ("
            + ngettext("table %(tables)s", "tables %(tables)s", len(numbers))
            % {"tables": _numbers(numbers)}
            + ")"
        )
    return str(get_text_list(parts, _("and")))


def _taken_links_notes(
    taken: dict[int | None, tuple[TournamentModel, set[tuple[int, int]]]],
) -> list[str]:
    """One note per tournament that has some of the file's table links: which tables got a
    new link."""
    notes = []
    for key, (other, tables) in sorted(taken.items(), key=lambda item: item[0] or 0):
        values = {"tables": tables_text(tables), "count": len(tables)}
        if key is None:
            notes.append(
                ngettext(
                    "The table link of %(tables)s is in use on this site by another club's "
                    "tournament, so this tournament got a new link for that table: print its "
                    "score sheet again.",
                    "The table links of %(tables)s are in use on this site by another club's "
                    "tournament, so this tournament got new links for these %(count)s tables: "
                    "print their score sheets again.",
                    len(tables),
                )
                % values
            )
            continue
        notes.append(
            ngettext(
                "The table link of %(tables)s is still in use by “%(other)s” (%(slug)s) in this "
                "database, so this tournament got a new link for that table; the printed QR "
                "code keeps opening “%(other)s”.",
                "The table links of %(tables)s are still in use by “%(other)s” (%(slug)s) in "
                "this database, so this tournament got new links for these %(count)s tables; "
                "the printed QR codes keep opening “%(other)s”.",
                len(tables),
            )
            % {**values, "other": other.name, "slug": other.slug}
        )
    return notes


def site_restore_finished(
    *,
    tournament: TournamentModel,
    claim: FinishedClaim,
    open_rounds: Sequence[int],
    unconfirmed: int,
) -> str | None:
    """A finished tournament comes back finished (read-only, its standings final), by the same
    account when it is a person of this club, its finish recorded at the file's time. A file
    that says so while a round is not complete or a sheet waits for a confirmation (a file
    edited by hand) is imported open: the returned note says why."""
    if open_rounds or unconfirmed:
        what = []
        if open_rounds:
            what.append(
                ngettext(
                    "round %(rounds)s is not complete",
                    "rounds %(rounds)s are not complete",
                    len(open_rounds),
                )
                % {"rounds": ", ".join(map(str, open_rounds))}
            )
        if unconfirmed:
            what.append(
                ngettext(
                    "%(count)s sheet waits for a confirmation",
                    "%(count)s sheets wait for a confirmation",
                    unconfirmed,
                )
                % {"count": unconfirmed}
            )
        return _(
            "The file says the tournament was finished, but %(what)s: it was imported open. "
            "Complete and confirm what is open, then finish it again."
        ) % {"what": _(" and ").join(what)}
    tournament.finished_at = claim.at
    tournament.finished_by = claim.by
    tournament.save(update_fields=["finished_at", "finished_by"])
    record = TournamentFinish.objects.create(
        tournament=tournament,
        action=TournamentFinish.Action.FINISHED,
        by=claim.by,
        by_name=claim.by.get_username() if claim.by is not None else "",
    )
    TournamentFinish.objects.filter(pk=record.pk).update(at=claim.at)
    return None


# The restored rows whose ``created_at`` the file gives.
Dated = TypeVar("Dated", SheetConfirmation, TableLink)


def _keep_times(model: type[Dated], rows: Sequence[tuple[Dated, dict[str, Any]]], key: str) -> None:
    """Put back the times of the file (``auto_now_add`` set them to now on insert)."""
    dated = []
    for row, item in rows:
        if key in item:
            row.created_at = _checked_time(item[key])
            dated.append(row)
    if dated:
        model.objects.bulk_update(dated, ["created_at"], batch_size=500)


def _accounts(record: dict[str, Any], club: Club) -> dict[str, User]:
    """The file's usernames that are people of ``club``: on a site of one club every account;
    on a site of many, those with a role in ``club`` or on the team of one of its tournaments.
    Another club's accounts are never given a place (nor named as existing) by a file."""
    names: set[str] = set()
    team = record.get("team", {})
    names.update(team.get("directors", []), team.get("scorers", []))
    names.update(n for n in (record.get("finished", {}).get("by"),) if n)
    for entry in record.get("tables", []):
        for item in entry.get("versions", []):
            names.update(n for n in (item.get("saved_by"),) if n)
            names.update(n for n in (item.get("confirmation", {}).get("by"),) if n)
        names.update(link["created_by"] for link in entry.get("links", []) if "created_by" in link)
    user_model = get_user_model()
    field_name = user_model.USERNAME_FIELD
    in_club = (
        Q(club_roles__club=club)
        | Q(directed_tournaments__club=club)
        | Q(scored_tournaments__club=club)
    )
    found = user_model.objects.filter(**{f"{field_name}__in": names})
    if Club.objects.exclude(pk=club.pk).exists():
        found = found.filter(in_club).distinct()
    return {user.get_username(): user for user in found}


def _tokens_in_use(record: dict[str, Any]) -> dict[str, TournamentModel]:
    tokens = [link["token"] for t in record.get("tables", []) for link in t.get("links", [])]
    taken = TableLink.objects.filter(token__in=tokens).select_related("table__round__tournament")
    return {link.token: link.table.round.tournament for link in taken}


def _tables_with_seats(
    tournament: TournamentModel,
) -> list[tuple[int, int, int, int, int | None]]:
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .annotate(n_seats=Count("seats"))
        .values_list("pk", "round__number", "number", "n_seats", "first_dealer_seat")
    )
    return list(rows)
