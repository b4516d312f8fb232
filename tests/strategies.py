"""Hypothesis strategies for whole tournament files (v1), legal and plausible."""

import random

from hypothesis import strategies as st

from scoring.deals import DEAL_COUNT
from scoring.simulate import simulate_deal
from tournament.text import text_hidden_character, text_normalised

# Names a director will meet sooner or later: quotes, accents, HTML, spreadsheet formulas.
tricky_names = st.sampled_from(
    [
        "Anna de Vries",
        "Jan 't Hart",
        'Piet "De Kaart" Bakker',
        "Ëlla Müller-Ñúñez",
        "<script>alert(1)</script>",
        '="1"',
        "=SUM(A1:A9)",
        "+31 6 12345678",
        "-Kees-",
        "@home",
        "Zoë van der Berg",
    ]
) | st.text(
    alphabet=st.characters(
        codec="utf-8", exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
    ),
    min_size=1,
    max_size=30,
).filter(lambda s: s != "" and text_normalised(s) == s and text_hidden_character(s) is None)


@st.composite
def tournament_documents(draw, *, max_players: int = 14, max_rounds: int = 3):
    n_players = draw(st.integers(min_value=3, max_value=max_players))
    names = draw(st.lists(tricky_names, min_size=n_players, max_size=n_players))
    clubs = draw(
        st.lists(
            st.sampled_from(["", "De Troefkaart", "'t Aasje", "=Club"]),
            min_size=n_players,
            max_size=n_players,
        )
    )
    players = [
        {"id": f"p{i + 1}", "name": name, **({"club": club} if club else {})}
        for i, (name, club) in enumerate(zip(names, clubs, strict=True))
    ]
    rng = draw(st.randoms(use_true_random=False))
    rounds = []
    for number in range(1, draw(st.integers(min_value=0, max_value=max_rounds)) + 1):
        ids = [p["id"] for p in players]
        rng.shuffle(ids)
        sizes = _split(len(ids), rng)
        tables = []
        start = 0
        for t, size in enumerate(sizes, start=1):
            seats = ids[start : start + size]
            start += size
            tables.append(_table(t, seats, rng))
        rounds.append({"number": number, "tables": tables})
    document = {
        "format": "bollen-tournament",
        "version": 1,
        "name": draw(tricky_names),
        "date": draw(st.dates().map(lambda d: d.isoformat())),
        "settings": {"table_sizes": [4, 5]},
        "players": players,
        "rounds": rounds,
    }
    return document


def _split(n: int, rng: random.Random) -> list[int]:
    sizes = []
    while n:
        size = n if n <= 6 else rng.choice([s for s in (3, 4, 5, 6) if n - s >= 3 or n - s == 0])
        sizes.append(size)
        n -= size
    return sizes


def _table(number: int, seats: list[str], rng: random.Random) -> dict:
    played = rng.choice([0, 3, 7, DEAL_COUNT, DEAL_COUNT])
    table: dict = {"number": number, "seats": seats}
    deals = [simulate_deal(d, len(seats), rng) for d in range(1, played + 1)]
    if deals:
        table["deals"] = [{"bids": b, "tricks": k} for b, k in deals]
        if played < DEAL_COUNT and rng.random() < 0.5:
            bids, _tricks = simulate_deal(played + 1, len(seats), rng)
            table["deals"].append({"bids": bids, "tricks": []})
        if rng.random() < 0.4:
            table["penalties"] = [{"player": rng.choice(seats), "deal": rng.randint(1, played)}]
    return table
