"""A demo tournament: players, and a completed round of real games played by the engine's random policy,
recorded entry by entry through the service as a tablet would."""
from __future__ import annotations

import random

from ..services import folds, games, progress, tournaments
from ..engine import legal_actions
from ..sim.policy import Policy

DEMO_PLAYERS = ["佐藤 葵", "鈴木 蓮", "高橋 陽菜", "田中 湊", "김민수", "이서연", "Jürgen Groß", "Anneliese Weiß"]
DEMO_PIN = "246802"


def play_table(game_id: int, rng: random.Random, max_turns: int) -> None:
    """Record a whole game on a table: random entries from the legal actions; time is called at max_turns."""
    policy = Policy(rng, "random")
    while True:
        loaded = folds.load(game_id)
        state = loaded.game.state
        if state.over:
            return
        if state.turn > max_turns and not state.time_called:
            data = {"type": "time_called", "note": "demo: the round's time ran out"}
        else:
            data = policy.choose(state, legal_actions(state)).to_dict()
        games.record(game_id, data, loaded.seq)


def build_demo(seed: int = 1, max_turns: int = 120, players: list[str] | None = None) -> int:
    tournament_id = tournaments.create_tournament("Demo tournament / デモ大会", "jma-placement", "jma-2006",
                                              players or DEMO_PLAYERS, DEMO_PIN, [70, 60, 60])
    progress.seat_round(tournament_id)
    rng = random.Random(seed)
    for view in tournaments.round_overview(tournament_id, 1):
        play_table(view.game_id, rng, max_turns)
    return tournament_id
