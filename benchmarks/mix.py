"""load.py's mix of requests in one thread, without the network: the server's CPU for each kind of answer.

    .venv/bin/python benchmarks/mix.py [--tables 16] [--rounds 10] [--profile "poll 200,table GET"] [--sort cumtime]

Seats one round of ``--tables`` tables in a fresh SQLite database (as load.py does) and, ``--rounds`` times, at each
table: the first tablet records one legal entry as the table screen's form sends it (303), then loads the table
screen it is sent on to, the second tablet's poll finds the change (200) and polls twice more (204); then the room display and the
director's page poll once changed and twice not.  Each request through the Flask test client in this thread, the
devices saying they read gzip as browsers do.  Prints, for each kind, the thread's CPU a request and the app's own
figure (its Server-Timing header), and ``/ping`` (Flask's request and nothing else); with ``--profile``, cProfile's
top entries for the kinds named.  Figures without the server's threads, its HTTP or the machine's other work: a
kind's cost under load is 1.3-1.6 times this (benchmarks/NOTES.md); compare commits one after the other.
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import gzip
import logging
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402
from referee import create_app  # noqa: E402
from referee.engine import legal_actions, parse_entry  # noqa: E402
from referee.sim.policy import Policy  # noqa: E402

GZIP = {"Accept-Encoding": "gzip"}
HX = {"HX-Request": "true", **GZIP}


def text(answer) -> str:
    raw = answer.get_data()
    return (gzip.decompress(raw) if answer.headers.get("Content-Encoding") == "gzip" else raw).decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--profile", default="", help="kinds to profile, joined by commas")
    parser.add_argument("--sort", default="cumtime")
    parser.add_argument("--dump", default="", help="a folder to write each profiled kind's stats to (pstats files)")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    url = f"sqlite:///{tempfile.mkdtemp(prefix='referee-mix-')}/mix.sqlite"
    tid, seated = load.seat(url, args.tables)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": load.SECRET, "SERVER_TIMING": True})

    def unlocked(path: str, pin: str):
        client = app.test_client()
        answer = client.post(path, data={"csrf_token": load.token(text(client.get(path))), "pin": pin})
        assert answer.status_code == 302, answer.status_code
        return client

    tables = []
    for game_id, pin, game in seated:
        first, second = unlocked(f"/games/{game_id}/unlock", pin), unlocked(f"/games/{game_id}/unlock", pin)
        screen = text(first.get(f"/games/{game_id}"))
        seen = load.live_version(text(second.get(f"/games/{game_id}")), "tablelive")
        tables.append([first, second, game_id, game, screen, seen, Policy(random.Random(game_id), "random")])
    room = app.test_client()
    room_seen = load.live_version(text(room.get(f"/tournaments/{tid}/display")), "display-live")
    director = unlocked(f"/tournaments/{tid}/unlock", load.DIRECTOR_PIN)
    director_seen = load.live_version(text(director.get(f"/tournaments/{tid}")), "live-rounds")
    gc.collect()
    gc.freeze()  # as the app's server does once started (referee/app/__init__.py)
    profiled = {kind: cProfile.Profile() for kind in args.profile.split(",") if kind}
    cpu: dict[str, float] = {}
    own: dict[str, float] = {}
    count: dict[str, int] = {}

    def timed(kind: str, request, status: int):
        profile = profiled.get(kind)
        start = time.thread_time()
        if profile:
            profile.enable()
        answer = request()
        if profile:
            profile.disable()
        cpu[kind] = cpu.get(kind, 0.0) + time.thread_time() - start
        count[kind] = count.get(kind, 0) + 1
        own[kind] = own.get(kind, 0.0) + float(answer.headers["Server-Timing"].split("dur=")[1])
        assert answer.status_code == status, (kind, answer.status_code)
        return answer

    for _ in range(args.rounds):
        for table in tables:
            first, second, game_id, game, screen, seen, policy = table
            chosen = policy.choose(game.state, legal_actions(game.state)).to_dict()
            form = {"csrf_token": load.token(screen), "seq": len(game.entries), "entry_key": load.entry_key(screen),
                    **load.form_fields(chosen)}
            sent = timed("record POST", lambda: first.post(f"/games/{game_id}/record", data=form, headers=GZIP), 303)
            to = sent.headers["Location"]  # the table screen, as the browser follows the answer
            table[4] = text(timed("table GET", lambda: first.get(to, headers=GZIP), 200))
            game.record(parse_entry(chosen))
            answer = timed("poll 200", lambda: second.get(f"/games/{game_id}?v={seen}", headers=HX), 200)
            table[5] = seen = load.live_version(text(answer), "tablelive")
            for _ in range(2):
                timed("poll 204", lambda: second.get(f"/games/{game_id}?v={seen}", headers=HX), 204)
        answer = timed("room 200", lambda: room.get(f"/tournaments/{tid}/display?v={room_seen}", headers=HX), 200)
        room_seen = load.live_version(text(answer), "display-live")
        answer = timed("director 200", lambda: director.get(f"/tournaments/{tid}/live?v={director_seen}",
                                                             headers=HX), 200)
        director_seen = answer.headers.get("Live-Version") or load.live_version(text(answer), "live-rounds")
        for _ in range(2):
            timed("room 204", lambda: room.get(f"/tournaments/{tid}/display?v={room_seen}", headers=HX), 204)
            timed("director 204", lambda: director.get(f"/tournaments/{tid}/live?v={director_seen}", headers=HX),
                  204)
    print(f"{args.tables} tables, {args.rounds} rounds (server ms: this thread's CPU a request; the app's own, "
          "its Server-Timing)")
    for kind in cpu:
        print(f"  {kind:14} {count[kind]:5}  {1000 * cpu[kind] / count[kind]:6.2f}  {own[kind] / count[kind]:6.2f}")
    start = time.thread_time()
    for _ in range(300):
        app.test_client().get("/ping")
    print(f"  /ping           300  {1000 * (time.thread_time() - start) / 300:6.2f}")
    for kind, profile in profiled.items():
        print(f"=== {kind}")
        pstats.Stats(profile).sort_stats(args.sort).print_stats(40)
        if args.dump:
            Path(args.dump).mkdir(parents=True, exist_ok=True)
            profile.dump_stats(Path(args.dump) / (kind.replace(" ", "_").replace("/", "") + ".pstats"))


if __name__ == "__main__":
    main()
