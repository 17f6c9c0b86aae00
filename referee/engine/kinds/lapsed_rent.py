"""An owner's claim to rent, and its lapse.

The app charges rent the moment a token lands: the referee records the landing, and the rules say what is owed.
At a real table the owner must ask for it.  Official rules: "It is the property owner's responsibility to
demand rent, and he or she has until the beginning of the second following player's turn to do so."  When the
owner never asked, the referee records ``rent_not_claimed`` in that turn, and the rent goes back.  JMA 補足ルール
says the opposite: a claim that can be traced back is still paid (the entry is refused, citing it).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..entries import Action, Entry
from ..events import Event
from ..phrases import Player, Square
from ..registry import EntryType, Simulated, register
from ..ruleset import Options
from ..state import AwaitRoll, GameState
from ..step import Step


@dataclass(slots=True)
class RentUnclaimed(Event):
    """The owner did not claim this rent in time (option ``rent_claim_turns``): it is returned (the Paid event
    after this one), and can be returned only once."""

    payer: int
    owner: int
    square: int
    amount: int

    def apply(self, state: GameState) -> None:
        state.recent_rents = tuple(r for r in state.recent_rents if (r[0], r[2]) != (self.payer, self.square))


def lapsed_rents(state: GameState) -> list[tuple[int, int, int, int, int]]:
    """The rents whose claim lapses in this turn, while the table waits for its first roll: (payer, owner, square,
    amount, turn paid).  None when rent claims never lapse (option ``rent_claim_turns`` 0)."""
    turns = state.ruleset.options.rent_claim_turns
    if not turns or type(state.pending) is not AwaitRoll or state.turn_started or state.doubles:
        return []
    players = state.players
    return [r for r in state.recent_rents
            if r[4] + turns == state.turn and not players[r[0]].bankrupt and not players[r[1]].bankrupt]


def rent_claim_actions(state: GameState, player: int | None = None) -> list[Action]:
    """The rents that may be recorded as not claimed now (``player``: the payer), for legal_actions."""
    return [Action("rent_not_claimed", payer, {"square": square, "owner": owner, "amount": amount})
            for payer, owner, square, amount, _ in lapsed_rents(state) if player is None or payer == player]


def _rent_not_claimed(step: Step, entry: Entry) -> None:
    s = step.state
    payer = step.player(entry.player, entry.type)
    square = step.square(entry.square, entry.type)
    if not s.ruleset.options.rent_claim_turns:
        raise step.refuse("claim_traced_back", "the rent {player} paid on {square} stands: a claim that can be "
                          "traced back is paid", "rent_claim_turns", player=Player(payer), square=Square(square))
    found = [r for r in lapsed_rents(s) if r[0] == payer and r[2] == square]
    if not found:
        raise step.refuse("no_lapsed_rent", "no rent {player} paid on {square} lapses now: an owner's claim lapses "
                          "when the turn of the player {n} after the payer begins, and is recorded then",
                          "rent_claim_turns", player=Player(payer), square=Square(square),
                          n=s.ruleset.options.rent_claim_turns)
    _, owner, _, amount, _ = found[0]
    step.emit(RentUnclaimed(payer, owner, square, amount))
    step.charge(owner, payer, amount, "rent_not_claimed")


def _lapsing(state: GameState) -> bool:
    """Whether a claim could lapse now, in a game whose claims lapse (the simulator draws no chance otherwise)."""
    return bool(state.recent_rents)


def _claims_lapse(options: Options) -> bool:
    """Whether an owner's claim to rent lapses in a game of these options (option ``rent_claim_turns``)."""
    return bool(options.rent_claim_turns)


def _entry(state: GameState, action: Action) -> Entry:
    assert action.player is not None  # a rent is always someone's
    return Entry("rent_not_claimed", player=state.players[action.player].name,
                 square=state.ruleset.squares[action.detail["square"]].id)


RENT_NOT_CLAIMED = register(EntryType(
    "rent_not_claimed", ("player", "square"), _rent_not_claimed, offered=rent_claim_actions,
    events=((RentUnclaimed, "rent_unclaimed"),), ready=_entry,
    simulated=Simulated(0.05, _lapsing, first=True, in_rules=_claims_lapse)))
