"""The private link of each table: made, re-issued and revoked by the director, and saving
the table's sheet for whoever holds it.

A link opens one table's sheet in one round and nothing else. Its token is 256 random bits,
so it cannot be guessed; the director can revoke it (a lost sheet, a leaked photo) and issue a
new one. Saves through a link go through ``sheet_record`` like the director's, with
``via=table link``; on top of that a link may not change a sheet a director has confirmed, and a
link revoked while a phone was still typing saves nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace

from django.contrib.auth.models import User
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.errors import Refused
from tournament.models import Round, SheetVersion, Table, TableLink
from tournament.permissions import AnyUser
from tournament.sheets.confirmations import sheet_is_confirmed
from tournament.sheets.locks import sheet_locked
from tournament.sheets.services import sheet_record_locked
from tournament.sheets.submission import SheetSaved, SheetSubmission

TOKEN_BYTES = 32  # 256 bits; the issue asks for at least 128


class LinkRefusal(models.TextChoices):
    """Why a save through a link was refused, and what the phone says."""

    REVOKED = (
        "link_revoked",
        _(
            "Not saved: this link no longer works. Your input is kept on this device; ask the "
            "tournament director for the table's new link."
        ),
    )
    CONFIRMED = (
        "sheet_confirmed",
        _(
            "Not saved: the tournament director has confirmed this sheet. Ask the director for any "
            "correction."
        ),
    )

    ROUND_DRAFT = (
        "round_draft",
        _(
            "Not saved: this round is not published yet, so its seating may still change. "
            "Your input is kept on this device; reload the page once the tournament director "
            "has published the round."
        ),
    )

    ROUND_CLOSED = (
        "round_closed",
        _(
            "Not saved: this round is over and the next round is seated, so this sheet can no "
            "longer be changed here. Ask the tournament director for any correction."
        ),
    )

    TOURNAMENT_FINISHED = (
        "tournament_finished",
        _(
            "Not saved: the tournament is finished, so this sheet can no longer be changed. Ask "
            "the tournament director for any correction."
        ),
    )

    CLOSED_BY_DIRECTOR = (
        "round_closed_by_director",
        _(
            "Not saved: the tournament director has closed this round, so this sheet can no "
            "longer be changed here. Ask the tournament director for any correction."
        ),
    )


def table_link_closed_reason(table: Table) -> LinkRefusal | None:
    """Why the link's round does not save through a link: not yet (the round is a draft, not
    published), or no longer (the director closed it, or it is over: complete, and a later
    round has been seated, or the tournament is finished); ``None`` while it is open."""
    if table.round.tournament.finished_at is not None:
        return LinkRefusal.TOURNAMENT_FINISHED
    if not table.round.published:
        return LinkRefusal.ROUND_DRAFT
    if table.round.closed_at is not None:
        return LinkRefusal.CLOSED_BY_DIRECTOR
    return LinkRefusal.ROUND_CLOSED if _round_over(table) else None


def _round_over(table: Table) -> bool:
    round = table.round
    return (
        round.state == Round.State.COMPLETE
        and Round.objects.filter(tournament_id=round.tournament_id, number__gt=round.number)
        .filter(published=True)
        .exists()
    )


def _new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def table_link_active(table: Table) -> TableLink | None:
    return TableLink.objects.filter(table=table, revoked_at__isnull=True).first()


def table_link_by_token(token: str) -> TableLink | None:
    """The link a token opens, with its table, round and tournament; ``None`` when the token is
    unknown or revoked."""
    longest = TableLink._meta.get_field("token").max_length  # a CharField's: always set
    if not token or (longest is not None and len(token) > longest):
        return None
    return (
        TableLink.objects.select_related("table__round__tournament")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )


def table_link_ensure(*, table: Table, by_user: AnyUser | None = None) -> TableLink:
    """The table's link, made now if it has none (printing the sheets asks for it)."""
    link = table_link_active(table)
    if link is not None:
        return link
    try:
        with transaction.atomic():
            return TableLink.objects.create(
                table=table, token=_new_token(), created_by=_account(by_user)
            )
    except IntegrityError:
        # Someone else made the table's link at the same moment: use theirs.
        return TableLink.objects.get(table=table, revoked_at__isnull=True)


def table_links_ensure(
    *, table_ids: Sequence[int], by_user: AnyUser | None = None
) -> dict[int, TableLink]:
    """The links of many tables, by table id, made now for those that have none: one query
    when every table has its link, three when some are made (printing a round's sheets)."""
    links = {
        link.table_id: link
        for link in TableLink.objects.filter(table_id__in=table_ids, revoked_at__isnull=True)
    }
    missing = [table_id for table_id in table_ids if table_id not in links]
    if missing:
        # A table whose link someone else made at the same moment keeps theirs.
        TableLink.objects.bulk_create(
            [
                TableLink(table_id=table_id, token=_new_token(), created_by=_account(by_user))
                for table_id in missing
            ],
            ignore_conflicts=True,
        )
        links.update(
            (link.table_id, link)
            for link in TableLink.objects.filter(table_id__in=missing, revoked_at__isnull=True)
        )
    return links


def table_link_issue(*, table: Table, by_user: AnyUser | None = None) -> TableLink:
    """Revoke the table's link (if any) and make a new one."""
    with sheet_locked(table):  # one issue at a time per table, and never within a save
        TableLink.objects.filter(table=table, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        return TableLink.objects.create(
            table=table, token=_new_token(), created_by=_account(by_user)
        )


def table_link_revoke(*, table: Table) -> bool:
    """Revoke the table's link; whether there was one to revoke. Under the table's lock, so a
    save through the link is either wholly before the revocation or refused."""
    with sheet_locked(table):
        revoked = TableLink.objects.filter(table=table, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    return revoked > 0


def table_link_sheet_record(*, link: TableLink, submission: SheetSubmission) -> SheetSaved:
    """Save the sheet of the link's table through the link.

    Raises :class:`Refused` when the link was revoked or a director has confirmed the
    sheet as it stands (a submission sent before either, retried with its key, still gets its
    first answer); otherwise as ``sheet_record``.
    """
    submission = replace(submission, via=SheetVersion.Via.TABLE_LINK)
    key = submission.key
    # The save's lock, taken first, so that a confirmation or a revocation cannot slip in
    # between these checks and the save.
    with sheet_locked(Table(pk=link.table_id)) as table:
        refusal = None
        if not TableLink.objects.filter(pk=link.pk, revoked_at__isnull=True).exists():
            refusal = LinkRefusal.REVOKED
        elif sheet_is_confirmed(table):
            refusal = LinkRefusal.CONFIRMED
        else:
            refusal = table_link_closed_reason(table)
        if refusal is not None and not (
            key is not None
            and SheetVersion.objects.filter(table=table, idempotency_key=key).exists()
        ):
            raise Refused.because(refusal)
        return sheet_record_locked(table=table, submission=submission)


def _account(user: AnyUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None
