"""The phone sheet's settings in the sheet page's config (tournament/sheets/phone.py)."""

from __future__ import annotations

from django.utils import translation

from scoring.deals import DEAL_COUNT, bidding_order
from tournament.sheets.phone import phone_sheet_config


def config_for(players: tuple[str, ...]) -> dict:
    deals = [
        {"deal": deal, "hand": 1, "order": list(bidding_order(deal, len(players)))}
        for deal in range(1, DEAL_COUNT + 1)
    ]
    return phone_sheet_config({"deals": deals}, players)


def test_each_deal_has_its_label_and_its_kind_in_words():
    with translation.override("nl"):
        config = config_for(("Anna", "Bert", "Cor", "Dirk"))
    labels = [deal["label"] for deal in config["deals"]]
    assert labels == ["1", "2", "3", "4", "5", "5Z", "5B", "4", "3", "2", "1"]
    kinds = {deal["deal"]: deal["kind"] for deal in config["deals"]}
    assert kinds[6] == "Zonder troef"
    assert kinds[7].startswith("Blind, zonder troef")
    assert kinds[1] == kinds[8] != kinds[6]


def test_the_players_and_the_phone_words_come_along():
    with translation.override("en"):
        config = config_for(("Anna", "Bert", "Cor"))
    assert config["players"] == ["Anna", "Bert", "Cor"]
    assert config["phone"]["cards"][1] == "1 card" and config["phone"]["cards"][5] == "5 cards"
    assert config["phone"]["bid_button"] % {"name": "Anna", "n": 2} == "Anna bids 2"
