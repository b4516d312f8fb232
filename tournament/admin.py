"""The Django admin: a look at everything, edits only where no rule of the game is at stake.

Score sheets (their versions, confirmations), seating (rounds, tables, seats) and
table links change only through the site's pages and their services, which check the rules and
keep the sheet's version history; here they are read-only and offer no "Add". Tournaments and
players may be corrected here.
"""

from collections.abc import Sequence

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournament.models import (
    Club,
    ClubAddressChange,
    ClubRole,
    Competition,
    CompetitionEvening,
    Member,
    Player,
    Round,
    Seat,
    SheetConfirmation,
    SheetVersion,
    Table,
    TableLink,
    Tournament,
)

admin.site.site_header = _("Bollen tournament: administration")
admin.site.site_title = _("Bollen tournament")
admin.site.index_title = _("Administration")


class ReadOnly:
    """Shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class PlayerInline(admin.TabularInline[Player, Tournament]):
    model = Player
    extra = 0
    fields = ("file_id", "name", "club", "joined_round", "withdrawn_round")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ("name", "club", "date", "place", "rounds_planned", "public")
    list_filter = ("club", "public", "date", "language")
    search_fields = ("name", "place", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors", "scorers")
    inlines = [PlayerInline]

    def get_deleted_objects(
        self, objs: Sequence[Tournament] | QuerySet[Tournament], request: HttpRequest
    ) -> tuple[list[str], dict[str, int], set[str], list[str]]:
        """A whole tournament may be deleted here (to restore a backup under its short name),
        its sheets, seating and links with it, although none of those can be deleted one by
        one: deleting everything breaks no rule of the game."""
        deleted, model_count, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, model_count, set(), protected


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("name", "club", "tournament", "file_id", "joined_round", "withdrawn_round")
    list_filter = ("tournament", "withdrawn_round")
    search_fields = ("name", "club", "file_id")
    list_select_related = ("tournament",)


class TableInline(ReadOnly, admin.TabularInline[Table, Round]):
    model = Table
    extra = 0


@admin.register(Round)
class RoundAdmin(ReadOnly, admin.ModelAdmin[Round]):
    list_display = ("tournament", "number", "published", "state")
    list_filter = ("published", "tournament")
    list_select_related = ("tournament",)
    inlines = [TableInline]


class SeatInline(ReadOnly, admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    raw_id_fields = ("player",)
    fields = ("position", "player", "round")


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin[Table]):
    list_display = ("__str__", "round", "number")
    list_filter = ("round__tournament", "round__number")
    list_select_related = ("round__tournament",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin[Seat]):
    list_display = ("player", "table", "position", "round")
    list_filter = ("round__tournament", "round__number")
    search_fields = ("player__name",)
    list_select_related = ("player", "table__round__tournament", "round")
    raw_id_fields = ("player", "table", "round")


@admin.register(SheetVersion)
class SheetVersionAdmin(ReadOnly, admin.ModelAdmin[SheetVersion]):
    """Versions are the record of what was saved, so nobody edits them."""

    list_display = ("table", "number", "base_number", "via", "user", "ip", "created_at")
    list_filter = ("via", "table__round__tournament")
    list_select_related = ("table__round__tournament", "user")
    raw_id_fields = ("table", "restored_from", "user")


@admin.register(TableLink)
class TableLinkAdmin(ReadOnly, admin.ModelAdmin[TableLink]):
    """Links are made, replaced and revoked on the round page; here they are only looked at."""

    list_display = ("table", "created_at", "created_by", "revoked_at")
    list_filter = ("table__round__tournament",)
    list_select_related = ("table__round__tournament", "created_by")
    raw_id_fields = ("table", "created_by")
    exclude = ("token",)


@admin.register(SheetConfirmation)
class SheetConfirmationAdmin(ReadOnly, admin.ModelAdmin[SheetConfirmation]):
    """Read-only, like the versions they confirm."""

    list_display = ("version", "method", "user", "created_at")
    list_filter = ("method", "version__table__round__tournament")
    list_select_related = ("version__table__round__tournament", "user")
    raw_id_fields = ("version", "user")


# A club's season. Members are corrected here; merging two records goes through the site,
# which shows what moves and refuses two people of one evening.
@admin.register(Member)
class MemberAdmin(admin.ModelAdmin[Member]):
    list_display = ("name", "club", "number", "active", "register")
    list_filter = ("register", "active")
    search_fields = ("name", "club", "number")


class CompetitionEveningInline(admin.TabularInline[CompetitionEvening, Competition]):
    model = CompetitionEvening
    extra = 0
    raw_id_fields = ("tournament",)


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin[Competition]):
    list_display = ("name", "season", "club", "slug", "best", "min_evenings", "public")
    list_filter = ("club",)
    inlines = [CompetitionEveningInline]


class ClubRoleInline(admin.TabularInline[ClubRole, Club]):
    model = ClubRole
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    """Clubs and their people; whoever runs the installation (a superuser) may correct them
    here, the clubs' own admins do it on the club's page."""

    list_display = ("name", "slug", "site_url", "created_at")
    search_fields = ("name", "slug")
    inlines = [ClubRoleInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Club | None = None) -> tuple[str, ...]:
        # The slug is in the club's addresses: set once. The address for phones changes on
        # the club's own page, which records every change.
        return ("slug", "site_url") if obj is not None else ("site_url",)


@admin.register(ClubAddressChange)
class ClubAddressChangeAdmin(ReadOnly, admin.ModelAdmin[ClubAddressChange]):
    """The record of the address changes: looked at, never edited."""

    list_display = ("club", "changed_at", "changed_by_name", "old_url", "new_url", "confirmed_at")
    list_filter = ("club",)
