"""The tournament's public pages followed by a room: the public standings on players' phones, and the room
displays (a hall's projectors, the screens by its doors): the server's CPU for each device's changed poll.

    .venv/bin/python benchmarks/room.py [--players 256] [--phones 64] [--finished 40] [--displays 8]

Seats one round of a tournament of ``--players`` in a fresh SQLite database (tables of 4), plays ``--finished`` of its
tables to their end (the demo's random players, time called after 6 turns) (their players get lines in the standings), notes the standings' version as a phone saw it,
finishes one table more (the places change), then has ``--phones`` phones, each following with its own player's
name (``?me=``, "Your line"), ask for the standings' live region once, as htmx does after a change, through the
Flask test client in this process; then ``--displays`` room displays ask for the room display's live region once
each after that change.  Prints, for each page, the server's CPU (this thread's) for the first answer and on average
for the others, and for all of them together.  Figures only: nothing is asserted.
"""
from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import create_app  # noqa: E402
from referee.app.demo import play_table  # noqa: E402
from referee.engine import legal_actions  # noqa: E402
from referee.services import folds, games, progress, tournaments  # noqa: E402
from referee.sim.policy import Policy  # noqa: E402


def asked_once(app, tid: int, page: str, queries: list[dict]) -> list[float]:
    """Each device (a client of its own) asks for the page's live region once, as htmx does after a change: the
    server's CPU (this thread's) for each answer, in seconds."""
    spent = []
    for query in queries:
        device = app.test_client()
        start = time.thread_time()
        answer = device.get(f"/tournaments/{tid}/{page}", query_string=query, headers={"HX-Request": "true"})
        spent.append(time.thread_time() - start)
        assert answer.status_code == 200, answer.status_code
    return spent


def report(name: str, spent: list[float]) -> None:
    others = sum(spent[1:]) * 1000 / max(1, len(spent) - 1)
    print(f"{name}:")
    print(f"  the first answer {spent[0] * 1000:.2f} ms of server CPU; the others {others:.2f} ms each")
    print(f"  all of them {sum(spent) * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--phones", type=int, default=64)
    parser.add_argument("--finished", type=int, default=40)
    parser.add_argument("--displays", type=int, default=8)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    folder = tempfile.mkdtemp()
    app = create_app({"SECRET_KEY": "room-benchmark", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/r.sqlite"})
    players = [f"Spieler {n:03d}" for n in range(args.players)]
    with app.app_context():
        tid = tournaments.create_tournament("Room", "jma-placement", "jma-2006", players, "135791", [60])
        progress.seat_round(tid)
        tables = tournaments.round_overview(tid, 1)
        rng = random.Random(1)
        for view in tables[:args.finished]:
            play_table(view.game_id, rng, 6)
        before = progress.progress_and_version(tid)[1]
        play_table(tables[args.finished].game_id, rng, 6)
        listed = len(progress.tournament_standings(tid))
    phones = [{"v": before, "me": players[k % len(players)]} for k in range(args.phones)]
    report(f"{args.phones} phones after a table finished ({listed} lines listed, {args.players} players)",
           asked_once(app, tid, "standings", phones))
    with app.app_context():
        shown = tournaments.live_version(tid).token  # the room display's version as the displays saw it
        game_id = tables[args.finished + 1].game_id  # then an entry on a table in play
        loaded = folds.load(game_id)
        state = loaded.game.state
        games.record(game_id, Policy(rng, "random").choose(state, legal_actions(state)).to_dict(), loaded.seq)
    report(f"{args.displays} room displays after an entry ({len(tables)} tables)",
           asked_once(app, tid, "display", [{"v": shown}] * args.displays))


if __name__ == "__main__":
    main()
