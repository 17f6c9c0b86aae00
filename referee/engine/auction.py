"""The bank's auction of a deed: bids in the ruleset's steps, equal calls, the hammer, a winning bid that cannot be
paid (JMA 補足ルール「競売」)."""
from __future__ import annotations

from dataclasses import replace

from . import events as ev
from .entries import Action, Entry
from .errors import IllegalEntry, illegal
from .facts import minimum_bid, raisable_cash, tie_winner
from .phrases import Many, Money, Player
from .state import Auction, BidPayment, BuildingAuction, GameState
from .step import Step


def bid_refusal(state: GameState, auction: Auction | BuildingAuction, bidders: list[int], amount: int) -> IllegalEntry | None:
    opts = state.ruleset.options
    for b in bidders:
        if state.players[b].bankrupt:
            return illegal(state, "bankrupt", "{player} is bankrupt and cannot bid", "auction", player=Player(b))
        if b in auction.excluded:
            return illegal(state, "excluded_bidder",
                           "{player} made a winning bid they could not pay and is out of this auction",
                           "auction_unpayable_bid", player=Player(b))
    held = getattr(auction, "held", None) is not None  # a held bid may be raised to the chosen lot's price
    if auction.high_bidder in bidders and not held and not opts.auction_own_raise:
        return illegal(state, "own_high_bid", "{player} already holds the highest bid ({amount}): a player does not "
                       "outbid themselves", "auction", player=Player(auction.high_bidder),
                       amount=Money(auction.high_bid))
    if amount < opts.auction_min_bid or amount % opts.auction_bid_step:
        return illegal(state, "bad_bid_step", "bid of {amount}: bids are from {minimum} in steps of {step}",
                       "auction_bid_step", amount=Money(amount), minimum=Money(opts.auction_min_bid),
                       step=Money(opts.auction_bid_step))
    if amount <= auction.high_bid:
        return illegal(state, "bid_too_low", "bid of {amount} does not beat the highest bid {high_bid} by {bidder}",
                       "auction", amount=Money(amount), high_bid=Money(auction.high_bid),
                       bidder=Player(auction.high_bidder))
    if len(bidders) > 1 and opts.auction_tie == "refuse":
        return illegal(state, "tie_bid", "equal calls at once: record the call that came first", "auction_tie")
    return None


def bid_on_deed(step: Step, entry: Entry) -> None:
    s = step.state
    auction = step.expect(entry, Auction, "auction")
    amount = entry.amount
    assert amount is not None  # a field every bid has (ENTRY_FIELDS)
    bidders = [step.player(name, entry.type) for name in entry.bidders]
    if len(set(bidders)) != len(bidders):
        raise step.refuse("duplicate_bidder", "a player is named twice among the callers {players}", "auction",
                          players=Many(entry.bidders))
    refusal = bid_refusal(s, auction, bidders, amount)
    if refusal:
        raise refusal
    winner = bidders[0] if len(bidders) == 1 else tie_winner(s, bidders)
    step.emit(ev.AwaitingDecision(replace(auction, high_bid=amount, high_bidder=winner)))


def hammer_deed(step: Step, entry: Entry) -> None:
    s = step.state
    auction = step.expect(entry, Auction, "auction")
    winner = auction.high_bidder
    if winner is None:  # nobody bid: the deed stays with the bank
        step.emit(ev.AwaitingDecision(None))
        return
    if raisable_cash(s, winner) < auction.high_bid:
        step.emit(ev.BidVoided(winner, auction.high_bid))
        excluded = auction.excluded + (winner,)
        if all(i in excluded for i in s.active):
            step.emit(ev.AwaitingDecision(None))
        else:
            step.emit(ev.AwaitingDecision(Auction(auction.square, excluded=excluded)))
        return
    step.pay_bid(BidPayment(winner, auction.high_bid, square=auction.square))


def auction_actions(state: GameState, p: Auction) -> list[Action]:
    """The bids and the hammer that may be recorded in the auction ``p``, for legal_actions."""
    opts = state.ruleset.options
    low = minimum_bid(state, p)
    out = [Action("bid", i, {"square": p.square, "minimum": low, "step": opts.auction_bid_step,
                             "equal_calls": opts.auction_tie != "refuse"})
           for i in state.active if i not in p.excluded and (i != p.high_bidder or opts.auction_own_raise)]
    out.append(Action("hammer", None, {"square": p.square, "high_bid": p.high_bid, "high_bidder": p.high_bidder}))
    return out
