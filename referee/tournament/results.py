"""A finished game's result for the standings, taken from the engine's final ranking."""
from __future__ import annotations

from ..engine import GameOver, GameState, IllegalEntry, RollOff, ranking
from .corrections import BY_ASSETS, BY_BANKRUPTCY, BY_MONOPOLY, BY_ROLLOFF
from .scoring import GameResult, PlayerResult


def game_result(state: GameState, round_: int, table: str) -> GameResult:
    """Rank, assets and monopoly win of every player (JMA: assets, then survival, then the roll-off)."""
    if not isinstance(state.pending, GameOver):
        raise IllegalEntry(f"table {table}: the game has not ended, so it has no result yet", code="not_over")
    return kept_result(final_result(state), round_, table)


def final_result(state: GameState) -> dict:
    """What a finished game's result keeps (stored with the game when it ends): how it ended and each player's
    rank, name and assets, and the rule that ranked them there (:data:`corrections.BY`)."""
    over = state.pending
    if not isinstance(over, (RollOff, GameOver)):
        raise ValueError("a game that has not ended has no result")
    reason = over.reason
    return {"reason": reason, "ranking": [
        {"rank": st.rank, "name": st.name, "total": st.assets.total, "bankrupt_order": st.bankrupt_order,
         "by": BY_ROLLOFF if st.rolloff else BY_BANKRUPTCY if st.bankrupt_order
         else BY_MONOPOLY if reason == "monopoly" else BY_ASSETS}
        for st in ranking(state)]}


def kept_result(kept: dict, round_: int, table: str) -> GameResult:
    """The standings' view of a result kept by :func:`final_result`."""
    monopoly = kept["reason"] == "monopoly"
    return GameResult(round_, table, tuple(
        PlayerResult(p["name"], p["rank"], p["total"], monopoly_win=monopoly and p["rank"] == 1)
        for p in kept["ranking"]))
