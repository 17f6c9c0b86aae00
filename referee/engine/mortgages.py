"""Mortgages: a deed mortgaged to the bank for its mortgage value, and lifted for that value plus interest."""
from __future__ import annotations

from . import events as ev
from .declarations import bid_payment_mortgage_refusal
from .entries import Action, Entry
from .errors import IllegalEntry, illegal
from .facts import unmortgage_cost
from .phrases import Money, Player, Square
from .state import GameState
from .step import Step
from .timing import timing_refusal


def mortgage_refusal(state: GameState, player: int, square: int) -> IllegalEntry | None:
    sq = state.ruleset.squares[square]
    if not sq.is_property or state.owner[square] != player:
        return illegal(state, "not_owner", "{player} does not own {square}", "mortgage", player=Player(player),
                       square=Square(square))
    if state.mortgaged[square]:
        return illegal(state, "already_mortgaged", "{square} is already mortgaged", "mortgage", square=Square(square))
    if state.group_has_buildings(square):
        return illegal(state, "buildings_in_group", "{square}: sell every building of its colour group before "
                       "mortgaging", "mortgage", square=Square(square))
    return (timing_refusal(state, player, "mortgage", for_payment=True, negotiating=True)
            or bid_payment_mortgage_refusal(state, player, square))


def unmortgage_refusal(state: GameState, player: int, square: int) -> IllegalEntry | None:
    if state.owner[square] != player:
        return illegal(state, "not_owner", "{player} does not own {square}", "unmortgage", player=Player(player),
                       square=Square(square))
    if not state.mortgaged[square]:
        return illegal(state, "not_mortgaged", "{square} is not mortgaged", "unmortgage", square=Square(square))
    timing = timing_refusal(state, player, "unmortgage", for_payment=False)
    if timing:
        return timing
    cost = unmortgage_cost(state, square)
    if state.players[player].cash < cost:
        return illegal(state, "cannot_afford", "{player} has {cash}; lifting the mortgage on {square} costs {cost}",
                       "unmortgage", player=Player(player), cash=Money(state.players[player].cash),
                       square=Square(square), cost=Money(cost))
    return None


def _mortgage(step: Step, entry: Entry) -> None:
    s = step.state
    who = step.player(entry.player, entry.type)
    square = step.square(entry.square, entry.type)
    refusal = mortgage_refusal(s, who, square)
    if refusal:
        raise refusal
    step.emit(ev.Mortgaged(square))
    step.emit(ev.Paid(None, who, s.ruleset.squares[square].mortgage, "mortgage"))


def _unmortgage(step: Step, entry: Entry) -> None:
    s = step.state
    who = step.player(entry.player, entry.type)
    square = step.square(entry.square, entry.type)
    refusal = unmortgage_refusal(s, who, square)
    if refusal:
        raise refusal
    step.emit(ev.Paid(who, None, unmortgage_cost(s, square), "unmortgage"))
    step.emit(ev.Unmortgaged(square))


def mortgage_actions(state: GameState) -> list[Action]:
    """Every deed that may be mortgaged, or its mortgage lifted, now, for legal_actions."""
    out = []
    for i in state.active:
        for sq in state.deeds_of(i):
            if mortgage_refusal(state, i, sq) is None:
                out.append(Action("mortgage", i, {"square": sq, "value": state.ruleset.squares[sq].mortgage}))
            elif unmortgage_refusal(state, i, sq) is None:
                out.append(Action("unmortgage", i, {"square": sq, "cost": unmortgage_cost(state, sq)}))
    return out


MORTGAGE_HANDLERS = {"mortgage": _mortgage, "unmortgage": _unmortgage}
