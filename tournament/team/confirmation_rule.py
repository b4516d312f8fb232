"""The tournament's confirmation rule as the team sees it: which rule is in force, why, and the
director's own choice of it.

The rule itself (whose look at a sheet counts) is ``scoring.confirmation``'s. "Automatic"
follows the team: re-typing while one person works alone, another person once a second one is
on the team. That switch happens without anyone choosing it, so every page that depends on it
(the team page, the confirm and re-type pages) says which rule is in force and why: who joined,
and when. A director who works alone after all chooses "re-typing confirms" outright, and from
then on the rule no longer follows the team.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring.confirmation import ConfirmationRule, rule_in_force
from tournament.errors import refuse_when_finished
from tournament.models import TeamInvitation, Tournament


@dataclass(frozen=True, slots=True)
class Joined:
    """The last of the team to join by an invitation: who, as what, when."""

    name: str
    role: str
    at: datetime.datetime


@dataclass(frozen=True, slots=True)
class RuleExplained:
    """The rule in force (never ``AUTO``), the one chosen, and why, in words.

    - ``chosen``: the tournament's setting; ``in_force``: what it means now.
    - ``members``: the usernames on the team (directors and scorers, active accounts).
    - ``joined``: with "automatic" and a team, the last one to join, when known.
    """

    chosen: ConfirmationRule
    in_force: ConfirmationRule
    members: tuple[str, ...]
    joined: Joined | None

    @property
    def automatic(self) -> bool:
        return self.chosen is ConfirmationRule.AUTO

    @property
    def title(self) -> str:
        """The rule in a few words: "Automatic: another person confirms"."""
        words = {
            ConfirmationRule.OTHER_PERSON: _("another person confirms"),
            ConfirmationRule.RETYPE: _("re-typing confirms"),
            ConfirmationRule.NONE: _("no confirmation"),
        }[self.in_force]
        if self.automatic:
            return _("Automatic: %(rule)s") % {"rule": words}
        return words[:1].upper() + words[1:]

    @property
    def reason(self) -> str:
        """Why this rule is in force, and what it asks."""
        if not self.automatic:
            return {
                ConfirmationRule.OTHER_PERSON: _(
                    "Chosen for this tournament: whoever saved a sheet never confirms it; "
                    "someone else on the team does."
                ),
                ConfirmationRule.RETYPE: _(
                    "Chosen for this tournament: anyone, also whoever saved the sheet, confirms "
                    "it by typing the paper form blind into an empty copy; someone else may "
                    "also look it over."
                ),
                ConfirmationRule.NONE: _(
                    "Chosen for this tournament: every sheet counts as final at once."
                ),
            }[self.in_force]
        if self.in_force is ConfirmationRule.RETYPE:
            return _(
                "You work alone: nobody else is on the team, so whoever saved a sheet confirms "
                "it by re-typing the paper form. As soon as someone joins the team, another "
                "person confirms instead."
            )
        if self.joined is not None:
            return _(
                "%(name)s joined the team as %(role)s on %(date)s: whoever saved a sheet no "
                "longer confirms it; someone else on the team does."
            ) % {
                "name": self.joined.name,
                "role": self.joined.role,
                "date": formats.date_format(
                    timezone.localtime(self.joined.at), "SHORT_DATETIME_FORMAT"
                ),
            }
        return _(
            "On the team: %(names)s. Whoever saved a sheet does not confirm it; someone else on "
            "the team does."
        ) % {"names": ", ".join(self.members)}

    @property
    def own_sheets_need_someone_else(self) -> bool:
        """Whether whoever saved a sheet cannot confirm it at all (another person must)."""
        return self.in_force is ConfirmationRule.OTHER_PERSON


def _members(tournament: Tournament) -> list[tuple[int, str]]:
    """The team (active accounts among its directors and scorers; a superuser who is not
    listed is not on it) as (id, username), by username."""
    return list(
        get_user_model()
        .objects.filter(is_active=True)
        .filter(Q(directed_tournaments=tournament) | Q(scored_tournaments=tournament))
        .distinct()
        .order_by("username")
        .values_list("pk", "username")
    )


def team_size(tournament: Tournament) -> int:
    """How many people are on the tournament's team: its directors and scorers."""
    return len(_members(tournament))


def confirmation_rule_explained(tournament: Tournament) -> RuleExplained:
    """The tournament's confirmation rule in force, the one chosen, and why."""
    chosen = ConfirmationRule(tournament.confirmation_rule)
    members = _members(tournament)
    in_force = rule_in_force(chosen, len(members))
    joined = None
    if chosen is ConfirmationRule.AUTO and in_force is ConfirmationRule.OTHER_PERSON:
        invitation = (
            TeamInvitation.objects.filter(
                tournament=tournament,
                used_at__isnull=False,
                used_by__in=[pk for pk, _name in members],
            )
            .select_related("used_by")
            .order_by("-used_at")
            .first()
        )
        if invitation is not None and invitation.used_by is not None:
            assert invitation.used_at is not None  # filtered on above
            joined = Joined(
                name=invitation.used_by.get_username(),
                role=str(invitation.get_role_display()),
                at=invitation.used_at,
            )
    return RuleExplained(
        chosen=chosen,
        in_force=in_force,
        members=tuple(name for _pk, name in members),
        joined=joined,
    )


def confirmation_rule_set(*, tournament: Tournament, rule: str) -> Tournament:
    """Choose how the tournament's sheets are confirmed. Refused (``Refused``) once the
    tournament is finished: its final standings stay counted as they were."""
    rule = ConfirmationRule(rule)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.confirmation_rule != rule:
            refuse_when_finished(locked)
            locked.confirmation_rule = rule
            locked.save(update_fields=["confirmation_rule"])
    tournament.confirmation_rule = rule
    return tournament
