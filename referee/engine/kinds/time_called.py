"""Time called: the referee (or the tournament's director, for every table at once) ends the round's playing time.

JMA 2006, 時間ゲーム: "あらかじめゲーム終了時間を合意の上で決めておき、その時点でもっともお金持ちのプレイヤーを勝ちとします。"
補足ルール: "ゲーム時間は、大会規定により決めます。"  What happens after the call is the ruleset's option
``after_time_called`` (the round played out, one more roll, or the game ended at once); the rules end the game when
it is done (:func:`..ending.time_is_up`), and rank the players by their assets.

Recorded whatever the decision awaited, once a game has begun, and only once.
"""
from __future__ import annotations

from .. import events as ev
from ..bankruptcy import go_bankrupt
from ..ending import end_game
from ..entries import Action, Entry
from ..facts import raisable_cash
from ..phrases import Waiting
from ..registry import EntryType, register
from ..state import Auction, BidPayment, BuildingAuction, BuildRound, Debt, GameState, PlaceBuilding, SeatingRoll
from ..step import Step


def time_actions(state: GameState, player: int | None = None) -> list[Action]:
    """Calling time, until it has been called (no one's: ``player`` asks for none)."""
    return [] if state.time_called or player is not None else [Action("time_called")]


def _time_called(step: Step, entry: Entry) -> None:
    s = step.state
    if s.time_called:
        raise step.refuse("time_already_called", "time has already been called", "after_time_called")
    if isinstance(s.pending, SeatingRoll):
        raise step.refuse("not_started", "the game has not started: {pending}", "after_time_called", pending=Waiting())
    step.emit(ev.TimeCalled())
    p = s.pending
    if isinstance(p, Auction):
        step.emit(ev.AwaitingDecision(None))  # the auction in progress is void: the deed stays with the bank
    elif isinstance(p, BuildRound):
        step.emit(ev.AwaitingDecision(p.back_to))  # unfinished building is void
    elif isinstance(p, (BuildingAuction, PlaceBuilding)):
        step.emit(ev.AwaitingDecision(p.round.back_to))  # likewise
    elif isinstance(p, BidPayment) and p.round:
        step.emit(ev.AwaitingDecision(p.round.back_to))  # likewise, a building won and not yet paid for
    # a deed's winning bid still being raised (BidPayment with a square) stands: the hammer settled the sale
    elif isinstance(p, Debt) and raisable_cash(s, p.debtor) < p.amount:
        go_bankrupt(step, p)  # a provisional bankruptcy becomes a bankruptcy
    if s.ruleset.options.after_time_called == "at_once" and not s.over:
        _end_at_once(step)


def _end_at_once(step: Step) -> None:
    """Classic rules (seed 003), time restriction game: The participant will win the richest at the time of the end
    of the game.  What is open ends with the game (a purchase not made, a roll not rolled); a payment being made is
    made first (the game ends when it is settled)."""
    p = step.state.pending
    if isinstance(p, (Debt, BidPayment)):
        return
    end_game(step, "time")


TIME_CALLED = register(EntryType("time_called", (), _time_called, offered=time_actions))
