"""Report benchmark: the standings PDF of a 256-player, 4-round tournament (target: under 5 s).

    python benchmarks/reports.py
"""
from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from referee import create_app, reports
from referee.services import rulesets
from referee.app.demo import DEMO_PLAYERS
from referee.tournament.scoring import GameResult, PlayerResult, standings
from referee.tournament.seating import draw, met_counts


def main() -> None:
    rng = random.Random(1)
    players = [f"{DEMO_PLAYERS[i % len(DEMO_PLAYERS)]} {i:03d}" for i in range(256)]
    rounds: list[list[list[str]]] = []
    results = []
    start = time.perf_counter()
    for number in range(1, 5):
        tables = draw(players, met_counts(rounds), rng, tries=5)
        rounds.append(tables)
        for k, table in enumerate(tables, start=1):
            assets = sorted((rng.randint(0, 12000) for _ in table), reverse=True)
            won = rng.random() < 0.2
            results.append(GameResult(number, str(k), tuple(
                PlayerResult(p, rank, a if not won or rank == 1 else 0, monopoly_win=won and rank == 1)
                for rank, (p, a) in enumerate(zip(table, assets), start=1))))
    seated = time.perf_counter() - start
    scheme = rulesets.load_scheme("jma-placement")
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'b.sqlite'}"})
        with app.test_request_context():
            start = time.perf_counter()
            table = standings(scheme, results)
            ranked = time.perf_counter() - start
            start = time.perf_counter()
            pdf = reports.render_standings_pdf("Benchmark open", "jma-2006", 256, scheme, table, [1, 2, 3, 4])
            printed = time.perf_counter() - start
    print(f"256 players, 4 rounds ({len(results)} games): seating draws {seated:.2f} s, standings {ranked:.3f} s, "
          f"standings PDF {printed:.2f} s, {len(pdf) / 1024:.0f} KB (target: PDF under 5 s)")


if __name__ == "__main__":
    main()
