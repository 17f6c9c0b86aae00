"""Seating a round: table sizes, a draw that avoids repeat opponents, and seeded final tables."""
from __future__ import annotations

import random
from itertools import combinations


def table_sizes(players: int, allowed: frozenset[int] | None = None) -> list[int]:
    """Tables of 4, or of 5 where the numbers do not divide (smaller tables only below 8 players).  With
    ``allowed`` (the table sizes a placement scheme scores), only those: the tables as even as can be, of 4 and 5
    where possible, else as near 4 as allowed (11 players at tables of 4, 5 or 6: 6 and 5); ValueError when no
    split into allowed sizes exists (7 players at tables of 4, 5 or 6)."""
    if players < 2:
        raise ValueError(f"a round needs at least 2 players, not {players}")
    if allowed is not None:
        return _allowed_sizes(players, allowed)
    for tables in range(players // 4, players // 5 - 1, -1):  # as many tables of 4 as possible
        if tables and 4 * tables <= players <= 5 * tables:
            base, extra = divmod(players, tables)
            return [base + 1] * extra + [base] * (tables - extra)
    tables = max(1, round(players / 4))
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _allowed_sizes(players: int, allowed: frozenset[int]) -> list[int]:
    best: tuple | None = None
    for tables in range(1, players // 2 + 1):
        base, extra = divmod(players, tables)
        sizes = [base + 1] * extra + [base] * (tables - extra)
        if not set(sizes) <= allowed:
            continue
        key = (not set(sizes) <= {4, 5}, sum(abs(size - 4.5) for size in sizes) / tables, -tables)
        if best is None or key < best[0]:
            best = (key, sizes)
    if best is None:
        raise ValueError(f"{players} players cannot sit at tables of {', '.join(map(str, sorted(allowed)))}")
    return best[1]


def repeats(tables: list[list[str]], met: dict[frozenset, int]) -> int:
    """How many pairs at these tables have already met (counted as often as they met)."""
    return sum(met.get(frozenset(pair), 0) for table in tables for pair in combinations(table, 2))


def draw(players: list[str], met: dict[frozenset, int], rng: random.Random, tries: int = 50,
         sizes: list[int] | None = None) -> list[list[str]]:
    """Tables for a round (of ``sizes``, else :func:`table_sizes`): the draw with the fewest repeat opponents found
    over ``tries`` shuffles, each improved by swapping two players of different tables while a swap removes
    repeats."""
    sizes = sizes or table_sizes(len(players))

    def with_table(p: str, table: list[str], skip: str) -> int:
        return sum(met.get(frozenset((p, q)), 0) for q in table if q != skip and q != p)

    best: list[list[str]] | None = None
    best_cost = None
    for _ in range(tries):
        order = players[:]
        rng.shuffle(order)
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start:start + size])
            start += size
        cost = repeats(tables, met)
        improved = True
        while improved and cost:
            improved = False
            for a, b in combinations(range(len(tables)), 2):
                ta, tb = tables[a], tables[b]
                for i, x in enumerate(ta):
                    for j, y in enumerate(tb):
                        delta = (with_table(y, ta, x) + with_table(x, tb, y)
                                 - with_table(x, ta, x) - with_table(y, tb, y))
                        if delta < 0:
                            ta[i], tb[j] = y, x
                            x = y
                            cost += delta
                            improved = True
        if best_cost is None or cost < best_cost:
            best, best_cost = [t[:] for t in tables], cost
        if best_cost == 0:
            break
    assert best is not None, "a draw takes at least one try"
    return best


def met_counts(rounds: list[list[list[str]]]) -> dict[frozenset, int]:
    met: dict[frozenset, int] = {}
    for tables in rounds:
        for table in tables:
            for pair in combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    return met


def seeded(ranked: list[str], table_count: int) -> list[list[str]]:
    """Final tables from the standings: the top players first, spread snake-wise over the tables."""
    tables: list[list[str]] = [[] for _ in range(table_count)]
    for i, player in enumerate(ranked):
        lap, pos = divmod(i, table_count)
        tables[pos if lap % 2 == 0 else table_count - 1 - pos].append(player)
    return tables
