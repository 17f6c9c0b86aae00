"""The director's page and the room display while a round plays: the server's CPU for a changed poll, and where it
goes (the goal: under 10 ms at 64 tables).

    .venv/bin/python benchmarks/director.py [--tables 64] [--changed 20] [--polls 40] [--rounds 1] [--turns 30]
                                            [--tablets 2]

Seats one round of ``--tables`` tables (4 players each) in a fresh SQLite database, unlocks ``--tablets`` tablets at
each and records 6 entries at each (the simulator's random players); then, ``--polls`` times, ``--changed`` tables each record an entry (at 64 tables a
room records about 20 entries a second: most tables change between two polls a second apart) and the director's
page asks for its live region once, as htmx does after a change (the Flask test client, in this process): naming a
version this process did not draw (the whole region), then the version of its last answer (the parts changed since,
each swapped in place); then the same for one room display.  Prints the median server CPU (this thread's) and size
of a changed poll of each, and for the director's page the median of each part of it, timed one after the other in
a request of its own after the same changes (the version read, the tournament's seating: its rounds, tables and
corrections; the tables' values, where the tournament stands, the devices unlocked, the tables' cards, the region drawn whole, its parts
changed since the last poll, the whole region's frame).  Figures only: nothing is asserted.
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import logging
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import render_template  # noqa: E402

from referee import create_app  # noqa: E402
from referee.app.demo import play_table  # noqa: E402
from referee.engine import legal_actions  # noqa: E402
from referee.services import folds, games, grants, progress, tournaments  # noqa: E402
from referee.sim.policy import Policy  # noqa: E402
from referee.store.db import db  # noqa: E402
from referee.web import access  # noqa: E402
from referee.web.views import tournaments as views  # noqa: E402
from referee.web.views import director_live  # noqa: E402
from referee.web.views.cards import table_cards  # noqa: E402

PIN = "135790"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--changed", type=int, default=20)
    parser.add_argument("--polls", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=1,
                        help="the round in play: the rounds before it played out, each table's game to --turns")
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--tablets", type=int, default=2,
                        help="tablets unlocked at each table of the round in play (the director's page lists them: "
                             "load.py's room unlocks two, the one recording and the one following)")
    parser.add_argument("--profile", choices=("live", "display"),
                        help="cProfile the changed polls of the director's page (live: the parts changed since) or "
                             "of the room display, and print the app's top entries")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    folder = Path(tempfile.mkdtemp(prefix="referee-director-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'director.sqlite'}", "SECRET_KEY": "bench",
                      "WTF_CSRF_ENABLED": False, "BACKUP_MINUTES": 0})
    policy = Policy(random.Random(1), "random")
    with app.app_context():
        players = [f"Player {n:03d}" for n in range(1, 4 * args.tables + 1)]
        tid = tournaments.create_tournament("Director's bench", "jma-placement", "jma-2006", players, PIN, [90])
        for number in range(1, args.rounds + 1):  # the rounds before: each table played out (time called at turn
            # --turns), the next round seated
            progress.seat_round(tid, number)
            if number < args.rounds:
                for k, t in enumerate(tournaments.round_overview(tid, number)):
                    play_table(t.game_id, random.Random(k), args.turns)
            db.session.remove()
        ids = [t.game_id for t in tournaments.round_overview(tid, args.rounds)]
        for game_id in ids:
            for _ in range(args.tablets):
                grants.open_grant(grants.GAME, game_id, "Safari · iPad", 240, [])
    turn = [0]

    def changes(count: int) -> None:
        """``count`` tables (the next ones in turn) each record an entry."""
        with app.app_context():
            for _ in range(count):
                game_id = ids[turn[0] % len(ids)]
                turn[0] += 1
                loaded = folds.load(game_id)
                state = loaded.game.state
                games.record(game_id, policy.choose(state, legal_actions(state)).to_dict(), loaded.seq)

    changes(6 * len(ids))
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": PIN})
    gc.collect()
    gc.freeze()  # as the app's server does once started (referee/app/__init__.py): what is made since is collected

    profile = cProfile.Profile()

    def polled(page: str, following: bool) -> list[float]:
        """A changed poll's server CPU: ``following``, naming the version of the last answer, as htmx does (the
        director's page then answered with its parts changed since, each swapped in place); else naming none this
        process drew (as after another host's answer: the whole region)."""
        spent, named = [], "v=none"
        for _ in range(args.polls):
            changes(args.changed)
            profiled = args.profile and following and page == args.profile
            if profiled:
                profile.enable()
            start = time.thread_time()
            answer = director.get(f"/tournaments/{tid}/{page}?{named if following else 'v=none'}",
                                  headers={"HX-Request": "true"})
            spent.append(time.thread_time() - start)
            if profiled:
                profile.disable()
            assert answer.status_code == 200, answer.status_code
            if answer.headers.get("Live-Version"):  # the version and drawing the changes bring the page to
                named = f"v={answer.headers['Live-Version']}&d={answer.headers['Live-Drawing']}"
            else:  # as the region's poll names them
                named = re.search(r'hx-get="[^"?]*\?([^"]+)"', answer.get_data(as_text=True)).group(1)
                named = named.replace("&amp;", "&")
            sizes.append(len(answer.get_data()))
        return spent[5:]  # the first answers draw every card

    print(f"{args.tables} tables, round {args.rounds} in play ({args.rounds - 1} played out before it), "
          f"{args.changed} of its tables changed between two polls, {args.polls} polls")
    for page, name, following in (("live", "the director's page, the whole region", False),
                                  ("live", "the director's page, the parts changed since the last answer", True),
                                  ("display", "a room display", True)):
        sizes: list[int] = []
        spent = polled(page, following)
        print(f"  {name}: a changed poll {statistics.median(spent) * 1000:.2f} ms of server CPU (median), "
              f"{statistics.median(sizes) / 1000:.1f} kB (not compressed)")

    if args.profile:
        pstats.Stats(profile).sort_stats("cumtime").print_stats(r"referee/", 40)
    parts: dict[str, list[float]] = {}

    def timed(name: str, work, *values, **named):
        start = time.thread_time()
        value = work(*values, **named)
        parts.setdefault(name, []).append(time.thread_time() - start)
        return value

    last = ["none"]
    for k in range(args.polls):
        changes(args.changed)
        with app.test_request_context(f"/tournaments/{tid}/live", headers={"HX-Request": "true"}):
            app.preprocess_request()  # as a request begins: the device's language bound, as the views find it
            if k == 0:
                access.grant(access.DIRECTOR, tid)
            version = timed("the version read", tournaments.live_version, tid)
            row = tournaments.get_tournament(tid)
            seated = timed("the tournament's rounds, tables and corrections (read as values)", tournaments.seating,
                           tid)
            rounds = timed("the tables' values (round_overview)", lambda: [
                (r, tournaments.round_overview(row.id, r.number, views.pending_words, version)) for r in seated])
            timed("where the tournament stands", progress.progress_and_version, tid, version)
            devices = timed("the devices unlocked", access.devices, tid, version.unlocked)
            timed("the tables' cards", table_cards, row, [t for _, tables in rounds for t in tables], devices)
            context = views._live_context(row, version)  # (its parts above now kept or read once)
            timed("the region drawn whole", director_live.region, context, None)
            changed = timed("the region's parts changed since the last poll", director_live.region, context, last[0])
            timed("the whole region's frame", render_template, "tournaments/_live.html", **context)
            last[0] = changed.drawing
            db.session.remove()
    print("  the director's page, part by part (median ms of server CPU):")
    for name, spent in parts.items():
        print(f"    {name}: {statistics.median(spent[5:]) * 1000:.2f}")


if __name__ == "__main__":
    main()
