"""The tournament's data: who plays, where they sit each round, and what each table wrote down.

Points, bollen and standings are computed from the score sheets by ``scoring/`` through
``tournament.adapter``; ``SheetScore`` keeps each sheet's scores as computed from its current
version, a cache that is checked against the version before it is used. One app, one migration
history; the models sit in modules by what they hold and are all importable from here.
"""

from tournament.models.clubs import Club, ClubAddressChange, ClubLogEntry, ClubRole
from tournament.models.photos import SheetPhoto
from tournament.models.rounds import SEATING_EDITABLE_STATES, Round, Seat, Table
from tournament.models.season import (
    Competition,
    CompetitionEvening,
    EveningRemoval,
    Member,
    MemberQuestion,
)
from tournament.models.sheets import (
    SheetConfirmation,
    SheetDraft,
    SheetScore,
    SheetVersion,
    TableLink,
    tournaments_unconfirmed_table_ids,
    unconfirmed_table_ids,
)
from tournament.models.team import TeamInvitation
from tournament.models.tournaments import (
    MAX_HAND,
    ApartPair,
    Player,
    Tournament,
    TournamentFinish,
    default_table_sizes,
    default_tiebreaks,
)
from tournament.models.uploads import CostlyWork

__all__ = [
    "MAX_HAND",
    "SEATING_EDITABLE_STATES",
    "ApartPair",
    "Club",
    "ClubAddressChange",
    "ClubLogEntry",
    "ClubRole",
    "Competition",
    "CompetitionEvening",
    "CostlyWork",
    "EveningRemoval",
    "Member",
    "MemberQuestion",
    "Player",
    "Round",
    "Seat",
    "SheetConfirmation",
    "SheetDraft",
    "SheetPhoto",
    "SheetScore",
    "SheetVersion",
    "Table",
    "TableLink",
    "TeamInvitation",
    "Tournament",
    "TournamentFinish",
    "default_table_sizes",
    "default_tiebreaks",
    "tournaments_unconfirmed_table_ids",
    "unconfirmed_table_ids",
]
