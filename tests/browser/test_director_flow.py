"""A new director's afternoon, start to finish, in a real browser.

Sign in, create a tournament, import 16 players from Excel, seat round 1, type table 1's score
sheet with the keyboard (with the dealer's forbidden bid, which the page refuses and names)
while the other tables send theirs from a phone, look at the standings, seat round 2 without
any repeated meeting, and a player finds their table on the public page. When the last planned
round is played the site leads to the end: the tournament is finished (after what is still open
is done), the standings become "Eindstand" for the director and the players, and the director
reopens it.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext
from openpyxl import Workbook
from playwright.sync_api import expect

from scoring.deals import DEAL_COUNT, bidding_order, deal_spec, forbidden_bid
from scoring.errors import ErrorCode
from scoring.simulate import simulate_deal
from tournament.adapter import load_table_sheets
from tournament.errors import RULE_MESSAGES
from tournament.models import Seat, Table, Tournament
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue, table_link_sheet_record
from tournament.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = [
    ("Anna de Vries", "De Troefkaart"), ("Bram Jansen", "De Troefkaart"),
    ("Cor Smit", "'t Aasje"), ("Dini Visser", "Café De Zwaan"), ("Eva Bakker", "'t Aasje"),
    ("Femke de Boer", "De Gouden Aas"), ("Gerrit Mulder", ""), ("Henk de Groot", ""),
    ("Ingrid Bos", "De Gouden Aas"), ("Joop Vos", "'t Aasje"), ("Kees Peters", ""),
    ("Lies Hendriks", "Café De Zwaan"), ("Marco van Dijk", ""), ("Nel Dekker", "'t Aasje"),
    ("Otto Brouwer", "De Troefkaart"), ("Paula de Wit", "De Gouden Aas"),
]  # fmt: skip


def dutch(text: str, **params) -> str:
    with translation.override("nl"):
        return gettext(text) % params if params else gettext(text)


def dutch_count(singular: str, plural: str, count: int) -> str:
    with translation.override("nl"):
        return ngettext(singular, plural, count) % {"counter": count}


def box(page, deal: int, seat: int, kind: str):
    return page.locator(f'input[data-deal="{deal}"][data-seat="{seat}"][data-kind="{kind}"]')


@pytest.fixture
def players_xlsx(tmp_path):
    workbook = Workbook()
    workbook.active.append(["Naam", "Club"])
    for name, club in PLAYERS:
        workbook.active.append([name, club])
    path = tmp_path / "spelers.xlsx"
    workbook.save(path)
    return path


def type_sheet(page, rng: random.Random, *, forbidden_at: int | None = None, screenshot) -> None:
    """Type a whole game of 4 players with digits only, the way a scorer works: per deal the
    bids in bidding order, then the tricks in the same order; after each digit the focus moves
    to the next box itself. At deal ``forbidden_at`` the dealer first types the one bid that is
    not allowed."""
    expect(page.locator("#sheet-form")).to_have_attribute("data-ready", "1")  # the script runs
    box(page, 1, bidding_order(1, 4)[0], "bid").focus()
    for deal in range(1, DEAL_COUNT + 1):
        bids, tricks = simulate_deal(deal, 4, rng)
        order = bidding_order(deal, 4)
        for seat in order[:-1]:
            page.keyboard.type(str(bids[seat]))
        dealer = order[-1]
        if deal == forbidden_at:
            refuse_forbidden_bid(page, deal, dealer, [bids[s] for s in order[:-1]])
            screenshot(page, "flow-5-forbidden-bid-refused")
            box(page, deal, dealer, "bid").focus()
            page.keyboard.press("Backspace")
        page.keyboard.type(str(bids[dealer]))
        for seat in order:
            page.keyboard.type(str(tricks[seat]))
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")


def refuse_forbidden_bid(page, deal: int, dealer: int, other_bids: list[int]) -> None:
    forbidden = forbidden_bid(deal, other_bids)
    hint = page.locator(f"#msg-{deal}-{dealer} .hint")
    expect(hint).to_have_text(dutch("not %(bid)s", bid=forbidden))
    page.keyboard.type(str(forbidden))
    dealer_box = box(page, deal, dealer, "bid")
    expect(dealer_box).to_have_attribute("aria-invalid", "true")
    with translation.override("nl"):
        message = str(RULE_MESSAGES[ErrorCode.DEALER_BID]) % {
            "bid": forbidden,
            "hand_size": deal_spec(deal).hand_size,
        }
    expect(page.locator(f"#msg-{deal}-{dealer} .error.local")).to_have_text(message)
    page.get_by_role("button", name=dutch("Save"), exact=True).click()
    # The deals before are saved; this one is held back, and the status line says why.
    sync = page.locator("#sync")
    expect(sync).to_have_attribute("data-state", "held")
    expect(sync).to_contain_text(dutch("Deals 1-%(last)s saved", last=deal - 1))
    expect(sync).to_contain_text(message[:1].lower() + message[1:].rstrip("."))


def send_sheets_from_phones(tournament, round_number, rng, user, *, skip=0):
    """Every table of the round (but the first ``skip``) sends a whole sheet through its link."""
    tables = Table.objects.filter(round__tournament=tournament, round__number=round_number)
    for table in tables.filter(number__gt=skip):
        cells = {}
        for deal in range(1, DEAL_COUNT + 1):
            bids, tricks = simulate_deal(deal, 4, rng)
            cells |= {(deal, seat): (bids[seat], tricks[seat]) for seat in range(4)}
        table_link_sheet_record(
            link=table_link_issue(table=table, by_user=user),
            submission=SheetSubmission(base_version=0, cells=cells),
        )


def test_a_new_director_runs_two_rounds(signed_in, browser, live_server, players_xlsx, screenshot):
    page = signed_in
    rng = random.Random(2026)

    # Create the tournament, with the public pages on.
    page.get_by_role("link", name=dutch("New tournament")).click()
    page.get_by_label("Naam", exact=True).fill("Zaterdagtoernooi")
    page.get_by_label("Geplande rondes").fill("2")
    page.get_by_label("Openbare pagina's aan").check()
    page.get_by_role("button", name=dutch("Create tournament")).click()
    expect(page.get_by_role("heading", name=dutch("Players"))).to_be_visible()
    tournament = Tournament.objects.get(name="Zaterdagtoernooi")

    # Import 16 players from Excel: preview first, then confirm.
    page.get_by_role("link", name=dutch("Import Excel or CSV")).click()
    page.get_by_label(dutch("Excel or CSV file")).set_input_files(players_xlsx)
    page.get_by_role("button", name=dutch("Show preview")).click()
    expect(page.locator("table.preview tbody tr")).to_have_count(16)
    screenshot(page, "flow-1-import-preview")
    assert tournament.players.count() == 0
    # Unticking a line counts it out of the button; ticking it again counts it back in.
    boxes = page.locator('table.preview input[type="checkbox"]')
    register = page.locator("#confirm-players button.primary")
    boxes.first.uncheck()
    expect(register).to_have_text(
        dutch_count("Register %(counter)s player", "Register %(counter)s players", 15)
    )
    expect(page.locator('[data-count-for="confirm-players"]').first).to_have_text(
        dutch_count(
            "%(counter)s player will be registered.", "%(counter)s players will be registered.", 15
        )
    )
    boxes.first.check()
    page.get_by_role(
        "button",
        name=dutch_count("Register %(counter)s player", "Register %(counter)s players", 16),
    ).click()
    with translation.override("nl"):
        registered = ngettext(
            "%(count)s player registered.", "%(count)s players registered.", 16
        ) % {"count": 16}
    expect(page.locator(".messages")).to_contain_text(registered)  # the answer is in
    assert tournament.players.count() == 16

    # Seat round 1 and publish it.
    page.get_by_role("link", name=dutch("Rounds"), exact=True).click()
    page.get_by_role("button", name=dutch("Seat round %(number)s", number=1)).click()
    expect(page.locator(".table-card")).to_have_count(4)
    page.get_by_role("button", name=dutch("Publish this seating")).click()
    screenshot(page, "flow-2-round-1")

    # The director types table 1's sheet, where the dealer of deal 4 first tries the forbidden
    # bid; tables 2-4 keep score on a phone through their table links (a whole sheet tapped in
    # on a phone is tests/browser/test_phone_sheet.py), saved here as their phones send it.
    page.locator(".table-card").first.get_by_role("link", name=dutch("Score sheet")).click()
    type_sheet(page, rng, forbidden_at=4, screenshot=screenshot)
    screenshot(page, "flow-3-sheet-complete")
    send_sheets_from_phones(tournament, 1, rng, page.user, skip=1)
    page.get_by_role("link", name=dutch("Rounds"), exact=True).click()
    page.get_by_role("link", name=dutch("Round %(number)s", number=1)).first.click()
    expect(page.locator(".table-card")).to_have_count(4)
    sheets = load_table_sheets(tournament=tournament, round_number=1)
    assert [s.result().complete for s in sheets] == [True] * 4

    # The standings show what scoring says.
    page.get_by_role("link", name=dutch("Standings"), exact=True).click()
    leader = tournament_standings(tournament).rows[0]
    first_row = page.locator("table.standings tbody tr").first
    expect(first_row.locator("td.total")).to_have_text(str(leader.tournament_points))
    screenshot(page, "flow-4-standings")

    # Round 2: nobody meets an earlier opponent again.
    page.get_by_role("link", name=dutch("Rounds"), exact=True).click()
    page.get_by_role("button", name=dutch("Seat round %(number)s", number=2)).click()
    expect(page.get_by_text(dutch("Nobody meets an earlier opponent again."))).to_be_visible()
    page.get_by_role("button", name=dutch("Publish this seating")).click()
    screenshot(page, "flow-6-round-2")
    pairs = []
    for round_number in (1, 2):
        tables: dict[int, list[int]] = {}
        for seat in Seat.objects.filter(round__tournament=tournament, round__number=round_number):
            tables.setdefault(seat.table_id, []).append(seat.player_id)
        pairs += [frozenset(p) for t in tables.values() for p in combinations(t, 2)]
    assert len(pairs) == len(set(pairs))

    # A player, without an account, finds their table on the public page.
    visitor = browser.new_context(locale="nl-NL", viewport={"width": 390, "height": 844})
    phone = visitor.new_page()
    phone.goto(f"{live_server.url}/p/{tournament.slug}/")
    phone.get_by_label(dutch("Your name")).fill("dini")
    phone.get_by_role("button", name=dutch("Search")).click()
    table = Seat.objects.get(round__tournament=tournament, round__number=2,
                             player__name="Dini Visser").table.number  # fmt: skip
    row = phone.locator("table.places tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text(str(table))
    screenshot(phone, "flow-7-where-do-i-sit")
    visitor.close()

    # The last planned round is played: the overview's next step is the end, not round 3.
    send_sheets_from_phones(tournament, 2, rng, page.user)
    page.get_by_role("link", name=dutch("Overview"), exact=True).click()
    expect(page.locator("#next-step h2")).to_have_text(dutch("Next: the final standings"))
    page.locator("#next-step").get_by_role("link", name=dutch("Finish the tournament")).click()
    # The phones' sheets wait for a confirmation (a director alone confirms by re-typing):
    # finishing names them. This director counts sheets without a confirmation instead.
    expect(page.locator("#finish-open li")).to_have_count(8)
    page.get_by_role("button", name=dutch("Finish the tournament")).click()
    with translation.override("nl"):
        refused = ngettext(
            "Not finished: %(count)s thing is still open (listed below).",
            "Not finished: %(count)s things are still open (listed below).",
            8,
        ) % {"count": 8}
    expect(page.locator(".messages")).to_contain_text(refused)
    assert Tournament.objects.get(pk=tournament.pk).finished_at is None
    page.get_by_role("link", name=dutch("Overview"), exact=True).click()
    page.get_by_role("link", name=dutch("Settings"), exact=True).click()
    page.get_by_label(dutch("no confirmation")).check()
    page.get_by_role("button", name=dutch("Save"), exact=True).click()
    page.get_by_role("link", name=dutch("Overview"), exact=True).click()
    page.locator("#next-step").get_by_role("link", name=dutch("Finish the tournament")).click()
    expect(page.locator("#finish-ready")).to_be_visible()
    page.get_by_role("button", name=dutch("Finish the tournament")).click()
    expect(page.locator("h1")).to_contain_text(dutch("Final standings, %(date)s", date="")[:9])
    expect(page.locator("#finished-banner")).to_be_visible()
    screenshot(page, "flow-8-final-standings")

    # The players' phones: the tournament is over, no "where do I sit" for a round played.
    visitor = browser.new_context(locale="nl-NL", viewport={"width": 390, "height": 844})
    phone = visitor.new_page()
    phone.goto(f"{live_server.url}/p/{tournament.slug}/")
    expect(phone.locator('[data-live="over-title"]')).to_have_text(dutch("The tournament is over"))
    expect(phone.locator('[data-live="seating"]')).to_be_hidden()
    screenshot(phone, "flow-9-public-final")
    visitor.close()

    # The director reopens it (to correct a sheet): provisional again, recorded.
    page.locator("#finished-banner").get_by_role("link", name=dutch("Reopen")).click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=dutch("Reopen the tournament")).click()
    expect(page.locator(".finish-history li")).to_have_count(2)
    page.get_by_role("link", name=dutch("Standings"), exact=True).click()
    expect(page.locator("h1")).to_have_text(dutch("Standings after round %(round)s", round=2))
