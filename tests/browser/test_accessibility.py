"""Every page of the site passes axe-core (WCAG 2.2 A and AA, target sizes among them) with no
serious or critical violation, on a laptop and on the narrowest phone (360 px), where nothing
may widen the page: every page and state once at each of its widths (in Dutch), and each layout
once more in English. And the W3C's Nu HTML checker finds no error in any of them, as the
browser received it (tests/browser/w3c.py: started once for the whole sweep).

axe-core comes from npm (package.json, installed into node_modules/ by scripts/npm-tools.sh,
which scripts/test.sh and scripts/bootstrap.sh test run). The site's Content Security Policy
refuses inline scripts, so the checker is not added as a <script> tag: its source is evaluated
through the browser's debugging protocol (``page.evaluate``), which the policy does not govern,
and the page itself stays exactly as a visitor gets it.

Every case opens one tournament: two rounds played (the second with a sheet half entered),
public pages on, a table link and a team invitation issued; and for the rounds pages a third
round seated as a draft, with its adjust form. The pages that hand out links are checked once
more with the warning that phones cannot open the address (``_warned``), and the forms with
their mistakes told (the cases ``…_refused``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from scoring.deals import bidding_order, deal_spec
from tests.browser import w3c
from tests.factories import played_tournament
from tests.sheet_photos.fake_reader import photo_waiting
from tournament.adapter import table_sheet
from tournament.clubs.services import club_sole
from tournament.models import (
    Club,
    ClubRole,
    CompetitionEvening,
    Member,
    Player,
    Table,
    TableLink,
    TeamInvitation,
    Tournament,
)
from tournament.rounds.seating import round_seat
from tournament.rounds.services import round_close
from tournament.season.evenings import evening_remove
from tournament.season.services import CompetitionSettings, competition_create
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue, table_link_sheet_record
from tournament.team.services import team_invitation_create
from tournament.tournaments.finish import tournament_finish
from tournament.venue.site_address import site_address_check_token, site_address_set

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# wcag22aa: among its rules target-size (2.5.8, a control at least 24 by 24 px, or that far from
# the next one), which matters most on a phone.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# axe's best practices as well: among them "tabindex" (no positive tabindex: the issue asks for
# the bidding order from the document order), landmarks and the order of headings. Of these,
# too, a serious or critical finding fails the page.
EXTRA_TAGS = ["best-practice"]
BLOCKING = {"serious", "critical"}

# WCAG 1.4.10 (reflow), which axe cannot see: on a phone nothing widens the page so that it
# scrolls sideways; a wide table scrolls inside its own box (.scroll, .sheet-scroll) instead.
OVERFLOW = """(width) => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > width + 1)
  .filter((e) => !e.parentElement.closest(".scroll, .sheet-scroll"))
  .slice(0, 8)
  .map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "")
    + " reaches " + Math.round(e.getBoundingClientRect().right) + " px")"""

# The pages whose tables fit a phone as they are, not even scrolling in their own box (the
# season card drops the tournament's name there, the member page's preview wraps its names).
FITS_A_PHONE = {"season_card", "season_guest_preview"}
BOX_SCROLLS = """() => [...document.querySelectorAll(".scroll")]
  .filter((e) => e.scrollWidth > e.clientWidth + 1)
  .map((e) => (e.getAttribute("aria-label") || e.id || "a table's box") + " scrolls: "
    + e.scrollWidth + " px in " + e.clientWidth + " px")"""

# What axe leaves "incomplete" on the phone sheet (text over buttons it cannot see through),
# measured from the computed colours: every piece of text in #phone-sheet against the first
# opaque background behind it, WCAG AA (4.5:1, 3:1 for large text). Disabled buttons (the
# dealer's forbidden bid) are exempt, as WCAG exempts inactive controls.
PHONE_CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (e) => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] === 1) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const e of document.querySelectorAll("#phone-sheet *")) {
    const text = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!text || !e.getClientRects().length || e.closest(":disabled")) continue;
    const style = getComputedStyle(e);
    if (style.visibility === "hidden" || e.closest(".visually-hidden")) continue;
    const [a, b] = [lum(rgb(style.color)), lum(background(e))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) low.push(e.tagName.toLowerCase() + "." + [...e.classList].join(".")
      + " '" + e.textContent.trim().slice(0, 20) + "' " + ratio.toFixed(2) + " < " + need);
  }
  return low.slice(0, 12);
}"""

SIZES = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
    "small": {"width": 360, "height": 740},  # the narrowest phone: every page fits it
    "projector": {"width": 1920, "height": 1080},
}
PHONES = ("phone", "small")
# Every page on a laptop and on the narrowest phone; the phone's score sheet at 390 px too.
BOTH = ("desktop", "small")


# The cases whose page shows a draft round (seating one takes the engine a second).
SEATS_A_DRAFT = {"rounds", "round_draft"}


@dataclass
class Site:
    """What the cases open: the tournament and the secrets of the links they visit."""

    slug: str
    player: int
    table_token: str
    invitation_token: str
    director_session: str
    outsider_session: str
    # What a case prepared for itself (Case.prepare): the secrets and keys its address reads.
    extra: dict = field(default_factory=dict)


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest.fixture
def site(request, django_user_model) -> Site:
    users = django_user_model.objects
    director = users.create_user(username="leiding", password="kaart-en-bol-2026", is_staff=True)
    ClubRole.objects.create(club=club_sole(), user=director, role=ClubRole.Role.ADMIN)
    outsider = users.create_user(username="buiten", password="kaart-en-bol-2026")
    tournament = played_tournament(8, 2, last_round=[11, 3], director=director, public=True)
    name = request.node.callspec.params["name"]
    if name in SEATS_A_DRAFT:
        round_seat(tournament=tournament)  # round 3, a draft, with its adjust form
    table = tournament.rounds.get(number=2).tables.get(number=2)
    prepare = PAGES[name].prepare
    return Site(
        slug=tournament.slug,
        player=Player.objects.filter(tournament=tournament).order_by("pk").first().pk,
        table_token=table_link_issue(table=table, by_user=director).token,
        invitation_token=team_invitation_create(
            tournament=tournament, role=TeamInvitation.Role.SCORER, by_user=director
        ).token,
        director_session=_session(director),
        outsider_session=_session(outsider),
        extra=prepare(tournament, director) if prepare else {},
    )


def _t(name: str, *args) -> Callable[[Site], str]:
    """A director's page of the tournament: its URL name and the arguments after the slug."""
    return lambda site: reverse(name, args=[site.slug, *args])


def _u(name: str, secret: str | None = None) -> Callable[[Site], str]:
    """A page outside the tournament, with one of the site's secrets as its argument."""
    return lambda site: reverse(name, args=[getattr(site, secret)] if secret else [])


def _x(name: str, *keys: str, query: str = "") -> Callable[[Site], str]:
    """A page whose arguments a case prepared (``Site.extra``), with an optional query."""
    return lambda site: (
        reverse(name, args=[site.extra[k] for k in keys]) + query.format(**site.extra)
    )


def _in_the_browser(address: Callable[[Site], str]) -> Callable[[Site], str]:
    """A printout's page (``?format=html``) instead of its PDF."""
    return lambda site: address(site) + "?format=html"


def _drawn_table(tournament, director) -> dict:
    """A tournament whose tables draw the first dealer; table 1 has not drawn yet."""
    drawn = played_tournament(8, 1, seed=5, last_round=[0, 0], director=director)
    Tournament.objects.filter(pk=drawn.pk).update(
        first_dealer_rule=Tournament.FirstDealerRule.DRAWN
    )
    table = Table.objects.get(round__tournament=drawn, number=1)
    return {"token": table_link_issue(table=table, by_user=director).token}


def _finished(tournament, director) -> dict:
    """A public tournament played through its two planned rounds and finished, the last
    place named: its final pages."""
    finished = played_tournament(9, 2, seed=7, director=director, public=True)
    Tournament.objects.filter(pk=finished.pk).update(rounds_planned=2, prize_last_place=True)
    tournament_finish(tournament=Tournament.objects.get(pk=finished.pk), by_user=director)
    return {"finished": finished.slug}


def _photo_waiting(tournament, director) -> dict:
    """A photo of round 2, table 2's sheet (the table link's) waiting to be checked, two
    boxes pointed out."""
    table = tournament.rounds.get(number=2).tables.get(number=2)
    photo_waiting(table, uncertain=[(4, 1, "bid"), (6, 0, "tricks")], by=director)
    return {}


def _closed_round(tournament, director) -> dict:
    round_close(round_=tournament.rounds.get(number=1))
    return {}


def _season(tournament, director) -> dict:
    """A public competition of two evenings; the second has a near match to answer
    ("K. Lid" may be the member Karel Lid)."""
    Member.objects.create(register=club_sole(), name="Karel Lid")
    names = ["Lid A", "Lid B", "Lid C", "Lid D", "Lid E"]
    competition = competition_create(
        club=club_sole(),
        settings=CompetitionSettings(name="Clubkampioenschap", season="2026", public=True),
        tournaments=[
            played_tournament(5, 2, seed=11, names=names, director=director),
            played_tournament(4, 2, seed=12, names=["K. Lid", *names[:3]], director=director),
        ],
    )
    keep, drop = Member.objects.filter(name__in=["Lid A", "Karel Lid"]).order_by("name")
    Member.objects.filter(name="Lid E").update(guest=True)  # a guest played the first evening
    guest = Member.objects.get(name="Lid E")
    evening = competition.evenings.order_by("number").first()
    return {
        "competition": competition.slug,
        "member": keep.pk,
        "other": drop.pk,
        "guest": guest.pk,
        "evening": evening.pk,
    }


def _evening_taken_out(tournament, director) -> dict:
    """The season, its first evening taken out (to be put back)."""
    extra = _season(tournament, director)
    evening = CompetitionEvening.objects.get(pk=extra["evening"])
    return {**extra, "removal": evening_remove(evening=evening, by=director).pk}


def _address_changed(tournament, director) -> dict:
    """The club's admin set the address for phones; no phone has opened it yet."""
    changed = site_address_set(
        club=tournament.club, url="http://192.168.1.20:8000", by_user=director
    )
    return {"check": site_address_check_token(changed)}


def _warned(prepare: Callable | None = None) -> Callable:
    """``prepare`` (if any), then the club's admin sets the laptop's name for itself as the
    address for phones: every page that hands out links warns that phones cannot open it, and
    that no phone has tested it yet."""

    def warned(tournament, director) -> dict:
        extra = prepare(tournament, director) if prepare else {}
        site_address_set(club=tournament.club, url="http://localhost:8000", by_user=director)
        return extra

    return warned


def _warning_shown(page, site: Site) -> None:
    expect(page.locator("#site-address-warning")).to_be_visible()
    expect(page.locator("#site-address-untested")).to_be_visible()


def _two_clubs(tournament, director) -> dict:
    """A site of two clubs, the tournament's with public pages (the front page lists it)."""
    Club.objects.filter(pk=tournament.club_id).update(name="BC De Klaverbol")
    Club.objects.create(name="De Buren", slug="buren")
    return {"club": tournament.club.slug}


def _club_invitation_made(page, site: Site) -> None:
    page.locator('form[action$="/club/invite/"] button').click()
    page.locator("#invitation-url").wait_for()


def _refused_sign_in(page, site: Site) -> None:
    page.locator("#id_username").fill("leiding")
    page.locator("#id_password").fill("not-the-password")
    page.locator("form.form button.primary").click()
    page.locator(".errorlist").first.wait_for()


def _new_names_typed(page, site: Site) -> None:
    """Two new names at check-in: one near a member (asked about), one new (member or guest?)."""
    page.locator("textarea").fill("K. Lid\nNieuwe Speler\n")
    page.locator("form.check-in button.primary").click()
    page.locator("#kind-questions").wait_for()


def _pasted_players(page, site: Site) -> None:
    page.locator("form.form textarea").fill("Anna de Vries\nBram Jansen\nAnna de Vries\n")
    page.locator("form.form button.primary").click()
    page.locator("table.preview").wait_for()


def _uploaded_messy_list(page, site: Site) -> None:
    """A CSV with a title row, a number column and a total under the list: the header row and
    columns taken, the choice of others, the left-out line and the tick boxes."""
    rows = ["Aanmeldingen kerstdrive;;", "Nr.;Naam;Club", "1;Anna de Vries;De Troef"]
    rows += ["2;Bram Jansen;", ";;", "Totaal: 2 aanmeldingen;;"]
    page.locator('input[type="file"]').set_input_files(
        {"name": "aanmeldingen.csv", "mimeType": "text/csv", "buffer": "\n".join(rows).encode()}
    )
    page.locator("form.form button.primary").click()
    page.locator("#notes-left-out").wait_for()


def _empty_tournament_form(page, site: Site) -> None:
    page.locator("form.form button.primary").click()
    page.locator(".errorlist").first.wait_for()


def _settings_refused(page, site: Site) -> None:
    """The settings sent without a name and without a table size: the summary at the top,
    each mistake at its field (the second at its group of boxes)."""
    page.locator("#id_name").fill("")
    for box in page.locator('input[name="table_sizes"]').all():
        box.uncheck()
    page.locator("form.form button.primary").click()
    page.locator("#error-summary").wait_for()


def _address_refused(page, site: Site) -> None:
    page.locator("#id_site_url").fill("telefoon")
    page.locator("#id_site_url").press("Enter")
    page.locator(".errorlist").first.wait_for()


def _file_refused(page, site: Site) -> None:
    """A file that is no tournament file: nothing imported, every problem listed."""
    page.locator('form.form input[type="file"]').set_input_files(
        {"name": "toernooi.json", "mimeType": "application/json", "buffer": b'{"not": "this"}'}
    )
    page.locator("form.form button.primary").click()
    page.locator("#import-problems").wait_for()


def _invitation_made(page, site: Site) -> None:
    page.locator('form[action$="/team/invite/"] button').click()
    page.locator("#invitation-url").wait_for()


def _phone_tap(page, deal: int, seat: int, kind: str, value: int):
    return page.locator(
        f'#phone-sheet button.phone-tap[data-deal="{deal}"][data-seat="{seat}"]'
        f'[data-kind="{kind}"][data-value="{value}"]'
    )


def _held_deal(page, site: Site) -> None:
    """Deal 4 tapped in with tricks that do not add up: held at the deal with its message."""
    n = site.extra["seats"]
    order = bidding_order(4, n)
    for seat in order[:-1]:
        _phone_tap(page, 4, seat, "bid", 0).tap()
    _phone_tap(page, 4, order[-1], "bid", 1 if deal_spec(4).hand_size == 0 else 0).tap()
    for seat in order:
        _phone_tap(page, 4, seat, "tricks", 0).tap()
    page.locator("#phone-sheet .phone-deal-msg .phone-error").first.wait_for()
    jump = page.locator('#phone-sheet button.phone-jump[data-deal="4"]')
    expect(jump).to_have_attribute("data-state", "problem")
    # The taps are saved a moment later and the answer redraws the page: checked once it is in.
    expect(page.locator("#sync")).to_have_attribute("data-state", "held")


def _clash(page, site: Site) -> None:
    """Another device stores a bid in deal 4 after this phone opened the sheet; the phone then
    taps another bid in the same box: the conflict view asks which one counts."""
    table = Table.objects.get(pk=site.extra["table"])
    link = TableLink.objects.get(token=site.table_token)
    sheet = table_sheet(table).sheet
    cells = {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(sheet.deals, start=1)
        for seat in range(sheet.n_seats)
    }
    seat = bidding_order(4, sheet.n_seats)[0]
    cells[4, seat] = (1, None)
    version = int(page.locator("#sheet-form input[name=base_version]").input_value())
    table_link_sheet_record(
        link=link, submission=SheetSubmission(base_version=version, cells=cells)
    )
    _phone_tap(page, 4, seat, "bid", 0).tap()
    expect(page.locator("#sync")).to_have_attribute("data-state", "conflict")
    page.locator("#conflict tr[data-conflict]").first.wait_for()


def _table_of_the_link(tournament, director) -> dict:
    table = tournament.rounds.get(number=2).tables.get(number=2)
    return {"table": table.pk, "seats": table.seats.count()}


@dataclass(frozen=True)
class Case:
    """One page: who opens it, its address, the status it answers with, what is done on it
    before the check (a form sent with mistakes, say), the language it must be in (the
    projector speaks the tournament's language, not the visitor's), the screen sizes it is
    checked at, and what it sets up besides the shared tournament."""

    who: str
    address: Callable[[Site], str]
    status: int = 200
    then: Callable | None = None
    language: str | None = None
    sizes: tuple[str, ...] = BOTH
    prepare: Callable | None = None  # (tournament, director) -> Site.extra, before the visit
    # Its step stores something a second visit would meet (held input, a version): each size
    # gets a tournament of its own.
    fresh_per_size: bool = False


PAGES: dict[str, Case] = {
    "front": Case("director", _u("tournament_list")),
    "sign_in": Case("anonymous", _u("login")),
    "sign_in_refused": Case("anonymous", _u("login"), then=_refused_sign_in),
    "password_change": Case("director", _u("password_change")),
    "site_address": Case("director", _u("site_address_edit")),
    "site_address_changed": Case("director", _u("site_address_edit"), prepare=_address_changed),
    "site_address_refused": Case(
        "director", _u("site_address_edit"), then=_address_refused, prepare=_warned()
    ),
    # The test code's page, opened on the phone (here not by the new address: "not yet").
    "site_address_check": Case(
        "anonymous", _x("site_address_check", "check"), prepare=_address_changed
    ),
    "club": Case("director", _u("club_page")),
    "club_invited": Case("director", _u("club_page"), then=_club_invitation_made),
    "club_warned": Case("director", _u("club_page"), then=_warning_shown, prepare=_warned()),
    "club_front_many": Case("anonymous", _u("tournament_list"), prepare=_two_clubs),
    "club_privacy": Case("director", _u("club_privacy")),
    "club_log": Case("director", _u("club_log")),
    "club_delete": Case("director", _u("club_delete")),
    "club_restore": Case("director", _u("club_backup_restore")),
    "club_privacy_public": Case("anonymous", _x("club_privacy_public", "club"), prepare=_two_clubs),
    "account_email": Case("director", _u("account_email")),
    "password_reset": Case("anonymous", _u("password_reset")),
    "password_reset_done": Case("anonymous", _u("password_reset_done")),
    "club_public": Case("anonymous", _x("club_public", "club"), prepare=_two_clubs),
    "tournament_create": Case("director", _u("tournament_create")),
    "tournament_create_refused": Case(
        "director", _u("tournament_create"), then=_empty_tournament_form
    ),
    "tournament_upload": Case("director", _u("tournament_upload")),
    "tournament_upload_refused": Case("director", _u("tournament_upload"), then=_file_refused),
    "tournament": Case("director", _t("tournament_detail")),
    "settings": Case("director", _t("tournament_edit")),
    "settings_refused": Case("director", _t("tournament_edit"), then=_settings_refused),
    "players": Case("director", _t("player_list")),
    "players_paste": Case("director", _t("player_paste")),
    "players_preview": Case("director", _t("player_paste"), then=_pasted_players),
    "players_import": Case("director", _t("player_import")),
    "players_import_preview": Case("director", _t("player_import"), then=_uploaded_messy_list),
    "player": Case(
        "director", lambda site: reverse("player_detail", args=[site.slug, site.player])
    ),
    "player_edit": Case(
        "director", lambda site: reverse("player_edit", args=[site.slug, site.player])
    ),
    "rounds": Case("director", _t("round_list")),
    "round_played": Case("director", _t("round_detail", 2)),
    "round_draft": Case("director", _t("round_detail", 3)),
    "standings": Case("director", _t("standings")),
    "tournament_finish": Case("director", _t("tournament_finish")),  # what is still open
    "finished_standings": Case("director", _x("standings", "finished"), prepare=_finished),
    "finished_finish": Case("director", _x("tournament_finish", "finished"), prepare=_finished),
    "result_share": Case("director", _x("result_share", "finished"), prepare=_finished),
    "result_share_warned": Case(
        "director", _x("result_share", "finished"), then=_warning_shown, prepare=_warned(_finished)
    ),
    "finished_public_home": Case("anonymous", _x("public_home", "finished"), prepare=_finished),
    "finished_screen": Case(
        "anonymous",
        _x("public_screen", "finished"),
        language="nl",
        sizes=(*BOTH, "projector"),
        prepare=_finished,
    ),
    "print_index": Case("director", _t("print_index")),
    "print_index_warned": Case(
        "director", _t("print_index"), then=_warning_shown, prepare=_warned()
    ),
    "team": Case("director", _t("team")),
    "team_warned": Case("director", _t("team"), then=_warning_shown, prepare=_warned()),
    "team_invited": Case("director", _t("team"), then=_invitation_made),
    "join": Case("anonymous", _u("team_join", "invitation_token")),
    "error_403": Case("outsider", _t("tournament_detail"), status=403),
    "error_404": Case("director", lambda site: "/t/no-such-tournament/", status=404),
    "sheet": Case("director", _t("sheet_edit", 2, 2)),
    "sheet_history": Case("director", _t("sheet_history", 2, 2)),
    "round_photos": Case("director", _t("round_photos", 2), prepare=_photo_waiting),
    "sheet_photo": Case(
        "director", _t("sheet_edit", 2, 2), prepare=_photo_waiting, sizes=(*BOTH, "phone")
    ),
    "table_entry_photo": Case(
        "anonymous", _u("table_entry", "table_token"), prepare=_photo_waiting, sizes=PHONES
    ),
    "sheet_confirm": Case("director", _t("sheet_confirm", 1, 1)),
    "sheet_retype": Case("director", _t("sheet_retype", 1, 1)),
    "table_link": Case("director", _t("table_link", 2, 2)),
    "table_link_warned": Case(
        "director", _t("table_link", 2, 2), then=_warning_shown, prepare=_warned()
    ),
    "table_entry": Case("anonymous", _u("table_entry", "table_token")),
    "public_home": Case("anonymous", _t("public_home")),
    "public_standings": Case("anonymous", _t("public_standings")),
    "public_screen": Case(
        "anonymous", _t("public_screen"), language="nl", sizes=(*BOTH, "projector")
    ),
    "public_player": Case(
        "anonymous", lambda site: reverse("public_player", args=[site.slug, site.player])
    ),
    "round_closed": Case("director", _t("round_detail", 1), prepare=_closed_round),
    "table_entry_drawn": Case(
        "anonymous", _x("table_entry", "token"), sizes=(*BOTH, "phone"), prepare=_drawn_table
    ),
    "table_link_drawn": Case(
        "director",
        lambda site: reverse("table_link", args=[site.extra["slug"], 1, 1]),
        prepare=lambda tournament, director: {
            **_drawn_table(tournament, director),
            "slug": Tournament.objects.get(first_dealer_rule="drawn").slug,
        },
    ),
    "phone_held_deal": Case(
        "anonymous",
        _u("table_entry", "table_token"),
        then=_held_deal,
        sizes=PHONES,
        prepare=_table_of_the_link,
        fresh_per_size=True,
    ),
    "phone_conflict": Case(
        "anonymous",
        _u("table_entry", "table_token"),
        then=_clash,
        sizes=PHONES,
        prepare=_table_of_the_link,
        fresh_per_size=True,
    ),
    "season_members": Case("director", _u("member_list"), prepare=_season),
    "season_member": Case("director", _x("member_edit", "member"), prepare=_season),
    "season_merge": Case(
        "director", _x("member_merge", "member", query="?other={other}"), prepare=_season
    ),
    "season_list": Case("director", _u("competition_list"), prepare=_season),
    "season": Case("director", _x("competition_detail", "competition"), prepare=_season),
    "season_warned": Case(
        "director",
        _x("competition_detail", "competition"),
        then=_warning_shown,
        prepare=_warned(_season),
    ),
    "season_settings": Case("director", _x("competition_edit", "competition"), prepare=_season),
    "season_check_in": Case("director", _x("check_in", "competition"), prepare=_season),
    "season_questions": Case(
        "director", _x("competition_questions", "competition"), prepare=_season
    ),
    "season_public": Case("anonymous", _x("public_season", "competition"), prepare=_season),
    "season_check_in_asked": Case(
        "director", _x("check_in", "competition"), then=_new_names_typed, prepare=_season
    ),
    "season_guest_preview": Case(
        "director", _x("member_edit", "guest", query="?status=member"), prepare=_season
    ),
    "season_evening_out": Case(
        "director", _x("evening_remove", "competition", "evening"), prepare=_season
    ),
    "season_attendance": Case(
        "director", _x("competition_attendance", "competition"), prepare=_season
    ),
    "season_card": Case("director", _x("member_card", "member"), prepare=_season),
    "season_evening_back": Case(
        "director",
        _x("evening_put_back", "competition", "removal"),
        prepare=_evening_taken_out,
    ),
    "season_upload": Case("director", _u("competition_upload")),
    "password_changed": Case("director", _u("password_change_done")),
    # The printouts as pages ("in the browser"): A4 sheets to print, opened on the laptop.
    "printed_sheets": Case("director", _in_the_browser(_t("print_sheets", 2)), sizes=("desktop",)),
    "printed_seating": Case(
        "director", _in_the_browser(_t("print_seating", 2)), sizes=("desktop",)
    ),
    "printed_blank": Case("director", _in_the_browser(_t("print_blank", 4)), sizes=("desktop",)),
    "printed_standings": Case(
        "director", _in_the_browser(_t("print_standings")), sizes=("desktop",)
    ),
    "printed_season": Case(
        "director",
        _in_the_browser(_x("competition_print", "competition")),
        sizes=("desktop",),
        prepare=_season,
    ),
    "printed_sign_in": Case(
        "director",
        _in_the_browser(_x("competition_sign_in", "competition")),
        sizes=("desktop",),
        prepare=_season,
    ),
    "printed_card": Case(
        "director",
        _in_the_browser(_x("member_card_print", "member")),
        sizes=("desktop",),
        prepare=_season,
    ),
}


# The language switch sits in the page's layout, not in the page: English is checked once for
# each layout template (base.html with the front page, sign-in and the season; the
# tournament's tabs; the score sheet's grid; the phone's sheet; the public pages), at the
# page's first size. (Its texts are checked to be complete by tests/test_translations.py.)
ENGLISH = {
    "front",
    "sign_in",
    "tournament",
    "sheet",
    "table_entry",
    "public_home",
    "public_standings",
    "season",
}


# Each page and state in Dutch at each of its sizes, and the pages above in English: a state made
# by a step on the page (a form sent with mistakes, an invitation made) is the same template as
# the page it is on.
def checks_of(name: str, case: Case) -> list[tuple[str, str]]:
    dutch = [("nl", size) for size in case.sizes]
    return dutch + ([("en", case.sizes[0])] if name in ENGLISH else [])


# A test per page (its tournament made once for all its checks), or per size for a page whose
# step stores something.
CHECKS = [
    pytest.param(name, [check], id=f"{name}-{check[1]}")
    for name, case in PAGES.items()
    if case.fresh_per_size
    for check in checks_of(name, case)
] + [
    pytest.param(name, checks_of(name, case), id=name)
    for name, case in PAGES.items()
    if not case.fresh_per_size
]


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(
            f"axe-core is not installed ({AXE} is missing): run scripts/npm-tools.sh "
            "(scripts/test.sh and scripts/bootstrap.sh test do)."
        )
    return AXE.read_text(encoding="utf-8")


def axe_check(page, source: str) -> dict:
    """Run axe-core on the page as it is now: its WCAG 2.1 A and AA violations, and what it
    could not decide ("incomplete": to look at by hand)."""
    page.evaluate(source)
    result = page.evaluate(
        """async (tags) => {
          // Only the violations in full: passes and "incomplete" keep one node each, which is
          // all that is read of them, and axe spends far less time collecting.
          const result = await axe.run(document, {
            runOnly: {type: "tag", values: tags},
            resultTypes: ["violations"],
          });
          const brief = (v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.map((n) => ({
              target: n.target.join(" "),
              why: [...n.any, ...n.all, ...n.none].map((c) => c.message).join(" / "),
            })),
          });
          return {
            passes: result.passes.map((v) => v.id),
            violations: result.violations.map(brief),
            incomplete: result.incomplete.map(brief),
          };
        }""",
        TAGS + EXTRA_TAGS,
    )
    assert result["passes"] or result["violations"], "axe-core checked nothing"
    return result


def describe(violations: list[dict]) -> str:
    return "\n".join(
        f"  {v['impact']:<8} {v['id']}: {v['help']}\n"
        + "".join(f"           at {n['target']}: {n['why']}\n" for n in v["nodes"][:8])
        + (f"           … and {len(v['nodes']) - 8} more\n" if len(v["nodes"]) > 8 else "")
        for v in violations
    )


class Screens:
    """One browser context per screen size, kept for the whole module: a new context starts a
    new renderer process, which costs Chromium more than the page and its check together (the
    sweep took three times as long with a context per check). Between checks its cookies, its
    storage and its language are set again, so each page is opened as a first visit."""

    def __init__(self, browser):
        self.browser = browser
        self.contexts: dict = {}

    def page(self, size: str, language: str, cookies: list[dict]):
        if size not in self.contexts:
            context = self.browser.new_context(
                locale="nl-NL",
                viewport=SIZES[size],
                is_mobile=size in PHONES,
                has_touch=size in PHONES,
            )
            context.set_default_timeout(10_000)
            context.new_page()
            self.contexts[size] = context
        context = self.contexts[size]
        # (A page that crashed in an earlier check is closed: the next check opens another.)
        page = context.pages[0] if context.pages else context.new_page()
        if page.url.startswith("http"):
            # What the last check's page kept (the sheet's offline queue) goes with it.
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            page.goto("about:blank")
        context.clear_cookies()
        context.add_cookies(cookies)
        context.set_extra_http_headers(
            {"Accept-Language": "nl-NL,nl" if language == "nl" else "en-GB,en"}
        )
        return page

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


@pytest.fixture(scope="module")
def screens(browser):
    screens = Screens(browser)
    yield screens
    screens.close()


def sweep_of_this_run(request) -> list[str]:
    """The sweep's tests pytest selected in this run (the same list in every xdist worker)."""
    return [
        item.nodeid
        for item in request.session.items
        if getattr(item, "originalname", None) == request.node.originalname
        and item.nodeid.split("::")[0] == request.node.nodeid.split("::")[0]
    ]


@pytest.mark.parametrize(("name", "checks"), CHECKS)
@pytest.mark.django_db(transaction=True)
def test_the_page_has_no_serious_accessibility_violation(
    request, screens, live_server, site, axe_source, name, checks
):
    """One page (or state) as its visitor gets it, at each of its sizes: axe finds no serious
    or critical violation, nothing widens a phone page, text on the phone sheet is AA. The
    sweep's last test runs the W3C checker over every page of the run (tests/browser/w3c.py)
    and fails with its errors."""
    failed: AssertionError | None = None
    try:
        for language, size in checks:
            _check(screens, live_server, site, axe_source, name, language, size)
    except AssertionError as error:
        failed = error
    errors: list[str] = []
    if w3c.last_of_the_run(request.node.nodeid, sweep_of_this_run(request)):
        errors, pages, seconds = w3c.check_all()
        print(f"W3C checker: {pages} pages in {seconds:.1f} s, {len(errors)} errors")
    report = (
        f"The W3C checker (run once over the sweep's pages, after this test, the last) finds "
        f"{len(errors)} errors (the pages as checked: {w3c.ARTIFACTS / 'pages'}):\n  "
        + "\n  ".join(errors)
    )
    if failed is not None:
        if errors:
            failed.add_note(report)
        raise failed
    assert not errors, report


def _received(page, action: Callable[[], None]) -> str:
    """Do ``action`` on ``page``; the HTML of the last document the browser received meanwhile
    (the answer to a form sent), as the server sent it."""
    documents = []

    def arrived(response) -> None:
        if (
            response.request.resource_type == "document"
            and response.frame == page.main_frame
            and not 300 <= response.status < 400
        ):
            documents.append(response)

    page.on("response", arrived)
    try:
        action()
    finally:
        page.remove_listener("response", arrived)
    assert documents, f"no page arrived at {page.url}"
    return documents[-1].text()


def _check(screens, live_server, site, axe_source, name: str, language: str, size: str) -> None:
    case = PAGES[name]
    host = live_server.url.split("//", 1)[1].split(":")[0]
    cookies = [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    if case.who != "anonymous":
        session = site.director_session if case.who == "director" else site.outsider_session
        cookies.append({"name": "sessionid", "value": session, "domain": host, "path": "/"})
    page = screens.page(size, language, cookies)

    def visit() -> None:
        response = page.goto(live_server.url + case.address(site))
        assert response.status == case.status, f"{name}: {response.status} at {page.url}"
        page.wait_for_load_state("load")
        if case.then:
            case.then(page, site)
            # A step that posts a form waits for an element of the answer only: checked (its
            # colours too) once that page has loaded its style sheets.
            page.wait_for_load_state("load")

    html = _received(page, visit)
    # The server's HTML is the same at every width: checked once per language.
    if size == case.sizes[0]:
        w3c.save(name, language, page.url.removeprefix(live_server.url), html)
    assert page.locator("html").get_attribute("lang") == (case.language or language)
    result = axe_check(page, axe_source)
    violations = result["violations"]
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    # Every finding goes to the test's output (-s or a failure shows it) and to a file the
    # report's figures are counted from.
    out = ROOT / "test-artifacts" / "axe"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}-{language}-{size}.json").write_text(json.dumps(result, indent=1))
    if violations:
        print(f"{name} {language} {size}:\n{describe(violations)}")
    wide = page.evaluate(OVERFLOW, SIZES[size]["width"]) if size in PHONES else []
    if size in PHONES and name in FITS_A_PHONE:
        wide += page.evaluate(BOX_SCROLLS)
    if wide:
        print(f"{name} {language} {size}: wider than the phone:\n  " + "\n  ".join(wide))
    assert not blocking, (
        f"axe-core finds serious or critical violations on {name} ({language}, {size}, "
        f"{page.url}):\n{describe(blocking)}"
    )
    assert not wide, f"{name} ({language}) scrolls sideways on a phone: {wide}"
    if size in PHONES and page.locator("#phone-sheet").is_visible():
        low = page.evaluate(PHONE_CONTRAST)
        assert not low, f"{name} ({language}): text on the phone sheet below AA: {low}"
