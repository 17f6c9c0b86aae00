"""The rules: what may be recorded now, and what an entry brings about.

``legal_actions(state)`` lists what the table may record next (the tablet
draws its buttons from it).  ``resolve(state, entry)`` checks the entry
against the same predicates and either raises :class:`IllegalEntry` (code,
message with the bad value, the ruleset clause) or returns the events the
entry brings about and the state after them.  The state given is never
changed.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from . import events as ev
from .entries import Entry
from .errors import IllegalEntry
from .phrases import Act, EntryKind, Many, Money, Pending, Player, Square, separator
from .state import (
    AwaitRoll, Auction, BidPayment, BuildingAuction, BuildRound, BuyOrAuction, DealDeeds, Debt, DrawCard, GameOver, GameState,
    IncomeTaxChoice, JailFine, PlaceBuilding, RentRoll, RollOff, SeatingRoll,
)

POT = ev.POT


@dataclass(frozen=True, slots=True)
class Action:
    """Something that may be recorded now; ``detail`` carries its limits (price, minimum bid, cards)."""

    type: str
    player: int | None = None
    detail: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Outcome:
    events: tuple[ev.Event, ...]
    state: GameState


# --- derived amounts --------------------------------------------------------


def interest(state: GameState, amount: int) -> int:
    """Mortgage interest on ``amount``, rounded as the ruleset says."""
    pct = state.ruleset.options.mortgage_interest_percent
    if state.ruleset.options.mortgage_interest_rounding == "up":
        return -(-amount * pct // 100)
    return amount * pct // 100


def unmortgage_cost(state: GameState, square: int) -> int:
    """The mortgage value plus interest; only the value when the interest was just paid on receiving the deed
    (official rules: "the new owner must immediately pay 10% interest on the mortgage and at their option may
    pay the principal")."""
    value = state.ruleset.squares[square].mortgage
    if square in state.interest_paid:
        return value
    return value + interest(state, value)


def total_assets(state: GameState, player: int) -> int:
    """Cash, printed price of every deed (mortgaged or not) and the cost of every building.

    The income-tax percentage is taken of this (元ルール「所得税」: 手持ちの現金、権利書の価格、
    所有するすべての建物の価格を合計したもの; Hasbro: "whether mortgaged or unmortgaged").
    """
    total = state.players[player].cash
    for sq in state.deeds_of(player):
        square = state.ruleset.squares[sq]
        # the level is what the buildings cost in house prices: a hotel is the houses it replaced plus one
        total += square.price + state.buildings[sq] * square.house_cost
    return total


def raisable_cash(state: GameState, player: int) -> int:
    """Cash the player could have by selling every building at half price and mortgaging every deed."""
    total = state.players[player].cash
    for sq in state.deeds_of(player):
        square = state.ruleset.squares[sq]
        total += state.buildings[sq] * square.house_cost // 2
        if not state.mortgaged[sq]:
            total += square.mortgage
    return total


def owns_whole_group(state: GameState, player: int, square: int) -> bool:
    group = state.ruleset.squares[square].group
    squares = state.ruleset.groups[group].squares
    if any(state.owner[i] != player for i in squares):
        return False
    if state.ruleset.options.mortgaged_lot_breaks_monopoly_doubling:
        return not any(state.mortgaged[i] for i in squares)
    return True


def _owned_of_kind(state: GameState, owner: int, kind: str) -> int:
    count_mortgaged = state.ruleset.options.mortgaged_deeds_count_for_rent
    return sum(
        1 for sq in state.ruleset.squares
        if sq.kind == kind and state.owner[sq.index] == owner and (count_mortgaged or not state.mortgaged[sq.index])
    )


def rent(state: GameState, square: int, dice_total: int, multiplier: int = 1) -> int:
    """The rent for landing on an owned, unmortgaged deed.

    Streets: the rent table by buildings; unimproved, doubled when the owner
    holds the whole colour group.  Railroads: by how many the owner holds.
    Utilities: the dice times 4 or 10, by how many the owner holds.
    ``multiplier`` is a card's (twice the railroad rent).
    """
    sq = state.ruleset.squares[square]
    owner = state.owner[square]
    if sq.kind == "street":
        level = state.buildings[square]
        if level == state.hotel_level:
            return sq.rent[5]
        if level:
            return sq.rent[level]
        base = sq.rent[0]
        if owns_whole_group(state, owner, square):
            base *= state.ruleset.options.monopoly_rent_multiplier
        return base
    count = _owned_of_kind(state, owner, sq.kind)
    if sq.kind == "railroad":
        return sq.rent[count - 1] * multiplier
    return sq.dice_multipliers[count - 1] * dice_total


# --- refusals shared by checking and by legal_actions ----------------------


def _refuse(state: GameState, code: str, pattern: str, clause: str, /, **params: Any) -> IllegalEntry:
    """A refusal citing ``clause`` of the active ruleset: ``pattern`` is English with ``{placeholders}``, filled
    with ``params`` (typed values from :mod:`.phrases` for anything said differently in another language)."""
    return IllegalEntry(pattern=pattern, params=params, state=state, code=code, rule=clause)


def _money(state: GameState, amount: int) -> str:
    return state.ruleset.money_text(amount)


def _sq_name(state: GameState, square: int) -> str:
    return state.ruleset.squares[square].name.get("en") or state.ruleset.squares[square].id


def _identity(text: str) -> str:
    return text


def describe_pending(state: GameState, _: Callable[[str], str] = _identity, lang: str = "en") -> str:
    """What the table is waiting for, in words.  ``_`` translates the message patterns (the web app passes
    its gettext); ``lang`` picks square names."""
    p = state.pending
    def name(i: int | None) -> str:
        return _("the bank") if i is None else state.players[i].name

    def sq(i: int) -> str:
        return state.ruleset.squares[i].name.get(lang) or _sq_name(state, i)

    if isinstance(p, DealDeeds):
        return _("dealing deeds: waiting for {player}'s deeds").format(player=name(p.waiting[0]))
    if isinstance(p, SeatingRoll):
        return _("waiting for the seating roll of {players}").format(
            players=separator(lang).join(name(i) for i in p.waiting))
    if isinstance(p, AwaitRoll):
        return _("waiting for {player} to roll").format(player=name(p.player))
    if isinstance(p, BuyOrAuction):
        return _("waiting for {player} to buy or decline {square}").format(player=name(p.player), square=sq(p.square))
    if isinstance(p, Auction):
        return _("auction of {square} in progress").format(square=sq(p.square))
    if isinstance(p, IncomeTaxChoice):
        return _("waiting for {player} to choose how to pay income tax").format(player=name(p.player))
    if isinstance(p, DrawCard):
        deck = _("Chance") if p.deck == "chance" else _("Community Chest")
        return _("waiting for the {deck} card {player} drew").format(deck=deck, player=name(p.player))
    if isinstance(p, RentRoll):
        return _("waiting for {player}'s roll for the utility rent").format(player=name(p.player))
    if isinstance(p, JailFine):
        if _jail.card_first(state):
            return _("waiting for {player} to use the get-out-of-jail card to leave jail").format(player=name(p.player))
        if not state.players[p.player].jail_cards:
            return _("third failed roll: waiting for {player} to pay the fine, or buy a get-out-of-jail card and use "
                     "it").format(player=name(p.player))
        return _("waiting for {player} to pay the fine or use a card to leave jail").format(player=name(p.player))
    if isinstance(p, Debt):
        return _("{debtor} owes {creditor} {amount} ({reason})").format(
            debtor=name(p.debtor), creditor=name(p.creditor), amount=_money(state, p.amount), reason=_(p.reason))
    if isinstance(p, BuildRound):
        return _("building declarations: waiting for others to follow, or for the referee to close them")
    if isinstance(p, BuildingAuction):
        return _("house-shortage auction of one {kind}").format(kind=_(p.kind))
    if isinstance(p, PlaceBuilding):
        return _("waiting for {player} to choose the lot for the {kind}").format(player=name(p.player),
                                                                                kind=_(p.kind))
    if isinstance(p, BidPayment):
        if p.square is not None:
            return _("{player} won {square} at {amount} and raises the cash to pay").format(
                player=name(p.player), square=sq(p.square), amount=_money(state, p.amount))
        return _("{player} won a {kind} at {amount} and raises the cash to pay").format(
            player=name(p.player), kind=_(p.kind), amount=_money(state, p.amount))
    if isinstance(p, GameOver):
        return _("the game is over")
    if isinstance(p, RollOff):
        return _("waiting for the roll-off of {players}").format(
            players=separator(lang).join(name(i) for i in p.waiting))
    return _("nothing pending")


def _not_now(state: GameState, entry_type: str, clause: str, code: str = "not_now") -> IllegalEntry:
    return _refuse(state, code, "{entry} cannot be recorded now: {pending}", clause, entry=EntryKind(entry_type),
                   pending=Pending())


def _turn_refusal(state: GameState, player: int, act: str, code: str, clause: str) -> IllegalEntry:
    """Why ``player`` may not ``act`` (an entry type) now, when it waits for the time between turns: the roller's
    doubles, a payment being settled, or else what the table waits for."""
    p = state.pending
    if isinstance(p, AwaitRoll) and p.player == state.current and state.doubles:
        return _refuse(state, code, "{player} rolled doubles and rolls again: the turn is not over", clause,
                       player=Player(p.player))
    if isinstance(p, AwaitRoll) and p.player == state.current and state.turn_started:
        return _refuse(state, code, "{player} has left jail and rolls next: the turn is not over", clause,
                       player=Player(p.player))
    if isinstance(p, (Debt, BidPayment)):
        return _refuse(state, code, "{player} cannot {act} while a payment is being settled: {pending}", clause,
                       player=Player(player), act=Act(act), pending=Pending())
    return _refuse(state, code, "{player} cannot {act} now: {pending}", clause, player=Player(player), act=Act(act),
                   pending=Pending())


def mortgage_refusal(state: GameState, player: int, square: int) -> IllegalEntry | None:
    sq = state.ruleset.squares[square]
    if not sq.is_property or state.owner[square] != player:
        return _refuse(state, "not_owner", "{player} does not own {square}", "mortgage", player=Player(player),
                       square=Square(square))
    if state.mortgaged[square]:
        return _refuse(state, "already_mortgaged", "{square} is already mortgaged", "mortgage", square=Square(square))
    if state.group_has_buildings(square):
        return _refuse(state, "buildings_in_group", "{square}: sell every building of its colour group before "
                       "mortgaging", "mortgage", square=Square(square))
    return (_timing_refusal(state, player, "mortgage", for_payment=True, negotiating=True)
            or _building.bid_payment_mortgage_refusal(state, player, square))


def unmortgage_refusal(state: GameState, player: int, square: int) -> IllegalEntry | None:
    if state.owner[square] != player:
        return _refuse(state, "not_owner", "{player} does not own {square}", "unmortgage", player=Player(player),
                       square=Square(square))
    if not state.mortgaged[square]:
        return _refuse(state, "not_mortgaged", "{square} is not mortgaged", "unmortgage", square=Square(square))
    timing = _timing_refusal(state, player, "unmortgage", for_payment=False)
    if timing:
        return timing
    cost = unmortgage_cost(state, square)
    if state.players[player].cash < cost:
        return _refuse(state, "cannot_afford", "{player} has {cash}; lifting the mortgage on {square} costs {cost}",
                       "unmortgage", player=Player(player), cash=Money(state.players[player].cash),
                       square=Square(square), cost=Money(cost))
    return None


def _timing_refusal(state: GameState, player: int, what: str, for_payment: bool,
                    negotiating: bool = False) -> IllegalEntry | None:
    """JMA 補足ルール: outside the time between turns a deed may be mortgaged only to pay for a purchase
    (auctions included), a debt, or in debt negotiation; a mortgage is lifted only between turns."""
    p = state.pending
    if p is None or isinstance(p, (SeatingRoll, GameOver)):
        return _not_now(state, what, "mortgage_timing")
    if state.players[player].bankrupt:
        return _refuse(state, "bankrupt", "{player} is bankrupt", "bankruptcy", player=Player(player))
    if state.ruleset.options.mortgage_timing == "any_time" or state.between_turns:
        return None
    if for_payment and (
        (isinstance(p, (BuyOrAuction, JailFine, BidPayment)) and p.player == player)
        or isinstance(p, Auction)
        or (isinstance(p, Debt) and (p.debtor == player or negotiating))  # 負債交渉において必要な現金を捻出する場合
    ):
        return None
    return _turn_refusal(state, player, what, "not_between_turns", "mortgage_timing")


def _bid_refusal(state: GameState, auction: Auction | BuildingAuction, bidders: list[int], amount: int) -> IllegalEntry | None:
    opts = state.ruleset.options
    for b in bidders:
        if state.players[b].bankrupt:
            return _refuse(state, "bankrupt", "{player} is bankrupt and cannot bid", "auction", player=Player(b))
        if b in auction.excluded:
            return _refuse(state, "excluded_bidder",
                           "{player} made a winning bid they could not pay and is out of this auction",
                           "auction_unpayable_bid", player=Player(b))
    held = getattr(auction, "held", None) is not None  # a held bid may be raised to the chosen lot's price
    if auction.high_bidder in bidders and not held and not opts.auction_own_raise:
        return _refuse(state, "own_high_bid", "{player} already holds the highest bid ({amount}): a player does not "
                       "outbid themselves", "auction", player=Player(auction.high_bidder),
                       amount=Money(auction.high_bid))
    if amount < opts.auction_min_bid or amount % opts.auction_bid_step:
        return _refuse(state, "bad_bid_step", "bid of {amount}: bids are from {minimum} in steps of {step}",
                       "auction_bid_step", amount=Money(amount), minimum=Money(opts.auction_min_bid),
                       step=Money(opts.auction_bid_step))
    if amount <= auction.high_bid:
        return _refuse(state, "bid_too_low", "bid of {amount} does not beat the highest bid {high_bid} by {bidder}",
                       "auction", amount=Money(amount), high_bid=Money(auction.high_bid),
                       bidder=Player(auction.high_bidder))
    if len(bidders) > 1 and opts.auction_tie == "refuse":
        return _refuse(state, "tie_bid", "equal calls at once: record the call that came first", "auction_tie")
    return None


def minimum_bid(state: GameState, auction: Auction | BuildingAuction) -> int:
    opts = state.ruleset.options
    step = opts.auction_bid_step
    return max(opts.auction_min_bid, (auction.high_bid // step + 1) * step)


def next_to_move(state: GameState) -> int:
    """The player whose turn comes next (次の手番のプレーヤー): between turns, the player about to roll;
    during a turn (doubles included), the player after the one whose turn it is."""
    if not state.turn_started and state.doubles == 0 and not state.players[state.current].bankrupt:
        return state.current
    return state.next_player(state.current)


def tie_winner(state: GameState, bidders: list[int]) -> int:
    """JMA 補足ルール「競売」: 同時に同額のコールがあった場合は、次の手番のプレーヤーから右周りに近いプレーヤーの
    コールを優先します。Equal calls at once go to the caller nearest in turn order, counting from the player
    whose turn comes next (:func:`next_to_move`)."""
    start = next_to_move(state)
    n = len(state.players)
    return min(bidders, key=lambda b: (b - start) % n)


# --- legal actions ---------------------------------------------------------


def legal_actions(state: GameState) -> list[Action]:
    """Everything the table may record now, with the limits the buttons need."""
    p = state.pending
    out: list[Action] = []
    opts = state.ruleset.options
    if isinstance(p, SeatingRoll):
        return [Action("seat_roll", i) for i in p.waiting]
    if isinstance(p, RollOff):
        return [Action("rolloff", i) for i in p.waiting]
    if isinstance(p, DealDeeds):
        free = tuple(sq.index for sq in state.ruleset.squares if sq.is_property and state.owner[sq.index] is None)
        return [Action("deal", p.waiting[0], {"count": opts.dealt_deeds, "available": free})]
    if isinstance(p, GameOver) or p is None:
        return out
    if isinstance(p, AwaitRoll):
        out.append(Action("roll", p.player))
        pl = state.players[p.player]
        if pl.in_jail and not state.turn_started:
            if pl.cash >= state.ruleset.money.bail:
                out.append(Action("pay_bail", p.player, {"amount": state.ruleset.money.bail}))
            if pl.jail_cards:
                out.append(Action("use_jail_card", p.player, {"cards": tuple(pl.jail_cards)}))
    elif isinstance(p, BuyOrAuction):
        price = state.ruleset.squares[p.square].price
        if state.players[p.player].cash >= price:
            out.append(Action("buy", p.player, {"square": p.square, "price": price}))
        out.append(Action("decline", p.player, {"square": p.square}))
    elif isinstance(p, Auction):
        low = minimum_bid(state, p)
        for i in state.active:
            if i not in p.excluded and (i != p.high_bidder or opts.auction_own_raise):
                out.append(Action("bid", i, {"square": p.square, "minimum": low, "step": opts.auction_bid_step,
                                             "equal_calls": opts.auction_tie != "refuse"}))
        out.append(Action("hammer", None, {"square": p.square, "high_bid": p.high_bid, "high_bidder": p.high_bidder}))
    elif isinstance(p, IncomeTaxChoice):
        out.append(Action("income_tax", p.player, {"choices": ("flat", "percent"),
                                                   "flat": state.ruleset.squares[p.square].amount,
                                                   "percent": total_assets(state, p.player)
                                                   * opts.income_tax_percent // 100}))
    elif isinstance(p, DrawCard):
        out.append(Action("card", p.player, {"deck": p.deck, "cards": _cards.drawable_cards(state, p.deck)}))
    elif isinstance(p, RentRoll):
        out.append(Action("rent_roll", p.player, {"square": p.square, "multiplier": p.multiplier}))
    elif isinstance(p, JailFine):
        if not _jail.card_first(state):
            out.append(Action("pay_bail", p.player, {"amount": state.ruleset.money.bail}))
        if state.players[p.player].jail_cards:
            out.append(Action("use_jail_card", p.player, {"cards": tuple(state.players[p.player].jail_cards)}))
    elif isinstance(p, Debt):
        short_both = _bankruptcy.jail_exit_short(state)
        if raisable_cash(state, p.debtor) < p.amount or short_both:
            ahead = _bankruptcy.jail_exit_landing(state)[1] if short_both else 0  # the rent the roll leads to
            out.append(Action("bankrupt", p.debtor, {"amount": p.amount + ahead, "creditor": p.creditor,
                                                     "may_take_over": _bankruptcy.jail_exit_creditor(state)}))
    out.extend(_building.building_actions(state))
    out.extend(_trading.trade_actions(state))
    if not state.time_called:
        out.append(Action("time_called"))
    for i in state.active:
        for sq in state.deeds_of(i):
            if mortgage_refusal(state, i, sq) is None:
                out.append(Action("mortgage", i, {"square": sq, "value": state.ruleset.squares[sq].mortgage}))
            elif unmortgage_refusal(state, i, sq) is None:
                out.append(Action("unmortgage", i, {"square": sq, "cost": unmortgage_cost(state, sq)}))
    return out


# --- resolving an entry ----------------------------------------------------


class _Step:
    """Works out one entry's events on a copy of the state, applying each as it is made."""

    def __init__(self, state: GameState) -> None:
        self.state = state.copy()
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        event.apply(self.state)
        self.events.append(event)

    def refuse(self, code: str, pattern: str, clause: str, /, **params: Any) -> IllegalEntry:
        return _refuse(self.state, code, pattern, clause, **params)

    # -- who and what --

    def player(self, name: str | None, entry_type: str) -> int:
        s = self.state
        try:
            i = s.player_index(name or "")
        except KeyError:
            raise self.refuse("unknown_player", "no player named {name} at this table", "seating",
                              name=repr(name)) from None
        if s.players[i].bankrupt:
            raise self.refuse("bankrupt", "{player} is bankrupt and out of the game", "bankruptcy", player=Player(i))
        return i

    def square(self, ref: int | str | None, entry_type: str) -> int:
        try:
            return self.state.ruleset.square(ref).index
        except KeyError:
            raise self.refuse("unknown_square", "no square {square} on this board", "mortgage",
                              square=repr(ref)) from None

    def expect(self, entry: Entry, kind: type, clause: str):
        p = self.state.pending
        if not isinstance(p, kind):
            raise _not_now(self.state, entry.type, clause)
        return p

    def expect_actor(self, entry: Entry, who: int, clause: str) -> int:
        actor = self.player(entry.player, entry.type)
        if actor != who:
            raise self.refuse("wrong_player", "{entry} by {player}: {pending}", clause, entry=EntryKind(entry.type),
                              player=Player(actor), pending=Pending())
        return actor

    # -- money --

    def charge(self, payer: int, payee: int | str | None, amount: int, reason: str,
               to_bank_if_bankrupt: bool = False) -> None:
        """Pay at once if the payer's cash covers it; otherwise the payment becomes a debt."""
        if amount <= 0:
            return
        if not self.state.debts and self.state.players[payer].cash >= amount:
            self.emit(ev.Paid(payer, payee, amount, reason))
        else:
            creditor = payee if isinstance(payee, int) else None
            self.emit(ev.DebtQueued(Debt(payer, creditor, amount, reason, to_bank_if_bankrupt)))

    def transfer_interest(self, receiver: int, squares) -> None:
        """Official rules: whoever receives a mortgaged deed pays the 10% interest at once (ruleset option
        ``transferred_mortgage_interest = "on_transfer"``); JMA waives it until the mortgage is lifted."""
        s = self.state
        if s.ruleset.options.transferred_mortgage_interest != "on_transfer":
            return
        for sq in squares:
            if s.mortgaged[sq]:
                self.charge(receiver, None, interest(s, s.ruleset.squares[sq].mortgage), "interest")
                self.emit(ev.TransferInterestPaid(sq))

    def pay_bid(self, payment: BidPayment) -> None:
        """JMA 補足ルール「競売」: 誤って、支払うことのできない金額で落札してしまった場合は、落札を無効とし…
        購入のために権利書を抵当に入れたり、家等の売却を行うことは可能です。

        A winning bid stands when the winner can raise it by every means open to them then (cash, mortgages,
        buildings sold back): if their cash covers it, it is paid now; otherwise the table waits while they
        mortgage and sell (:class:`BidPayment`), and it is paid as soon as the cash is there."""
        if self.state.players[payment.player].cash < payment.amount:
            self.emit(ev.AwaitingDecision(payment))
        elif payment.square is not None:
            self.emit(ev.Paid(payment.player, None, payment.amount, "auction"))
            self.emit(ev.DeedTransferred(payment.square, payment.player))
            self.emit(ev.AwaitingDecision(None))
        else:  # a building won at a shortage auction: the winner now chooses the lot, and pays on it
            self.emit(ev.AwaitingDecision(PlaceBuilding(payment.player, payment.kind, payment.amount, payment.round)))

    def bank_or_pot(self) -> str | None:
        return POT if self.state.ruleset.options.free_parking == "tax_pot" else None

    def salary(self, player: int, landed_on_go: bool) -> None:
        money = self.state.ruleset.money
        self.emit(ev.Paid(None, player, money.go_landing_salary if landed_on_go else money.salary, "salary"))

    # -- movement --

    def move_by(self, player: int, steps: int) -> None:
        s = self.state
        start = s.players[player].position
        n = len(s.ruleset.squares)
        to = (start + steps) % n
        self.emit(ev.Moved(player, to))
        if start + steps >= n:
            self.salary(player, to == 0)
        self.land(player)

    def advance_to(self, player: int, target: int, **landing: int) -> None:
        start = self.state.players[player].position
        self.emit(ev.Moved(player, target))
        if target <= start:
            self.salary(player, target == 0)
        self.land(player, **landing)

    def land(self, player: int, rent_multiplier: int = 1, dice_multiplier: int = 0) -> None:
        s = self.state
        at = s.players[player].position
        sq = s.ruleset.squares[at]
        opts = s.ruleset.options
        if sq.is_property:
            owner = s.owner[at]
            if owner is None:
                self.emit(ev.AwaitingDecision(BuyOrAuction(player, at)))
            elif owner != player and not s.mortgaged[at]:
                if s.players[owner].in_jail and not opts.rent_while_in_jail:
                    return
                if sq.kind == "utility" and dice_multiplier:
                    self.emit(ev.AwaitingDecision(RentRoll(player, at, dice_multiplier)))
                else:
                    self.charge(player, owner, rent(s, at, sum(s.last_dice), rent_multiplier), "rent")
        elif sq.kind == "tax":
            if sq.tax == "income" and opts.income_tax == "choice":
                self.emit(ev.AwaitingDecision(IncomeTaxChoice(player, at)))
            else:
                self.charge(player, self.bank_or_pot(), sq.amount, "tax")
        elif sq.kind in ("chance", "community_chest"):
            self.emit(ev.AwaitingDecision(DrawCard(player, sq.kind)))
        elif sq.kind == "go_to_jail":
            self.emit(ev.Jailed(player))
        elif sq.kind == "free_parking" and s.pot and opts.free_parking == "tax_pot":
            self.emit(ev.Paid(POT, player, s.pot, "free_parking"))

    # -- flow --

    def settle(self) -> None:
        """Carry the game on until it waits for the referee again."""
        s = self.state
        while True:
            p = s.pending
            if isinstance(p, Debt):
                if s.players[p.debtor].cash < p.amount or _bankruptcy.jail_exit_short(s):
                    return  # JMA: the fine waits while it and the rent ahead are not both covered
                if s.rescue_parts:
                    self.emit(ev.RescueSettled())  # the split rescue covers both: its parts stand
                for creditor, amount in p.shares or ((p.creditor, p.amount),):
                    payee = creditor if creditor is not None else self.bank_or_pot()
                    self.emit(ev.Paid(p.debtor, payee, amount, p.reason))
                self.emit(ev.AwaitingDecision(None))
                continue
            if isinstance(p, BidPayment):
                if s.players[p.player].cash < p.amount:
                    return
                self.pay_bid(p)
                continue
            if p is not None:
                return
            if len(s.active) <= 1:
                _ending.end_game(self, "monopoly")
                return
            if s.debts:
                self.emit(ev.DebtTaken())
                continue
            if s.estate_auctions:
                square = s.estate_auctions[0]
                self.emit(ev.EstateAuctionTaken())
                self.emit(ev.AwaitingDecision(Auction(square)))
                return
            if s.resume is not None:
                resume = s.resume
                self.emit(ev.ResumeSet(None))
                self.run_resume(resume)
                continue
            cur = s.current
            again = not s.players[cur].bankrupt and s.doubles and not s.players[cur].in_jail
            nxt = cur if again else s.next_player(cur)
            if s.time_called and _ending.time_is_up(s, nxt, again):
                _ending.end_game(self, "time")
            elif again:
                self.emit(ev.AwaitingDecision(AwaitRoll(cur)))  # doubles: roll again
            else:
                self.emit(ev.TurnBegan(nxt))
                self.emit(ev.AwaitingDecision(AwaitRoll(nxt)))
            return

    def run_resume(self, resume: tuple) -> None:
        kind, player, how, steps = resume
        if kind == "jail_exit":
            if self.state.players[player].bankrupt:
                return
            self.emit(ev.Released(player, how))
            self.move_by(player, steps)


# --- handlers: check, then make the events -----------------------------------


def _seat_roll(step: _Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, SeatingRoll, "seating")
    who = step.player(entry.player, entry.type)
    if who not in p.waiting:
        raise step.refuse("not_waiting", "{player} is not due to roll: {pending}", "seating", player=Player(who),
                          pending=Pending())
    rolls = list(p.rolls)
    rolls[who] = rolls[who] + (sum(entry.dice),)
    waiting = tuple(i for i in p.waiting if i != who)
    if waiting:
        step.emit(ev.AwaitingDecision(SeatingRoll(waiting, tuple(rolls))))
        return
    tied = _seating_ties(s, rolls)
    if tied:
        step.emit(ev.AwaitingDecision(SeatingRoll(tied, tuple(rolls))))
        return
    n = len(rolls)
    ranked = sorted(range(n), key=lambda i: rolls[i], reverse=True)
    if s.ruleset.options.seating_order == "highest_then_seat_order":
        first = ranked[0]
        order = tuple((first + k) % n for k in range(n))
    else:
        order = tuple(ranked)
    step.emit(ev.SeatingOrdered(order))
    step.emit(ev.TurnBegan(0))
    if s.ruleset.options.dealt_deeds:
        step.emit(ev.AwaitingDecision(DealDeeds(tuple(reversed(range(n))))))
    else:
        step.emit(ev.AwaitingDecision(AwaitRoll(0)))


def deal_refusal(state: GameState, player: int, squares: list[int]) -> IllegalEntry | None:
    """Tournament regulation: each player is dealt the ruleset's number of deeds, bought at face value;
    a pair of one colour, two railroads or two utilities is dealt again."""
    opts = state.ruleset.options
    if len(squares) != opts.dealt_deeds or len(set(squares)) != len(squares):
        return _refuse(state, "bad_deal", "{player} is dealt {count} different deeds, not {given}", "dealt_deeds",
                       player=Player(player), count=opts.dealt_deeds, given=len(squares))
    for sq in squares:
        if not state.ruleset.squares[sq].is_property or state.owner[sq] is not None:
            return _refuse(state, "not_dealable", "{square} is not an unowned deed", "dealt_deeds",
                           square=Square(sq))
    groups = [state.ruleset.squares[sq].group for sq in squares]
    if opts.dealt_deeds_redeal_pairs and len(squares) == 2 and groups[0] == groups[1]:
        return _refuse(state, "redeal", "{first} and {second} are one colour group, two railroads or two utilities: "
                       "deal again", "dealt_deeds_redeal_pairs", first=Square(squares[0]), second=Square(squares[1]))
    price = sum(state.ruleset.squares[sq].price for sq in squares)
    if state.players[player].cash < price:
        return _refuse(state, "cannot_afford", "{player} cannot pay {price}", "dealt_deeds", player=Player(player),
                       price=Money(price))
    return None


def _deal(step: _Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, DealDeeds, "dealt_deeds")
    who = step.expect_actor(entry, p.waiting[0], "dealt_deeds")
    squares = [step.square(ref, entry.type) for ref in entry.deeds]
    refusal = deal_refusal(s, who, squares)
    if refusal:
        raise refusal
    for sq in squares:
        step.emit(ev.Paid(who, None, s.ruleset.squares[sq].price, "purchase"))
        step.emit(ev.DeedTransferred(sq, who))
    rest = p.waiting[1:]
    step.emit(ev.AwaitingDecision(DealDeeds(rest) if rest else AwaitRoll(s.current)))


def _seating_ties(state: GameState, rolls: list[tuple[int, ...]]) -> tuple[int, ...]:
    """Players who must roll again: every tie (by_roll), or only a tie for the highest roll."""
    if state.ruleset.options.seating_order == "highest_then_seat_order":
        top = max(rolls)
        tied = tuple(i for i, r in enumerate(rolls) if r == top)
        return tied if len(tied) > 1 else ()
    return tuple(i for i, r in enumerate(rolls) if rolls.count(r) > 1)


def _roll(step: _Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, AwaitRoll, "dice")
    who = step.expect_actor(entry, p.player, "dice")
    d1, d2 = entry.dice
    doubles = d1 == d2
    player = s.players[who]
    step.emit(ev.AwaitingDecision(None))
    if player.in_jail:
        if s.time_called:
            step.emit(ev.FinalRollMade())
        step.emit(ev.DiceRolled(who, entry.dice, 0))
        if doubles:
            step.emit(ev.Released(who, "doubles"))
            step.move_by(who, d1 + d2)
            return
        step.emit(ev.JailRollFailed(who))
        if player.jail_rolls >= s.ruleset.options.jail_max_rolls:
            if player.jail_cards or _jail.card_for_sale(s, who):
                step.emit(ev.AwaitingDecision(JailFine(who, entry.dice)))
            else:
                step.emit(ev.ResumeSet(("jail_exit", who, "bail", d1 + d2)))
                step.charge(who, step.bank_or_pot(), s.ruleset.money.bail, "bail")
        return
    if s.time_called:
        step.emit(ev.FinalRollMade())
    in_a_row = s.doubles + 1 if doubles else 0
    if doubles and s.prepaid_release and not s.ruleset.options.doubles_after_prepaid_release_roll_again:
        in_a_row = 0
    step.emit(ev.DiceRolled(who, entry.dice, in_a_row))
    if in_a_row >= s.ruleset.options.doubles_to_jail:
        step.emit(ev.Jailed(who))
        return
    step.move_by(who, d1 + d2)


def _buy(step: _Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, BuyOrAuction, "purchase")
    who = step.expect_actor(entry, p.player, "purchase")
    price = s.ruleset.squares[p.square].price
    cash = s.players[who].cash
    if cash < price:
        raise step.refuse("cannot_afford", "{player} has {cash}; {square} costs {price} (mortgage first, or decline)",
                          "purchase", player=Player(who), cash=Money(cash), square=Square(p.square),
                          price=Money(price))
    step.emit(ev.Paid(who, None, price, "purchase"))
    step.emit(ev.DeedTransferred(p.square, who))
    step.emit(ev.AwaitingDecision(None))


def _decline(step: _Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, BuyOrAuction, "purchase")
    step.expect_actor(entry, p.player, "purchase")
    if s.ruleset.options.auction_on_decline:
        step.emit(ev.AwaitingDecision(Auction(p.square)))
    else:
        step.emit(ev.AwaitingDecision(None))


def _bid(step: _Step, entry: Entry) -> None:
    s = step.state
    if isinstance(s.pending, BuildingAuction):
        return _building.bid_on_building(step, entry, s.pending)
    auction = step.expect(entry, Auction, "auction")
    bidders = [step.player(name, entry.type) for name in entry.bidders]
    if len(set(bidders)) != len(bidders):
        raise step.refuse("duplicate_bidder", "a player is named twice among the callers {players}", "auction",
                          players=Many(entry.bidders))
    refusal = _bid_refusal(s, auction, bidders, entry.amount)
    if refusal:
        raise refusal
    winner = bidders[0] if len(bidders) == 1 else tie_winner(s, bidders)
    step.emit(ev.AwaitingDecision(replace(auction, high_bid=entry.amount, high_bidder=winner)))


def _hammer(step: _Step, entry: Entry) -> None:
    s = step.state
    if isinstance(s.pending, BuildingAuction):
        return _building.hammer_building(step, entry, s.pending)
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


def _income_tax(step: _Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, IncomeTaxChoice, "tax")
    who = step.expect_actor(entry, p.player, "tax")
    if entry.choice == "flat":
        amount = s.ruleset.squares[p.square].amount
    else:
        amount = total_assets(s, who) * s.ruleset.options.income_tax_percent // 100
    step.emit(ev.AwaitingDecision(None))
    step.charge(who, step.bank_or_pot(), amount, "tax")


def _rent_roll(step: _Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, RentRoll, "utility_rent")
    who = step.expect_actor(entry, p.player, "utility_rent")
    step.emit(ev.AwaitingDecision(None))
    step.charge(who, s.owner[p.square], sum(entry.dice) * p.multiplier, "rent")


def _mortgage(step: _Step, entry: Entry) -> None:
    s = step.state
    who = step.player(entry.player, entry.type)
    square = step.square(entry.square, entry.type)
    refusal = mortgage_refusal(s, who, square)
    if refusal:
        raise refusal
    step.emit(ev.Mortgaged(square))
    step.emit(ev.Paid(None, who, s.ruleset.squares[square].mortgage, "mortgage"))


def _unmortgage(step: _Step, entry: Entry) -> None:
    s = step.state
    who = step.player(entry.player, entry.type)
    square = step.square(entry.square, entry.type)
    refusal = unmortgage_refusal(s, who, square)
    if refusal:
        raise refusal
    step.emit(ev.Paid(who, None, unmortgage_cost(s, square), "unmortgage"))
    step.emit(ev.Unmortgaged(square))


HANDLERS: dict[str, Callable[[_Step, Entry], None]] = {
    "seat_roll": _seat_roll, "deal": _deal, "roll": _roll, "buy": _buy, "decline": _decline, "bid": _bid,
    "hammer": _hammer, "income_tax": _income_tax, "rent_roll": _rent_roll, "mortgage": _mortgage,
    "unmortgage": _unmortgage,
}


def resolve(state: GameState, entry: Entry) -> Outcome:
    """Check ``entry`` against the rules and work out its events; ``state`` is left as it was."""
    if state.over or isinstance(state.pending, RollOff) and entry.type != "rolloff":
        raise _not_now(state, entry.type, "game_end", code="game_over")
    handler = HANDLERS.get(entry.type)
    if handler is None:
        raise _refuse(state, "not_an_engine_entry", "{entry} is applied by the game record, not by the rules",
                      "correction", entry=EntryKind(entry.type))
    step = _Step(state)
    handler(step, entry)
    step.settle()
    return Outcome(tuple(step.events), step.state)


def check(state: GameState, entry: Entry) -> tuple[ev.Event, ...]:
    """The events ``entry`` would bring about, or :class:`IllegalEntry`."""
    return resolve(state, entry).events


def apply(state: GameState, events: tuple[ev.Event, ...]) -> GameState:
    """A new state: ``state`` with ``events`` applied."""
    new = state.copy()
    for event in events:
        event.apply(new)
    return new


from . import bankruptcy as _bankruptcy  # noqa: E402  (these modules use the helpers above)
from . import building as _building  # noqa: E402
from . import cards as _cards  # noqa: E402
from . import ending as _ending  # noqa: E402
from . import jail as _jail  # noqa: E402
from . import trading as _trading  # noqa: E402

HANDLERS.update(_cards.CARD_HANDLERS)
HANDLERS.update(_jail.JAIL_HANDLERS)
HANDLERS.update(_bankruptcy.BANKRUPTCY_HANDLERS)
HANDLERS.update(_building.BUILDING_HANDLERS)
HANDLERS.update(_trading.TRADING_HANDLERS)
HANDLERS.update(_ending.ENDING_HANDLERS)
