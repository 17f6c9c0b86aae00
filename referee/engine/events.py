"""Events: the changes an entry makes, each applied to the state in one place.

Entries are what the referee records; events are what the rules derive from
them (a roll becomes dice, a move, a salary, a rent).  Applying events is the
only way a :class:`~.state.GameState` changes.  Events are values that nothing
changes once made; they are not frozen dataclasses only because the engine makes
several for every entry, and a frozen one takes three times as long to make.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .state import (DealDeeds, AwaitRoll, Auction, BidPayment, BuildingAuction, BuildRound, BuyOrAuction, Debt, DrawCard, FineOrCard, GameOver, GameState, OwnProperty,
                    IncomeTaxChoice, JailFine, Pending, PlaceBuilding, RentRoll, Resume, RollOff, SeatingRoll, Trade, awaiting_roll,
                    seats_of)

if TYPE_CHECKING:
    from .entries import Offer

POT = "pot"  # the free-parking pot, where a ruleset keeps one


@dataclass(slots=True)
class Event:
    # what the event is called in counts and tests: a class attribute (set from _KIND below), or a property where it
    # depends on the event (a payment's reason, the decision awaited); to a type checker, a text read on any event
    if TYPE_CHECKING:
        @property
        def kind(self) -> str: ...
    else:
        kind = "event"

    def apply(self, state: GameState) -> None:  # pragma: no cover - every event overrides
        raise NotImplementedError


@dataclass(slots=True)
class SeatingOrdered(Event):
    """The seating roll-off is decided: players take their turns in this order."""

    order: tuple[int, ...]

    def apply(self, state: GameState) -> None:
        seat = {old: new for new, old in enumerate(self.order)}  # every player index moves with its player
        state.players = [state.players[i] for i in self.order]
        state.holdings = [state.holdings[i] for i in self.order]
        state.holdings_value = [state.holdings_value[i] for i in self.order]
        state.owner = [None if o is None else seat[o] for o in state.owner]
        state.group_owner = {g: None if o is None else seat[o] for g, o in state.group_owner.items()}
        state.active = tuple(i for i, p in enumerate(state.players) if not p.bankrupt)
        state.seats = seats_of(state.players)
        state.groups_version += 1


@dataclass(slots=True)
class TurnBegan(Event):
    """The player's turn begins: the table waits for their roll."""

    player: int

    def apply(self, state: GameState) -> None:
        state.pending = awaiting_roll(self.player)
        state.current = self.player
        state.doubles = 0
        state.turn += 1
        state.turn_started = False
        state.prepaid_release = False
        state.recent_trades = ()
        state.interest_paid = ()
        state.built_this_turn = ()


@dataclass(slots=True)
class DiceRolled(Event):
    """The roll awaited is made: the table waits for nothing until the move is worked out."""

    player: int
    dice: tuple[int, int]
    doubles_in_a_row: int

    def apply(self, state: GameState) -> None:
        state.pending = None
        state.last_dice = self.dice
        state.doubles = self.doubles_in_a_row
        state.turn_started = True
        state.recent_trades = ()
        state.interest_paid = ()


@dataclass(slots=True)
class Moved(Event):
    player: int
    to: int

    def apply(self, state: GameState) -> None:
        state.players[self.player].position = self.to


@dataclass(slots=True)
class Paid(Event):
    """Money changes hands.  ``None`` is the bank; ``POT`` the free-parking pot."""

    payer: int | str | None
    payee: int | str | None
    amount: int
    reason: str

    @property
    def kind(self) -> str:
        return "paid." + self.reason

    def apply(self, state: GameState) -> None:
        if isinstance(self.payer, int):
            state.players[self.payer].cash -= self.amount
        elif self.payer == POT:
            state.pot -= self.amount
        elif state.bank_cash is not None:
            state.bank_cash -= self.amount
            if state.bank_cash <= 0:
                state.bank_emptied = True
        if isinstance(self.payee, int):
            state.players[self.payee].cash += self.amount
        elif self.payee == POT:
            state.pot += self.amount
        elif state.bank_cash is not None:
            state.bank_cash += self.amount
        if self.reason == "salary" or self.reason == "go_landing":
            state.go_passed = True
        elif self.reason == "rent" and state.ruleset.options.rent_claim_turns and isinstance(self.payee, int) \
                and isinstance(self.payer, int):  # kept only where an owner's claim lapses (kinds.lapsed_rent)
            turn = state.turn
            state.recent_rents = tuple(r for r in state.recent_rents if r[4] >= turn - 2) + (
                (self.payer, self.payee, state.players[self.payer].position, self.amount, turn),)


@dataclass(slots=True)
class DeedTransferred(Event):
    square: int
    to: int | None

    def apply(self, state: GameState) -> None:
        state.set_owner(self.square, self.to)
        if self.square in state.interest_paid:
            state.interest_paid = tuple(sq for sq in state.interest_paid if sq != self.square)
        if self.to is None:
            state.set_mortgaged(self.square, False)


@dataclass(slots=True)
class Mortgaged(Event):
    square: int

    def apply(self, state: GameState) -> None:
        state.set_mortgaged(self.square, True)


@dataclass(slots=True)
class Unmortgaged(Event):
    square: int

    def apply(self, state: GameState) -> None:
        state.set_mortgaged(self.square, False)
        if self.square in state.interest_paid:
            state.interest_paid = tuple(sq for sq in state.interest_paid if sq != self.square)


@dataclass(slots=True)
class RescuePart(Event):
    """JMA 補足ルール「破産」(分割救済): a rescue trade recorded while, with the rescues so far, the fine of the third
    failed jail roll and the rent ahead are still not both covered; ``agreed`` as in :class:`TradeMade`."""

    agreed: Trade

    def apply(self, state: GameState) -> None:
        state.rescue_parts = state.rescue_parts + (self.agreed,)


@dataclass(slots=True)
class RescueSettled(Event):
    """The split rescue's parts now stand (the fine was paid) or were undone (the player went bankrupt)."""

    def apply(self, state: GameState) -> None:
        state.rescue_parts = ()


@dataclass(slots=True)
class TransferInterestPaid(Event):
    """Official rules: the new owner of a mortgaged deed pays 10% interest at once; lifting the mortgage at
    that same moment then costs only the mortgage value."""

    square: int

    def apply(self, state: GameState) -> None:
        state.interest_paid = state.interest_paid + (self.square,)


@dataclass(slots=True)
class BuildingsChanged(Event):
    """New building levels on some lots; the bank's stock changes by what they took or gave back."""

    levels: tuple[tuple[int, int], ...]
    house_change: int
    hotel_change: int

    @property
    def kind(self) -> str:
        if self.hotel_change < 0:
            return "hotel_built"
        if self.hotel_change > 0:
            return "hotel_broken_down" if self.house_change < 0 else "hotel_sold"
        return "houses_built" if self.house_change < 0 else "houses_sold"

    def apply(self, state: GameState) -> None:
        for square, level in self.levels:
            state.set_level(square, level)
        state.bank_houses += self.house_change
        state.bank_hotels += self.hotel_change


@dataclass(slots=True)
class Jailed(Event):
    player: int

    def apply(self, state: GameState) -> None:
        p = state.players[self.player]
        p.position = state.ruleset.jail_index
        p.in_jail = True
        p.jail_rolls = 0
        if self.player == state.current:
            state.doubles = 0  # going to jail ends the turn, doubles or not


@dataclass(slots=True)
class JailRollFailed(Event):
    player: int

    def apply(self, state: GameState) -> None:
        state.players[self.player].jail_rolls += 1


@dataclass(slots=True)
class Released(Event):
    player: int
    how: str  # bail, card, doubles, turn_skipped

    @property
    def kind(self) -> str:
        return "released." + self.how

    def apply(self, state: GameState) -> None:
        p = state.players[self.player]
        p.in_jail = False
        p.jail_rolls = 0
        state.turn_started = True
        state.prepaid_release = self.how in ("bail", "card")


@dataclass(slots=True)
class JailCardKept(Event):
    player: int
    card: str

    def apply(self, state: GameState) -> None:
        state.players[self.player].jail_cards.append(self.card)


@dataclass(slots=True)
class RentWaived(Event):
    """No rent: the owner of the square landed on is in jail (a house rule, option ``rent_while_in_jail``)."""

    player: int
    square: int
    owner: int

    def apply(self, state: GameState) -> None:
        pass


@dataclass(slots=True)
class EstateShared(Event):
    """A bankrupt's deeds are shared among the survivors (option ``bankrupt_estate``): who takes which, in the
    order they are dealt (the transfers follow, one event each)."""

    player: int
    shares: tuple[tuple[int, tuple[int, ...]], ...]  # (survivor, the squares they take)

    def apply(self, state: GameState) -> None:
        pass


@dataclass(slots=True)
class BuiltThisTurn(Event):
    """Building levels a player has built in this turn, counted where the ruleset limits them (option
    ``houses_per_turn``)."""

    player: int
    levels: int

    def apply(self, state: GameState) -> None:
        counts = list(state.built_this_turn or (0,) * len(state.players))
        counts[self.player] += self.levels
        state.built_this_turn = tuple(counts)


@dataclass(slots=True)
class JailTurnSat(Event):
    """A turn sat out in jail (German variant, option ``jail_mode`` sit_out); the last one ends the stay, and the
    next turn rolls from the jail square."""

    player: int

    def apply(self, state: GameState) -> None:
        p = state.players[self.player]
        p.jail_rolls += 1
        if p.jail_rolls >= state.ruleset.options.jail_max_rolls:
            p.in_jail = False
            p.jail_rolls = 0
        state.pending = None


@dataclass(slots=True)
class JailCardReturned(Event):
    """The card goes back under its deck."""

    player: int
    card: str

    def apply(self, state: GameState) -> None:
        state.players[self.player].jail_cards.remove(self.card)


@dataclass(slots=True)
class CardDrawn(Event):
    """The card awaited is drawn: the table waits for nothing until its effect is worked out."""

    player: int
    card: str

    def apply(self, state: GameState) -> None:
        state.pending = None


@dataclass(slots=True)
class AwaitingDecision(Event):
    """The table now waits for this decision."""

    decision: Pending | None

    @property
    def kind(self) -> str:
        return _AWAITING_KIND.get(type(self.decision), "awaiting.nothing")

    def apply(self, state: GameState) -> None:
        state.pending = self.decision


@dataclass(slots=True)
class BidVoided(Event):
    """A winning bid the winner cannot pay is void."""

    player: int
    amount: int

    def apply(self, state: GameState) -> None:
        pass


@dataclass(slots=True)
class BidHeld(Event):
    """JMA 補足ルール「家・ホテルの不足」: the winner chose a lot whose building price the bid does not reach; the
    bid is held and the auction goes on (落札を保留してさらに競売を継続)."""

    player: int
    amount: int
    square: int

    def apply(self, state: GameState) -> None:
        pass


@dataclass(slots=True)
class DebtQueued(Event):
    """A further debt waits behind the one being settled."""

    debt: Debt

    def apply(self, state: GameState) -> None:
        state.debts.append(self.debt)


@dataclass(slots=True)
class DebtTaken(Event):
    """The first queued debt becomes the one the table settles."""

    def apply(self, state: GameState) -> None:
        state.pending = state.debts.pop(0)


@dataclass(slots=True)
class ResumeSet(Event):
    resume: Resume | None

    def apply(self, state: GameState) -> None:
        state.resume = self.resume


@dataclass(slots=True)
class EstateAuctionsQueued(Event):
    squares: tuple[int, ...]

    def apply(self, state: GameState) -> None:
        state.estate_auctions.extend(self.squares)


@dataclass(slots=True)
class EstateAuctionTaken(Event):
    def apply(self, state: GameState) -> None:
        state.estate_auctions.pop(0)


@dataclass(slots=True)
class WentBankrupt(Event):
    player: int
    creditor: int | None

    @property
    def kind(self) -> str:
        return "bankrupt_to_bank" if self.creditor is None else "bankrupt_to_player"

    def apply(self, state: GameState) -> None:
        p = state.players[self.player]
        p.bankrupt = True
        p.bankrupt_at_turn = state.turn
        p.bankrupt_order = 1 + sum(1 for other in state.players if other.bankrupt_order)
        state.active = tuple(i for i in state.active if i != self.player)
        state.debts = [d for d in state.debts if d.debtor != self.player]


@dataclass(slots=True)
class TimeCalled(Event):
    """The game clock ran out (JMA 補足ルール「時間ゲーム」)."""

    def apply(self, state: GameState) -> None:
        state.time_called = True
        state.estate_auctions.clear()


@dataclass(slots=True)
class FinalRollMade(Event):
    """After time is called: the roll that ends the game."""

    def apply(self, state: GameState) -> None:
        state.final_roll = True


@dataclass(slots=True)
class TradeMade(Event):
    """Two players exchange cash, deeds and jail cards at once.  ``agreed`` is the trade as agreed, kept
    to refuse an immediate buy-back at another price."""

    first: int
    second: int
    give: Offer[int]  # deeds as square indices: from first to second
    take: Offer[int]  # from second to first
    context: str  # trade, debt_negotiation or rescue
    agreed: Trade

    @property
    def kind(self) -> str:
        return self.context

    def apply(self, state: GameState) -> None:
        for frm, to, offer in ((self.first, self.second, self.give), (self.second, self.first, self.take)):
            state.players[frm].cash -= offer.cash
            state.players[to].cash += offer.cash
            for sq in offer.deeds:
                state.set_owner(sq, to)
            if state.interest_paid and offer.deeds:
                state.interest_paid = tuple(sq for sq in state.interest_paid if sq not in offer.deeds)
            for card in offer.cards:
                state.players[frm].jail_cards.remove(card)
                state.players[to].jail_cards.append(card)
        state.recent_trades = state.recent_trades + (self.agreed,)


_KIND: dict[type[Event], str] = {
    TimeCalled: "time_called", FinalRollMade: "final_roll",
    SeatingOrdered: "seating_ordered", TurnBegan: "turn_began", DiceRolled: "dice_rolled",
    Moved: "moved", Paid: "paid", DeedTransferred: "deed_transferred", Mortgaged: "mortgaged",
    Unmortgaged: "unmortgaged", BuildingsChanged: "buildings_changed", Jailed: "jailed",
    JailRollFailed: "jail_roll_failed", Released: "released", JailCardKept: "jail_card_kept",
    JailCardReturned: "jail_card_returned", CardDrawn: "card_drawn", AwaitingDecision: "awaiting_decision",
    BidVoided: "bid_voided", BidHeld: "bid_held", DebtQueued: "debt_queued", DebtTaken: "debt_taken", ResumeSet: "resume_set",
    EstateAuctionsQueued: "estate_auctions_queued", EstateAuctionTaken: "estate_auction_taken",
    WentBankrupt: "went_bankrupt", TransferInterestPaid: "transfer_interest_paid",
    RescuePart: "rescue_part", RescueSettled: "rescue_settled", RentWaived: "rent_waived",
    EstateShared: "estate_shared", JailTurnSat: "jail_turn_sat",
    BuiltThisTurn: "built_this_turn",
}

_DECISION_KIND: dict[type, str] = {
    SeatingRoll: "seating_roll", DealDeeds: "deal", AwaitRoll: "roll", BuyOrAuction: "buy_or_auction", Auction: "auction",
    IncomeTaxChoice: "income_tax_choice", DrawCard: "card", FineOrCard: "fine_or_card", OwnProperty: "own_property", RentRoll: "rent_roll", JailFine: "jail_fine",
    Debt: "debt", BidPayment: "bid_payment", RollOff: "rolloff", BuildRound: "build_round", BuildingAuction: "building_auction", PlaceBuilding: "place_building",
    GameOver: "game_over",
}
_AWAITING_KIND = {cls: "awaiting." + name for cls, name in _DECISION_KIND.items()}  # AwaitingDecision.kind

for _cls, _name in _KIND.items():
    if not isinstance(_cls.__dict__.get("kind"), property):
        setattr(_cls, "kind", _name)  # read without a call: the simulator counts every event by it
