"""Instructions a simulated turn costs, counted by valgrind: the engine's ``referee simulate`` and, beside it, the
monopyly peer.

    .venv/bin/python benchmarks/instructions.py [--games 20] [--no-peer]

``peers.py`` times the two engines; on a shared machine its figures move by a tenth from one run to the next, so a
change of a few hundredths cannot be told from the machine.  valgrind's callgrind counts the instructions the CPU
runs, the same in every run of the same code (the string hashes fixed: ``PYTHONHASHSEED=0``): each program runs
twice, with 2 games and with ``2 + --games``, and the difference over the turns played between them is what a turn
costs, start-up and imports left out.  An instruction is not a unit of time (the two engines do not run as many in
a second: the peer's turn is more instructions than the engine's, and as fast), so compare each engine with itself
before and after a change, and the two with ``peers.py``.  About a minute (the runs go side by side).  Figures only.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT.parent / "shared" / "peers" / "mono_drive.py"


def counted(command: list[str], turns_of) -> tuple[int, int]:
    """The turns ``command`` played (read from its output by ``turns_of``) and the instructions it ran."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                         capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    collected = re.search(r"Collected : (\d+)", run.stderr)
    if collected is None:
        raise SystemExit(f"valgrind counted nothing: {run.stderr[-500:]}")
    return turns_of(run.stdout), int(collected.group(1))


def referee(games: int) -> list[str]:
    return [sys.executable, "-m", "referee.cli", "simulate", "--games", str(games), "--seed", "1", "--json"]


def referee_turns(out: str) -> int:
    return int(re.search(r'"turns": (\d+)', out).group(1))


def peer(games: int) -> list[str]:
    return [sys.executable, str(PEER), str(games), "1"]


def peer_turns(out: str) -> int:
    return int(re.search(r"(\d+) turns ", out).group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games counted beyond the first two (default 20)")
    parser.add_argument("--no-peer", action="store_true", help="count the engine alone")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted")
        return 1
    runs = [("referee simulate", referee, referee_turns)]
    if not args.no_peer and PEER.exists():
        runs.append(("monopyly", peer, peer_turns))
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [(name, pool.submit(counted, make(2), turns_of), pool.submit(counted, make(2 + args.games), turns_of))
                   for name, make, turns_of in runs]
        print(f"{'program':<18}{'turns counted':>14}{'instructions a turn':>22}")
        for name, few, many in futures:
            (t1, i1), (t2, i2) = few.result(), many.result()
            print(f"{name:<18}{t2 - t1:>14,}{(i2 - i1) // (t2 - t1):>22,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
