"""Engine benchmarks: replay throughput, simulation throughput, replay memory.

    python benchmarks/engine.py [--games 50] [--seed 1]

Targets (2-core machine): replay at least 50,000 events/s on a long record;
peak memory under 150 MB replaying a game of at least 10,000 events.
Prints figures; it does not fail on a miss (the issue note records them).
"""
from __future__ import annotations

import argparse
import random
import resource
import time
import tracemalloc

from referee.services import rulesets
from referee.engine import parse_record, replay
from referee.sim.simulate import play_game, simulate


def long_record(ruleset, seed: int, min_events: int) -> list[str]:
    """The record of the first random game from ``seed`` on with at least ``min_events`` events."""
    while True:
        game = play_game(ruleset, random.Random(seed), players=4, max_turns=4000, check=False)
        header, entries = parse_record(game.to_lines())
        events = [0]
        replay(ruleset, header, entries, lambda evs: events.__setitem__(0, events[0] + len(evs)))
        if events[0] >= min_events:
            return game.to_lines()
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="jma-2006")
    args = parser.parse_args()
    ruleset = rulesets.load(args.ruleset)

    lines = long_record(ruleset, args.seed, 10_000)
    header, entries = parse_record(lines)
    counted = [0]
    best = float("inf")
    for _ in range(5):
        counted[0] = 0
        start = time.perf_counter()
        replay(ruleset, header, entries, lambda evs: counted.__setitem__(0, counted[0] + len(evs)))
        best = min(best, time.perf_counter() - start)
    print(f"replay: {len(entries)} entries, {counted[0]} events, best of 5 {best:.3f} s: "
          f"{counted[0] / best:,.0f} events/s (target >= 50,000)")

    tracemalloc.start()
    header, entries = parse_record(lines)
    game = replay(ruleset, header, entries)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: replaying {counted[0]} events: Python heap peak {peak / 2**20:.1f} MB, "
          f"process max RSS {rss:.1f} MB (target < 150 MB); final turn {game.state.turn}")

    stats = simulate(ruleset, args.games, args.seed, max_turns=1000)
    print(f"simulate: {stats.games} games, {stats.turns} turns, {stats.events} events in {stats.seconds:.2f} s: "
          f"{stats.turns / stats.seconds:,.0f} turns/s, {stats.events / stats.seconds:,.0f} events/s "
          f"(invariants checked after every event; violations {stats.invariant_violations})")


if __name__ == "__main__":
    main()
