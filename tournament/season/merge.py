"""Merging two members of the register who are one person typed two ways: what a merge
moves and what forbids it (both played one evening), taking a never-seated player off an
evening to allow it, and the merge itself."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models, transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournament.errors import PlacedProblem, Refused
from tournament.models import Member, MemberQuestion, Player, Seat, Tournament
from tournament.season.services import SeasonRefusal


@dataclass(frozen=True, slots=True)
class MergePreview:
    """What merging ``drop`` into ``keep`` moves: ``players`` (the evenings' players that
    become ``keep``'s), and ``clashes``: the tournaments both played, which forbid it."""

    keep: Member
    drop: Member
    players: list[Player]
    clashes: list[Tournament]

    @property
    def allowed(self) -> bool:
        return not self.clashes and self.keep.pk != self.drop.pk

    def clash_players(self) -> list[tuple[str, list[Player]]]:
        """Per evening both played: how to fix it and the two players, whether seated."""
        ids = [t.pk for t in self.clashes]
        both = (
            Player.objects.filter(tournament_id__in=ids, member__in=[self.keep, self.drop])
            .annotate(seated=models.Exists(Seat.objects.filter(player=models.OuterRef("pk"))))
            .order_by("pk")
        )
        by_tournament: dict[int, list[Player]] = {}
        for player in both:
            by_tournament.setdefault(player.tournament_id, []).append(player)
        return [(merge_clash_advice(t), by_tournament.get(t.pk, [])) for t in self.clashes]


def member_merge_preview(*, keep: Member, drop: Member) -> MergePreview:
    players = list(Player.objects.filter(member=drop).select_related("tournament"))
    kept_tournaments = set(
        Player.objects.filter(member=keep).values_list("tournament_id", flat=True)
    )
    clashes = [p.tournament for p in players if p.tournament_id in kept_tournaments]
    return MergePreview(keep=keep, drop=drop, players=players, clashes=clashes)


def evening_label(tournament: Tournament) -> str:
    """ "evening 3 of Clubcompetitie (12-09-2026)": the evening as the secretary knows it."""
    evening = tournament.competition_evenings.select_related("competition").first()
    name = tournament.name
    if tournament.date is not None:
        name = f"{name}, {date_format(tournament.date, 'SHORT_DATE_FORMAT')}"
    if evening is None:
        return name
    return _("evening %(number)s of %(competition)s (%(name)s)") % {
        "number": evening.number,
        "competition": evening.competition,
        "name": name,
    }


def merge_clash_advice(tournament: Tournament) -> str:
    """Why a merge is refused for ``tournament`` and how to make it possible."""
    return _(
        "Both members are players of %(evening)s, so they count as two people there. If they "
        "are one person, checked in twice: remove the one who was never seated from that "
        "evening's players (below), then merge."
    ) % {"evening": evening_label(tournament)}


@transaction.atomic
def evening_player_remove(*, player: Player) -> None:
    """Take a player off an evening who never sat at a table (checked in twice by mistake),
    so that the two records of one person can be merged."""
    if player.seats.exists():
        raise Refused.because(SeasonRefusal.PLAYER_SEATED, field=player.name)
    player.delete()


@transaction.atomic
def member_merge(*, keep: Member, drop: Member) -> Member:
    """One person typed two ways: ``drop``'s players become ``keep``'s and ``drop`` leaves the
    register (keeping a member number only ``drop`` had). Refused when both played one
    evening, since one person sits at one table."""
    if keep.pk == drop.pk:
        raise Refused.because(SeasonRefusal.MERGE_SELF)
    preview = member_merge_preview(keep=keep, drop=drop)
    if preview.clashes:
        raise Refused(
            [
                PlacedProblem(
                    code=SeasonRefusal.MERGE_SAME_EVENING,
                    message=merge_clash_advice(tournament),
                    field=tournament.name,
                )
                for tournament in preview.clashes
            ]
        )
    Player.objects.filter(member=drop).update(member=keep)
    asked = set(MemberQuestion.objects.filter(member=keep).values_list("player_id", flat=True))
    MemberQuestion.objects.filter(member=drop, player_id__in=asked).delete()
    MemberQuestion.objects.filter(member=drop).update(member=keep)
    number = drop.number
    drop.delete()
    if number and not keep.number:
        keep.number = number
    keep.active = keep.active or drop.active
    keep.save()
    return keep
