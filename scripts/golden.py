"""Keep the golden records in tests/golden/ (see its README).

    .venv/bin/python scripts/golden.py expected tests/golden/NAME.jsonl
        writes NAME.expected.json: the final state the engine reaches by replaying the record;
    .venv/bin/python scripts/golden.py continue tests/golden/NAME.jsonl --keep N --seed S [--time-at T]
        keeps the first N entries and plays the game on from there with `referee simulate`'s random
        players (time called once turn T is over), for a simulated record that a rule change made
        illegal from entry N+1 on; then writes the expected file.

Read the difference (git diff) before committing a regenerated record.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.services import rulesets  # noqa: E402
from referee.engine import Entry, Game, legal_actions, parse_record, ranking, replay  # noqa: E402
from referee.sim.simulate import Policy  # noqa: E402


def load(path: Path) -> Game:
    header, entries = parse_record(path.read_text(encoding="utf-8").splitlines())
    return replay(rulesets.for_header(header), header, entries)


def expected(game: Game) -> dict:
    state = game.state
    out: dict = {"players": {}, "turn_order": [p.name for p in state.players], "entries": len(game.entries),
                 "effective_entries": len(game.effective)}
    for i, p in enumerate(state.players):
        out["players"][p.name] = {
            "cash": p.cash, "position": p.position, "in_jail": p.in_jail,
            "deeds": [state.ruleset.squares[sq].id for sq in state.deeds_of(i)], "jail_cards": p.jail_cards,
            "bankrupt": p.bankrupt,
        }
    if state.over:
        out["end"] = state.pending.reason
        out["ranking"] = [{"rank": st.rank, "name": st.name, "assets": st.assets.as_dict(),
                           "bankrupt_order": st.bankrupt_order, "rolloff": list(st.rolloff)} for st in ranking(state)]
    return out


def write_expected(path: Path, game: Game) -> None:
    target = path.with_suffix(".expected.json")
    target.write_text(json.dumps(expected(game), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {target}")


def play_on(game: Game, seed: int, time_at: int | None) -> None:
    policy = Policy(random.Random(seed), "random")
    while not game.state.over:
        state = game.state
        if time_at is not None and state.turn > time_at and not state.time_called:
            game.record(Entry("time_called"))
        else:
            game.record(policy.choose(state, legal_actions(state)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("expected")
    ex.add_argument("record", type=Path)
    co = sub.add_parser("continue")
    co.add_argument("record", type=Path)
    co.add_argument("--keep", type=int, required=True)
    co.add_argument("--seed", type=int, required=True)
    co.add_argument("--time-at", type=int)
    args = parser.parse_args()
    if args.command == "expected":
        write_expected(args.record, load(args.record))
        return 0
    lines = args.record.read_text(encoding="utf-8").splitlines()
    header, entries = parse_record(lines)
    game = replay(rulesets.for_header(header), header, entries[:args.keep])
    play_on(game, args.seed, args.time_at)
    args.record.write_text("\n".join(game.to_lines()) + "\n", encoding="utf-8")
    print(f"wrote {args.record}: {args.keep} entries kept, {len(game.entries) - args.keep} played on")
    write_expected(args.record, game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
