"""A deed mortgaged to the bank for its mortgage value, and its mortgage lifted for that value plus interest: two
kinds of entry offered together (the deeds gone through once for both).

JMA 2006, 抵当: "いつでも抵当に入れてお金を借りることができます。" ... "抵当に入っていない状態である必要があります。"
... "銀行に抵当価格プラス利息10%払えばOKです。"  Official rules: "properties with no houses or hotels may be
mortgaged for half of the property price ... To de-mortgage a property a player must pay interest of 10% in
addition to the mortgage price."  When each may be recorded (the ruleset's timing, a debt, a winning bid being
raised), and why not, is :mod:`..mortgages`' (:func:`~..mortgages.mortgage_refusal`,
:func:`~..mortgages.unmortgage_refusal`), which the simulator and the debt's screens ask too.
"""
from __future__ import annotations

from typing import Callable

from .. import events as ev
from ..entries import Action, Entry
from ..errors import IllegalEntry
from ..facts import unmortgage_cost
from ..mortgages import mortgage_choices, mortgage_refusal, unmortgage_refusal
from ..registry import EntryType, register
from ..state import GameState
from ..step import Step


def _deed(step: Step, entry: Entry, refusal: Callable[[GameState, int, int], IllegalEntry | None]) -> tuple[int, int]:
    """The player and the deed an entry names, once ``refusal`` (the mortgage's, or its lifting's) finds no reason
    to refuse it."""
    who = step.player(entry.player, entry.type)
    square = step.square(entry.square, entry.type)
    refused = refusal(step.state, who, square)
    if refused:
        raise refused
    return who, square


def _mortgage(step: Step, entry: Entry) -> None:
    who, square = _deed(step, entry, mortgage_refusal)
    step.emit(ev.Mortgaged(square))
    step.bank_pays(who, step.state.ruleset.squares[square].mortgage, "mortgage")


def _unmortgage(step: Step, entry: Entry) -> None:
    who, square = _deed(step, entry, unmortgage_refusal)
    step.emit(ev.Paid(who, None, unmortgage_cost(step.state, square), "unmortgage"))
    step.emit(ev.Unmortgaged(square))


def mortgage_actions(state: GameState, player: int | None = None) -> list[Action]:
    """Every deed that may be mortgaged, or its mortgage lifted, now (``player``: that player's only), for
    legal_actions: :func:`mortgage_choices` with the amounts the buttons show."""
    return [Action(kind, i, {"square": sq, "cost": amount} if kind == "unmortgage" else {"square": sq, "value": amount})
            for kind, i, sq, amount in mortgage_choices(state, player)]


MORTGAGE = register(EntryType("mortgage", ("player", "square"), _mortgage, offered=mortgage_actions,
                              also=("unmortgage",)))
UNMORTGAGE = register(EntryType("unmortgage", ("player", "square"), _unmortgage))  # offered with the mortgages
