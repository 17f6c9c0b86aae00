"""The engine beside a plain Python peer, measured in one run (issue 13).

    .venv/bin/python benchmarks/peers.py [--rounds 3] [--repeats 3] [--games 200] [--peer-games 100]

Runs ``../shared/peers/mono_drive.py`` (monopyly with four of its sample AIs) and ``referee simulate`` (every
invariant checked) in turn, interleaved, ``--rounds`` times, each in its own process, and prints each one's
turns played, turns per second and their ratio (referee / monopyly; goal >= 1.0, then 3.0).  The two play
samples of about the same size: monopyly's 100 games make about 50,000 turns; referee's games end at a time
called at random, so 200 of them make about as many.  (With 40, about 9,000 turns, the figure of a round
depended on which few long, building-heavy games its seed drew: from 0.85 to 1.05 of the peer's, seed by
seed, on the same engine.)  This machine's speed drifts by a tenth and more from one second to the next: in
each round each engine runs ``--repeats`` times, the two alternating (each first in turn), and its best
figure counts (as timeit keeps the best of its runs: what slows a run down is the machine, not the engine),
so that one slow second for one of them does not decide the round (with two runs each, a slow spell still
took a round now and then: one of 0.86 beside rounds of 1.04 to 1.29 in one sitting).  Then, in this process:
``legal_actions`` calls per second over the states of simulated games, and replay events per second over a
long record.  Figures only: nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT.parent / "shared" / "peers" / "mono_drive.py"


def peer_turns_per_second(games: int, seed: int) -> tuple[int, float]:
    """The turns monopyly played and its turns per second."""
    out = subprocess.run([sys.executable, str(PEER), str(games), str(seed)], capture_output=True, text=True,
                         check=True).stdout
    return int(re.search(r"(\d+) turns ", out).group(1)), float(re.search(r"([\d.]+) turns/s", out).group(1))


def referee_turns_per_second(games: int, seed: int) -> tuple[int, float]:
    """The turns ``referee simulate`` played and its turns per second."""
    out = subprocess.run([sys.executable, "-m", "referee.cli", "simulate", "--games", str(games), "--seed",
                          str(seed), "--json"], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    data = json.loads(out)
    if data.get("invariant_violations"):
        print(f"  referee simulate reported {data['invariant_violations']} invariant violations")
    return int(data["turns"]), float(data["turns_per_second"])


def legal_actions_per_second(games: int = 5, seed: int = 1) -> float:
    from referee.services import rulesets
    from referee.engine import legal_actions
    from referee.sim.simulate import play_game

    ruleset = rulesets.load("jma-2006")
    states = []
    for g in range(games):
        game = play_game(ruleset, random.Random(seed + g), players=4, max_turns=300, check=False)
        states.extend(game.state_after(n) for n in range(0, len(game.entries), 7))
    best = float("inf")
    for _ in range(3):  # the best of three passes: this machine's speed drifts
        start = time.perf_counter()
        for state in states:
            legal_actions(state)
        best = min(best, time.perf_counter() - start)
    return len(states) / best


def replay_per_second(seed: int = 1, min_events: int = 20_000) -> tuple[float, float]:
    """Replay speed over the first random game with ``min_events`` events: events and entries per second (the
    engine's events per entry change as its events are refined; entries are what a record holds)."""
    from referee.services import rulesets
    from referee.engine import parse_record, replay
    from referee.sim.simulate import play_game

    ruleset = rulesets.load("jma-2006")
    while True:
        lines = play_game(ruleset, random.Random(seed), players=4, max_turns=4000, check=False).to_lines()
        header, entries = parse_record(lines)
        events = [0]
        seconds = float("inf")
        for _ in range(3):  # the best of three replays
            events[0] = 0
            start = time.perf_counter()
            replay(ruleset, header, entries, lambda evs: events.__setitem__(0, events[0] + len(evs)))
            seconds = min(seconds, time.perf_counter() - start)
        if events[0] >= min_events:
            return events[0] / seconds, len(entries) / seconds
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each engine in a round, the best counting")
    parser.add_argument("--games", type=int, default=200, help="referee simulate games per round")
    parser.add_argument("--peer-games", type=int, default=100, help="monopyly games per round")
    args = parser.parse_args()
    if min(args.rounds, args.repeats, args.games, args.peer_games) < 1:
        parser.error("--rounds, --repeats, --games and --peer-games are at least 1")
    if not PEER.exists():
        sys.exit(f"benchmarks/peers.py: the peer is not at {PEER}")
    ratios = []
    print(f"{'round':>5}  {'monopyly turns':>14}  {'turns/s':>8}  {'referee turns':>13}  {'turns/s':>8}  {'ratio':>6}")
    for n in range(1, args.rounds + 1):
        runs = (lambda: peer_turns_per_second(args.peer_games, n), lambda: referee_turns_per_second(args.games, n))
        turns, best = [0, 0], [0.0, 0.0]  # monopyly's, referee's
        for run in range(args.repeats):  # alternating, each first in turn; the same seed, so the same games
            for k in ((0, 1) if run % 2 == 0 else (1, 0)):
                turns[k], speed = runs[k]()
                best[k] = max(best[k], speed)
        (peer_turns, our_turns), (peer, ours) = turns, best
        ratios.append(ours / peer)
        print(f"{n:>5}  {peer_turns:>14,}  {peer:>8,.0f}  {our_turns:>13,}  {ours:>8,.0f}  {ours / peer:>6.3f}")
    print(f"ratio referee/monopyly: median {statistics.median(ratios):.3f} (goal >= 1.0, then 3.0)")
    print(f"legal_actions: {legal_actions_per_second():,.0f} calls/s")
    events, entries = replay_per_second()
    print(f"replay: {events:,.0f} events/s (goal >= 500,000), {entries:,.0f} entries/s")


if __name__ == "__main__":
    main()
