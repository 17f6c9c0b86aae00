"""A demo tournament: players, and a completed round of real games played by the engine's random policy,
recorded through the service, each entry checked as a tablet's are."""
from __future__ import annotations

import random

from ..services import folds, games, progress, tournaments
from ..engine import legal_actions, parse_entry
from ..sim.policy import Policy

DEMO_PLAYERS = ["佐藤 葵", "鈴木 蓮", "高橋 陽菜", "田中 湊", "김민수", "이서연", "Jürgen Groß", "Anneliese Weiß"]
DEMO_PIN = "246802"


def play_table(game_id: int, rng: random.Random, max_turns: int) -> None:
    """Record a whole game on a table: random entries from the legal actions; time is called at max_turns.  Played
    on a copy of the table, then recorded as one run through the service (each entry checked against the table the
    one before leaves, as a tablet's kept taps are): one commit a table rather than one an entry."""
    policy = Policy(rng, "random")
    loaded = folds.load(game_id)
    game, run = loaded.game.copy(), []
    while not game.state.over:
        state = game.state
        if state.turn > max_turns and not state.time_called:
            data = {"type": "time_called", "note": "demo: the round's time ran out"}
        else:
            data = policy.choose(state, legal_actions(state)).to_dict()
        game.record(parse_entry(data))
        run.append(data)
    if run:
        games.record_run(game_id, run, loaded.seq)


def build_demo(seed: int = 1, max_turns: int = 120, players: list[str] | None = None) -> int:
    tournament_id = tournaments.create_tournament("Demo tournament / デモ大会", "jma-placement", "jma-2006",
                                              players or DEMO_PLAYERS, DEMO_PIN, [70, 60, 60])
    progress.seat_round(tournament_id)
    rng = random.Random(seed)
    for view in tournaments.round_overview(tournament_id, 1):
        play_table(view.game_id, rng, max_turns)
    return tournament_id
