"""The facts behind the rulings the table screen and the log explain: the equal calls behind an auction's standing
bid (judged by the engine as each bid was recorded: the game's history), and which sales of buildings the rules
allow now, at what price (``plan_change``, ``sale_refusal``); nothing is worked out here a second way.  The log and the panels (:mod:`.log`, :mod:`.panels`) put them in the device's language."""
from __future__ import annotations

from ..engine import (Auction, BuildingAuction, Change, Debt, even_layouts_below, Game, GameState, IllegalEntry,
                      plan_change, sale_refusal, TieCall)


def standing_tie(game: Game) -> TieCall | None:
    """When the standing high bid of the auction in progress came from equal calls: those calls."""
    p = game.state.pending
    if not isinstance(p, (Auction, BuildingAuction)) or p.high_bidder is None:
        return None
    history = game.with_history().history
    assert history is not None  # with_history: a game keeping its history
    ties = history.ties
    for index in reversed(game.effective):  # the latest bid is this auction's: it has a high bidder
        if game.entries[index].type == "bid":
            call = ties[index]
            if call and call.amount == p.high_bid and call.winner == game.state.players[p.high_bidder].name:
                return call
            return None
    return None


def sale_offers(state: GameState, player: int, group: str) -> list[Change]:
    """Every sale of buildings on ``group`` the rules allow ``player`` now (the even rule, the bank's houses,
    a hotel broken into houses only by a debtor where the ruleset says so), each priced by the engine;
    the smallest sale first."""
    squares = state.ruleset.groups[group].squares
    in_debt = isinstance(state.pending, Debt) and state.pending.debtor == player
    offers = [change for change in (legal_sale(state, player, targets, in_debt)
                                    for targets in even_layouts_below(state, squares)) if change is not None]
    return sorted(offers, key=lambda c: -c.price)


def legal_sale(state: GameState, player: int, targets: dict[int, int], in_debt: bool) -> Change | None:
    """The sale of buildings to ``targets`` as the engine prices it, or None where the rules refuse it."""
    try:
        change = plan_change(state, player, targets, selling=True)
    except IllegalEntry:
        return None
    return None if sale_refusal(state, change, in_debt) else change
