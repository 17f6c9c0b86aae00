"""When an entry may be made: JMA's time between turns, a payment being settled, time called; and the game clock
as a value (:class:`Clock`).

Each function here says why not (an :class:`~.errors.IllegalEntry`, citing the clause) or gives None.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import IllegalEntry, illegal
from .phrases import Act, EntryKind, Waiting, Player
from .state import (AwaitRoll, Auction, BidPayment, BuildRound, BuyOrAuction, DealDeeds, Debt, GameOver, GameState,
                    JailFine, RollOff, SeatingRoll)


# the seating roll-off, the deeds dealt before the first roll, the game over and its ranking roll-off: no deed is
# mortgaged or sold then (legal_actions lists nothing but the deal or the rolls)
_BEFORE_OR_AFTER_PLAY = frozenset((SeatingRoll, DealDeeds, GameOver, RollOff))  # by type: no pending is subclassed


def not_now(state: GameState, entry_type: str, clause: str, code: str = "not_now") -> IllegalEntry:
    return illegal(state, code, "{entry} cannot be recorded now: {pending}", clause, entry=EntryKind(entry_type),
                   pending=Waiting())


def turn_refusal(state: GameState, player: int, act: str, code: str, clause: str) -> IllegalEntry:
    """Why ``player`` may not ``act`` (an entry type) now, when it waits for the time between turns: the roller's
    doubles, a payment being settled, or else what the table waits for."""
    p = state.pending
    if isinstance(p, AwaitRoll) and p.player == state.current and state.doubles:
        return illegal(state, code, "{player} rolled doubles and rolls again: the turn is not over", clause,
                       player=Player(p.player))
    if isinstance(p, AwaitRoll) and p.player == state.current and state.turn_started:
        return illegal(state, code, "{player} has left jail and rolls next: the turn is not over", clause,
                       player=Player(p.player))
    if isinstance(p, (Debt, BidPayment)):
        return illegal(state, code, "{player} cannot {act} while a payment is being settled: {pending}", clause,
                       player=Player(player), act=Act(act), pending=Waiting())
    return illegal(state, code, "{player} cannot {act} now: {pending}", clause, player=Player(player), act=Act(act),
                   pending=Waiting())


def open_to_all(state: GameState) -> bool:
    """The part of :func:`timing_allows` that is the same for every player: whether every player still in the game
    may mortgage, lift a mortgage and sell buildings now (between turns, or at any time where the rules say so)."""
    p = state.pending
    return (p is not None and type(p) not in _BEFORE_OR_AFTER_PLAY
            and (state.ruleset.options.mortgage_timing == "any_time" or state.between_turns))


def timing_allows(state: GameState, player: int, for_payment: bool, negotiating: bool = False) -> bool:
    """JMA 補足ルール: outside the time between turns a deed may be mortgaged only to pay for a purchase
    (auctions included), a debt, or in debt negotiation; a mortgage is lifted only between turns.  Whether
    ``player`` may do so now (``for_payment``: to mortgage or sell; ``negotiating``: any player in debt
    negotiation may); :func:`timing_refusal` says why not."""
    if state.players[player].bankrupt:
        return False
    if open_to_all(state):
        return True
    p = state.pending
    if p is None or type(p) in _BEFORE_OR_AFTER_PLAY:
        return False
    return for_payment and (
        (isinstance(p, (BuyOrAuction, JailFine, BidPayment)) and p.player == player)
        or isinstance(p, Auction)
        or (isinstance(p, Debt) and (p.debtor == player or negotiating))  # 負債交渉において必要な現金を捻出する場合
    )


def timing_refusal(state: GameState, player: int, what: str, for_payment: bool,
                   negotiating: bool = False) -> IllegalEntry | None:
    """Why ``player`` may not ``what`` (an entry type) now by :func:`timing_allows`, or None."""
    if timing_allows(state, player, for_payment, negotiating):
        return None
    p = state.pending
    if p is None or type(p) in _BEFORE_OR_AFTER_PLAY:
        return not_now(state, what, "mortgage_timing")
    if state.players[player].bankrupt:
        return illegal(state, "bankrupt", "{player} is bankrupt", "bankruptcy", player=Player(player))
    return turn_refusal(state, player, what, "not_between_turns", "mortgage_timing")


def build_timing_allows(state: GameState, player: int) -> bool:
    """JMA 補足ルール: building happens between turns, not during doubles or an unsettled payment; after time is
    called, never.  Whether ``player`` may declare buildings now; :func:`build_timing_refusal` says why not."""
    p = state.pending
    return (build_time(state) and (type(p) is not BuildRound or player not in p.excluded)
            and (state.ruleset.options.build_timing != "before_own_roll" or player == state.current))


def build_time(state: GameState) -> bool:
    """Whether declarations may be made now at all (by every player not out of a round of declarations): the
    part of :func:`build_timing_allows` that is the same for every player."""
    p = state.pending
    if state.time_called or state.ruleset.options.landing_on_own != "nothing":  # 004: only on landing, one house
        return False
    kind = type(p)  # no pending class is subclassed
    if kind is BuildRound:
        return True
    if kind is not AwaitRoll:
        return False
    # between_turns (JMA) and before_own_roll (002, some editions: at the start of the turn, before the roll) are
    # both the time before a turn's first roll; before_own_roll is for the player whose turn it is alone
    return state.ruleset.options.build_timing == "any_time" or state.between_turns


def build_timing_refusal(state: GameState, player: int) -> IllegalEntry | None:
    """Why ``player`` may not declare buildings now by :func:`build_timing_allows`, or None."""
    if build_timing_allows(state, player):
        return None
    p = state.pending
    if state.time_called:
        return illegal(state, "time_called", "time has been called: nothing more is built", "after_time_called")
    if state.ruleset.options.landing_on_own != "nothing":
        return illegal(state, "build_on_landing", "a house is built on a street of one's own when landing there, one "
                       "at a time", "landing_on_own")
    if isinstance(p, BuildRound):
        return illegal(state, "excluded_builder", "{player} made an unpayable winning bid and is out of this round "
                       "of declarations", "building_shortage", player=Player(player))
    if not isinstance(p, AwaitRoll):
        return turn_refusal(state, player, "build", "not_now", "build_timing")
    if state.ruleset.options.build_timing == "before_own_roll" and player != state.current:
        return illegal(state, "not_own_turn", "{player} builds only at the start of their own turn, before the roll; "
                       "it is {current}'s turn", "build_timing", player=Player(player), current=Player(state.current))
    if state.ruleset.options.build_timing == "before_own_roll":
        return illegal(state, "after_roll", "{player} builds only at the start of the turn, before the roll",
                       "build_timing", player=Player(player))
    return turn_refusal(state, player, "build", "not_between_turns", "build_timing")


@dataclass(frozen=True)
class Clock:
    """A table's game clock as a value: its limit (None: no time limit), the seconds it has run and whether it runs.
    The engine reads no clock: whoever shows one (the server from its database, a tablet from its own time) says
    what it has run; time is called by the referee's entry (``time_called``)."""

    limit_seconds: int | None
    elapsed_seconds: float
    running: bool

    @property
    def remaining_seconds(self) -> float | None:
        return None if self.limit_seconds is None else self.limit_seconds - self.elapsed_seconds

    @property
    def time_up(self) -> bool:
        return self.limit_seconds is not None and self.elapsed_seconds >= self.limit_seconds

    def later(self, seconds: float) -> Clock:
        """The clock as it reads ``seconds`` later: a running clock has run them, a stopped one reads the same."""
        return replace(self, elapsed_seconds=self.elapsed_seconds + seconds) if self.running else self
