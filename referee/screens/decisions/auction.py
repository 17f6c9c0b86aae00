"""An auction in progress (a deed declined, or one building at a house shortage): the standing bid and who holds it
(and the equal calls it came from), each bidder's quick bids, equal calls at once where the ruleset allows them, the
hammer."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import Auction, BuildingAuction, GameState, raisable_cash
from ...language import gettext as _
from .. import rulings
from ..log import tie_words
from ..words import square_name, Why, why
from .base import Decision, pending_as, Seen
from .build_round import build_round_card, BuildRoundCard
from .purchase import QUICK_BIDS


@dataclass(frozen=True, slots=True)
class Bidder:
    player: int
    name: str
    minimum: int  # the lowest bid this bidder may make
    quick: list[int]  # the amounts of their one-tap bids
    can_raise: int  # the cash they could have with every building sold and every deed mortgaged (the engine's sum)

    def beyond(self, amount: int) -> bool:
        """A bid the bidder could not pay even by selling and mortgaging everything: still a bid where the ruleset
        takes it (the hammer finds it out), marked on its button so the table can stop it before it stands."""
        return amount > self.can_raise


@dataclass(frozen=True, slots=True)
class AuctionCard:
    high_bid: int
    high_bidder: str | None  # None: no bid yet
    standing_tie: Why | None  # the equal calls behind the standing high bid
    bidders: list[Bidder]
    equal_calls: bool  # several bidders may call the same amount at once (one entry)
    hammer: bool  # the hammer may fall (sold, or closed with no bid)


@dataclass(frozen=True, slots=True)
class ShortageAuctionCard:
    """A house-shortage auction: its bids, and the round of declarations it belongs to."""

    bids: AuctionCard | None
    round: BuildRoundCard | None


def _bids(seen: Seen) -> AuctionCard | None:
    bids, hammer = seen.actions.get("bid", []), seen.first("hammer")
    if not bids and hammer is None:
        return None
    p = pending_as(seen.state, Auction, BuildingAuction)
    tie = rulings.standing_tie(seen.game) if seen.latest else None
    return AuctionCard(
        p.high_bid, seen.name(p.high_bidder) if p.high_bidder is not None else None,
        tie_words(seen.state.ruleset, tie, standing=True) if tie else None,
        [Bidder(a.by, seen.name(a.by), a.detail["minimum"],
                [a.detail["minimum"] + k * a.detail["step"] for k in QUICK_BIDS],
                raisable_cash(seen.state, a.by))
         for a in bids],
        bool(bids) and bool(bids[0].detail["equal_calls"]), hammer is not None)


def shortage_notes(state: GameState) -> list[Why]:
    """How a bid for a building opens, and a bid held for a lot priced above it."""
    p, rs = pending_as(state, BuildingAuction), state.ruleset
    notes = [why(rs, _("A bid for a %(kind)s starts at the building price of the cheapest lot where the bidder "
                       "could build, in steps of %(step)s: each bidder's first quick bid is their own minimum.",
                       kind=_(p.kind), step=rs.money_text(rs.options.auction_bid_step)), "building_shortage")]
    if p.held is not None and p.high_bidder is not None:
        notes.append(why(rs, _("%(player)s's bid of %(amount)s is held: %(square)s's building price is %(price)s. "
                               "To build there %(player)s must win at %(price)s or more; a higher bid by anyone "
                               "wins as usual.", player=state.players[p.high_bidder].name,
                               amount=rs.money_text(p.high_bid), square=square_name(state, p.held),
                               price=rs.money_text(rs.squares[p.held].house_cost)), "building_shortage"))
    return notes


def _shortage_card(seen: Seen) -> ShortageAuctionCard:
    return ShortageAuctionCard(_bids(seen), build_round_card(seen.state) if seen.latest else None)


DECISIONS = (
    Decision((Auction,), lambda state: _("auction of {square} in progress").format(
        square=square_name(state, pending_as(state, Auction).square)), "table/decisions/auction.html", card=_bids),
    Decision((BuildingAuction,), lambda state: _("house-shortage auction of one {kind}").format(
        kind=_(pending_as(state, BuildingAuction).kind)), "table/decisions/shortage_auction.html", notes=shortage_notes,
        card=_shortage_card),
)
