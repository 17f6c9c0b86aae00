"""A player on an unowned deed: buy it at its price, or decline (an auction follows, or it stays with the bank, as the
ruleset says); a decline and the auction's opening bid may be one tap."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import Action, BuyOrAuction, GameState, leads_to, legal_actions
from ...language import gettext as _
from ..words import square_name
from .base import Decision, pending_as, Seen

QUICK_BIDS = (0, 1, 2, 5, 10)  # a bidder's buttons: the lowest bid, then this many steps above it


@dataclass(frozen=True, slots=True)
class PurchaseCard:
    player: str
    square: int
    price: int  # the deed's price
    buy: int | None  # the Buy button's price (None: no Buy button)
    auction_on_decline: bool  # a decline opens an auction (else the deed stays with the bank)
    short_of_cash: int | None  # no Buy button because the player has this much, less than the price
    opening_bids: list[tuple[str, list[int]]]  # after a decline, each bidder's first quick bids


def opening_bids(state: GameState, decline: Action) -> list[tuple[str, list[int]]]:
    """The bids the auction a decline opens would accept first, per bidder (the engine's own minimums on the table
    the decline leads to), so a decline and the opening bid are one tap."""
    outcome = leads_to(state, decline)
    if outcome is None:
        return []
    after = outcome.state
    return [(after.players[a.by].name, [a.detail["minimum"] + k * a.detail["step"] for k in QUICK_BIDS])
            for a in legal_actions(after) if a.type == "bid"]


def _card(seen: Seen) -> PurchaseCard | None:
    a = seen.first("decline")
    if a is None:
        return None
    state, buy = seen.state, seen.first("buy")
    square = a.detail["square"]
    price = state.ruleset.squares[square].price
    cash = state.players[a.by].cash
    player = seen.name(a.by)
    return PurchaseCard(player, square, price, buy.detail["price"] if buy is not None else None,
                        state.ruleset.options.auction_on_decline,
                        cash if buy is None and cash < price else None,
                        opening_bids(state, a) if seen.latest else [])


DECISIONS = (Decision((BuyOrAuction,), lambda state: _("waiting for {player} to buy or decline {square}").format(
    player=state.players[pending_as(state, BuyOrAuction).player].name,
    square=square_name(state, pending_as(state, BuyOrAuction).square)),
    "table/decisions/purchase.html", card=_card),)
