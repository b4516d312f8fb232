"""Regenerate seeds/demo-tournament.json: the demo tournament that `make run` loads.

23 players from four clubs, seated by the real seating planner: rounds 1-3 fully played,
round 4 seated and half entered. Deterministic: the same file every time.

    .venv/bin/python seeds/make_demo.py
"""

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.seating import plan_seating  # noqa: E402
from scoring.simulate import simulate_tournament  # noqa: E402

PLAYERS = [
    ("Anna de Vries", "De Troefkaart"),
    ("Bram Jansen", "De Troefkaart"),
    ("Cor Smit", "'t Aasje"),
    ("Dini Visser", "Café De Zwaan"),
    ("Eva Bakker", "'t Aasje"),
    ("Femke de Boer", "De Gouden Aas"),
    ("Gerrit Mulder", "De Troefkaart"),
    ("Henk de Groot", "Café De Zwaan"),
    ("Ingrid Bos", "De Gouden Aas"),
    ("Joop Vos", "'t Aasje"),
    ("Kees Peters", "De Troefkaart"),
    ("Lies Hendriks", "Café De Zwaan"),
    ("Marco van Dijk", "De Gouden Aas"),
    ("Nel Dekker", "'t Aasje"),
    ("Otto Brouwer", "De Troefkaart"),
    ("Paula de Wit", "De Gouden Aas"),
    ("Ruud Dijkstra", "Café De Zwaan"),
    ("Sanne Smits", "'t Aasje"),
    ("Theo de Graaf", "De Gouden Aas"),
    ("Ursula van Leeuwen", "Café De Zwaan"),
    ("Vincent Kok", "De Troefkaart"),
    ("Wil Jacobs", ""),
    ("Yvonne van der Meer", "'t Aasje"),
]


def main() -> None:
    players = [(f"p{i}", name, club) for i, (name, club) in enumerate(PLAYERS, start=1)]
    ids = [pid for pid, _name, _club in players]
    plan = plan_seating(ids, rounds=4, table_sizes=(4, 5), prefer=4, seed=2026, time_limit=5.0)
    seating = [[list(table) for table in round_] for round_ in plan.rounds]
    # Round 4 is under way: two tables finished, one halfway, one just started, one not yet.
    played = [[11] * len(r) for r in seating[:3]] + [[11, 11, 6, 2, 0][: len(seating[3])]]
    document = simulate_tournament(
        name="Bollentoernooi De Gouden Aas",
        date="2026-11-28",
        players=players,
        seating=seating,
        rng=random.Random(2026),
        played_deals=played,
        settings={
            "table_sizes": [4, 5],
            "prefer_size": 4,
            "rounds_planned": 5,
            "place": "Café De Gouden Aas, Utrecht",
            "public": True,
        },
    )
    path = ROOT / "seeds" / "demo-tournament.json"
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path} (repeats in the seating: {plan.quality.repeats})")


if __name__ == "__main__":
    main()
