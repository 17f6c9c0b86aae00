"""Fines the referee imposes for a breach at the table, each of the amount the ruleset (or a tournament's
regulations) gives it.

Classic rules (Russian edition, translated), the second classic text: "For use during your turn of another player,
you must pay a fine of $ 50. You must pay a $ 50 amount, with an extraordinary course when you went instead of
another player. You will also be forced to pay a $ 50 fine fine, if during your course the playing bones left the
playing field."  One option per rule (``penalty_<rule>``): its amount, 0 where the ruleset carries no such fine (a
tournament may set one in its regulations; JMA lets the referee impose penalties but names no amount).

A fine is recorded while the table waits for a roll (the referee stops play to impose it; the roll awaited is
awaited again afterwards).  It goes to the bank, or to the Free Parking pot where the ruleset keeps one and its
``pot_payments`` name ``penalty``.  A fine the player's cash does not cover is a debt like any other payment:
raised by selling and mortgaging, or ended by bankruptcy to the bank.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import events as ev
from ..entries import Action, Entry
from ..events import Event
from ..phrases import Player
from ..registry import EntryType, Simulated, register
from ..ruleset import Options
from ..state import AwaitRoll, GameState
from ..step import Step
from ..timing import not_now

# the breaches a fine is imposed for, in the text's order (a penalty entry's choice); each one's amount is the
# option penalty_<rule>
PENALTY_RULES = ("play_in_another_turn", "out_of_turn_move", "dice_off_table")


@dataclass(slots=True)
class Penalised(Event):
    """The referee fined a player for a breach at the table (options ``penalty_<rule>``); the payment follows (the
    Paid event after this one, or a debt)."""

    player: int
    rule: str
    amount: int

    def apply(self, state: GameState) -> None:
        pass  # the fine is paid by the payment that follows; this says what it was for


def penalty_amount(options: Options, rule: str) -> int:
    """The fine a game of these options gives for ``rule`` (0: none)."""
    return int(getattr(options, "penalty_" + rule))


def penalty_actions(state: GameState, player: int | None = None) -> list[Action]:
    """The fines that may be recorded now (``player``: on that player), one per player and rule with an amount:
    while the table waits for a roll."""
    if type(state.pending) is not AwaitRoll:
        return []
    rules = [(rule, amount) for rule in PENALTY_RULES if (amount := penalty_amount(state.ruleset.options, rule)) > 0]
    return [Action("penalty", i, {"rule": rule, "amount": amount})
            for i in state.active if player is None or i == player for rule, amount in rules]


def _penalty(step: Step, entry: Entry) -> None:
    s = step.state
    rule = entry.choice
    assert rule in PENALTY_RULES  # parse_entry admits no other choice for a penalty
    clause = "penalty_" + rule
    who = step.player(entry.player, entry.type)
    amount = penalty_amount(s.ruleset.options, rule)
    if not amount:
        raise step.refuse("no_such_penalty", "{player} cannot be fined for this: the rules of this game set no amount "
                          "for it", clause, player=Player(who))
    roll = s.pending
    if not isinstance(roll, AwaitRoll):
        raise not_now(s, entry.type, clause)
    assert s.resume is None  # a turn's resumption is run (settle) before a roll is awaited again
    step.emit(Penalised(who, rule, amount))
    step.emit(ev.AwaitingDecision(None))
    step.emit(ev.ResumeSet(("await_roll", roll.player, "", 0)))  # the same roll is awaited once the fine is paid
    step.charge(who, step.bank_or_pot("penalty"), amount, "penalty")


def _fined(options: Options) -> bool:
    """Whether the rules of a game give a fine for any breach (the simulator draws no chance otherwise)."""
    return any(penalty_amount(options, rule) for rule in PENALTY_RULES)


def _entry(state: GameState, action: Action) -> Entry:
    assert action.player is not None  # a fine is always someone's
    return Entry("penalty", player=state.players[action.player].name, choice=action.detail["rule"])


PENALTY = register(EntryType(
    "penalty", ("player", "choice"), _penalty, choices=PENALTY_RULES, offered=penalty_actions,
    events=((Penalised, "penalised"),), ready=_entry, simulated=Simulated(0.005, in_rules=_fined)))
