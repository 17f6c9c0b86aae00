"""Tournament seating: table sizes, repeat opponents, seeded finals."""
import random

import pytest

from referee.tournament.seating import draw, met_counts, repeats, seeded, table_sizes


@pytest.mark.parametrize("players, sizes", [
    (4, [4]), (5, [5]), (8, [4, 4]), (9, [5, 4]), (10, [5, 5]), (12, [4, 4, 4]), (13, [5, 4, 4]),
    (19, [5, 5, 5, 4]), (256, [4] * 64), (6, [3, 3]), (7, [4, 3]),
])
def test_tables_of_4_or_5_when_numbers_do_not_divide(players, sizes):
    assert table_sizes(players) == sizes


def test_the_draw_avoids_repeat_opponents_where_it_can():
    players = [f"P{i:02d}" for i in range(16)]
    rng = random.Random(1)
    rounds = []
    for _ in range(3):
        tables = draw(players, met_counts(rounds), rng)
        assert sorted(p for t in tables for p in t) == players
        assert repeats(tables, met_counts(rounds)) == 0  # 16 players, 3 rounds: no one meets twice
        rounds.append(tables)


def test_final_tables_are_seeded_snake_wise_from_the_standings():
    ranked = [f"#{i}" for i in range(1, 9)]
    assert seeded(ranked, 2) == [["#1", "#4", "#5", "#8"], ["#2", "#3", "#6", "#7"]]
    assert seeded(ranked[:4], 1) == [["#1", "#2", "#3", "#4"]]
