"""Mortgages: whether a deed may be mortgaged to the bank, or its mortgage lifted, now, and why not (the entries
that record them are the kinds of :mod:`.kinds.mortgage`)."""
from __future__ import annotations

from .declarations import bid_payment_mortgage_refusal, keeps_last_group
from .errors import IllegalEntry, illegal
from .facts import unmortgage_cost
from .phrases import Money, Player, Square
from .state import BidPayment, GameState
from .timing import open_to_all, timing_allows, timing_refusal


def _mortgageable(state: GameState, square: int) -> bool:
    """元ルール「抵当」: an unmortgaged deed whose colour group holds no buildings."""
    return not state.mortgaged[square] and not state.group_has_buildings(square)


def may_mortgage(state: GameState, player: int, square: int) -> bool:
    """Whether ``player`` may mortgage ``square`` now; :func:`mortgage_refusal` says why not."""
    return (state.ruleset.options.mortgages_allowed
            and state.owner[square] == player and state.ruleset.squares[square].is_property
            and _mortgageable(state, square)
            and timing_allows(state, player, for_payment=True, negotiating=True)
            and not keeps_last_group(state, player, square))


def may_unmortgage(state: GameState, player: int, square: int) -> bool:
    """Whether ``player`` may lift the mortgage on ``square`` now; :func:`unmortgage_refusal` says why not."""
    return (state.owner[square] == player and state.mortgaged[square]
            and timing_allows(state, player, for_payment=False)
            and state.players[player].cash >= unmortgage_cost(state, square))


def mortgage_refusal(state: GameState, player: int, square: int) -> IllegalEntry | None:
    """Why ``player`` may not mortgage ``square`` now by :func:`may_mortgage`, or None."""
    if may_mortgage(state, player, square):
        return None
    if not state.ruleset.options.mortgages_allowed:
        return illegal(state, "no_mortgages", "these rules have no mortgages", "mortgages_allowed")
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
    """Why ``player`` may not lift the mortgage on ``square`` now by :func:`may_unmortgage`, or None."""
    if may_unmortgage(state, player, square):
        return None
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


def mortgage_choices(state: GameState, player: int | None = None) -> list[tuple[str, int, int, int]]:
    """What the mortgage kind offers (:func:`.kinds.mortgage.mortgage_actions`), as (entry type, player, square, amount: the cost of lifting the mortgage
    or the mortgage value paid), seat by seat, each player's deeds in board order (the simulator draws from these
    without their details): :func:`may_mortgage` and :func:`may_unmortgage` with the timing asked once per player,
    and the shortage-bid winner's last group (:func:`keeps_last_group`) asked only of that winner."""
    out: list[tuple[str, int, int, int]] = []
    if not state.ruleset.options.mortgages_allowed:
        return out
    squares, mortgaged, holdings = state.ruleset.squares, state.mortgaged, state.holdings
    p = state.pending
    bid_winner = p.player if type(p) is BidPayment else None  # keeps_last_group is asked of them only
    everyone = open_to_all(state)  # the timing, when it is the same for every player still in the game
    for i in state.active if player is None else (player,):
        if everyone and not state.players[i].bankrupt:
            may_mortgage_now = may_lift_now = True
        else:
            may_mortgage_now = timing_allows(state, i, for_payment=True, negotiating=True)
            may_lift_now = timing_allows(state, i, for_payment=False)
        if not (may_mortgage_now or may_lift_now):
            continue
        cash = state.players[i].cash
        for sq in holdings[i]:
            if mortgaged[sq]:
                if may_lift_now and cash >= (cost := unmortgage_cost(state, sq)):
                    out.append(("unmortgage", i, sq, cost))
            elif (may_mortgage_now and not state.group_has_buildings(sq)  # _mortgageable, as it is not mortgaged
                  and (i != bid_winner or not keeps_last_group(state, i, sq))):
                out.append(("mortgage", i, sq, squares[sq].mortgage))
    return out

