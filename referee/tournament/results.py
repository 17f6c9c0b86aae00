"""A finished game's result for the standings, taken from the engine's final ranking."""
from __future__ import annotations

from ..engine.ending import ranking
from ..engine.errors import IllegalEntry
from ..engine.state import GameOver, GameState
from .scoring import GameResult, PlayerResult


def game_result(state: GameState, round_: int, table: str) -> GameResult:
    """Rank, assets and monopoly win of every player (JMA: assets, then survival, then the roll-off)."""
    if not isinstance(state.pending, GameOver):
        raise IllegalEntry(f"table {table}: the game has not ended, so it has no result yet", code="not_over")
    monopoly = state.pending.reason == "monopoly"
    return GameResult(round_, table, tuple(
        PlayerResult(st.name, st.rank, st.assets.total, monopoly_win=monopoly and st.rank == 1)
        for st in ranking(state)))
