"""One entry worked out: a copy of the state (or, in a fold in place, the state itself), and the events made so
far, each applied as it is made.

A rule's handler is given a :class:`Step`; it checks the entry (raising :class:`~.errors.IllegalEntry`) and emits
the events it brings about.  The step also holds what many rules do alike: charge a payment or queue it as a
debt, pay a winning bid, move a token and land it.
"""
from __future__ import annotations

from collections.abc import Container, Iterable
from typing import Any, Callable, TypeVar

from . import events as ev
from .entries import Entry
from .errors import IllegalEntry, illegal
from .facts import interest, rent, tax_amount
from .phrases import EntryKind, Waiting, Player
from .state import (BidPayment, BuyOrAuction, Debt, DrawCard, GameState, IncomeTaxChoice, OwnProperty, PlaceBuilding,
                    RentRoll)
from .timing import not_now

POT = ev.POT
# called with the state after each event as it is made (the simulator checks its invariants so); an entry that is
# then refused has its events shown to it all the same, up to the refusal.  An observer with an ``event_types``
# attribute (a set of event classes) is shown the events of those types only.
Observer = Callable[[GameState, ev.Event], None]
Awaited = TypeVar("Awaited")  # a kind of decision awaited (a pending class of .state)


class _EveryType:
    """Holds every event type: what an observer that names none of its own is shown."""

    def __contains__(self, kind: object) -> bool:
        return True


_EVERY = _EveryType()
_NONE: frozenset[type] = frozenset()


def _unobserved(state: GameState, event: ev.Event) -> None:
    """The observer of a step that has none: never called, as it watches no event type."""


class Step:
    """Works out one entry's events on a copy of the state (``in_place``: on the state itself), applying each as
    it is made."""

    __slots__ = ("state", "events", "observe", "watched")

    def __init__(self, state: GameState, observe: Observer | None = None, in_place: bool = False) -> None:
        self.state = state if in_place else state.copy()
        self.events: list[ev.Event] = []
        # the event types the observer is shown: none without one, every type for one that names none
        if observe is None:
            self.observe: Observer = _unobserved
            self.watched: Container[type] = _NONE
        else:
            self.observe = observe
            self.watched = getattr(observe, "event_types", _EVERY)

    def emit(self, event: ev.Event) -> None:
        event.apply(self.state)
        self.events.append(event)
        if type(event) in self.watched:
            self.observe(self.state, event)

    def refuse(self, code: str, pattern: str, clause: str, /, **params: Any) -> IllegalEntry:
        return illegal(self.state, code, pattern, clause, **params)

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

    def expect(self, entry: Entry, kind: type[Awaited], clause: str) -> Awaited:
        """The decision awaited, if it is of ``kind``; else the entry is refused as not now."""
        p = self.state.pending
        if type(p) is not kind:  # no pending class is subclassed
            raise not_now(self.state, entry.type, clause)
        return p

    def expect_actor(self, entry: Entry, who: int, clause: str) -> int:
        expected = self.state.players[who]
        if entry.player == expected.name and not expected.bankrupt:
            return who  # the player the table waits for (names are unique at a table)
        actor = self.player(entry.player, entry.type)
        if actor != who:
            raise self.refuse("wrong_player", "{entry} by {player}: {pending}", clause, entry=EntryKind(entry.type),
                              player=Player(actor), pending=Waiting())
        return actor

    # -- money --

    def charge(self, payer: int, payee: int | str | None, amount: int, reason: str,
               to_bank_if_bankrupt: bool = False) -> None:
        """Pay at once if the payer's cash covers it; otherwise the payment becomes a debt."""
        if amount <= 0:
            return
        s = self.state
        cash = s.players[payer].cash
        if not s.debts and cash >= amount:
            self.emit(ev.Paid(payer, payee, amount, reason))
        elif s.ruleset.options.short_payment == "all_cash_then_out":
            # 004, 2: Zahlungsverpflichtungen, denen nicht mehr in voller Höhe nachgekommen werden kann, werden nur
            # noch soweit möglich erfüllt (the player, now at 0, is out: rules.settle)
            if cash > 0:
                self.emit(ev.Paid(payer, payee, cash, reason))
        else:
            creditor = payee if isinstance(payee, int) else None
            self.emit(ev.DebtQueued(Debt(payer, creditor, amount, reason, to_bank_if_bankrupt)))

    def bank_pays(self, player: int, amount: int, reason: str) -> None:
        """The bank pays; a finite bank (004: 200,000 M) pays what it has left, and no more."""
        left = self.state.bank_cash
        if left is not None:
            amount = min(amount, max(left, 0))
        if amount > 0:
            self.emit(ev.Paid(None, player, amount, reason))

    def transfer_interest(self, receiver: int, squares: Iterable[int]) -> None:
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
            kind, round_ = payment.kind, payment.round
            assert kind is not None and round_ is not None  # a payment for a building carries both (BidPayment)
            self.emit(ev.AwaitingDecision(PlaceBuilding(payment.player, kind, payment.amount, round_)))

    def bank_or_pot(self, reason: str) -> str | None:
        """Where a payment to the bank goes: the free-parking pot for the kinds of payment the ruleset's
        ``pot_payments`` name (by the Korean wiki's Texas rule, taxes only), when it keeps a pot; else the bank."""
        opts = self.state.ruleset.options
        return POT if opts.free_parking == "tax_pot" and reason in opts.pot_payments else None

    def salary(self, player: int, landed_on_go: bool) -> None:
        """GO pays the salary; landing exactly on it pays ``money.go_landing_salary`` where the ruleset says so
        (option ``go_landing_bonus``: the Korean wiki's "Just Go", the German variant's 6,000 M)."""
        s = self.state
        money = s.ruleset.money
        if landed_on_go and s.ruleset.options.go_landing_bonus:
            self.bank_pays(player, money.go_landing_salary, "go_landing")
        else:
            self.bank_pays(player, money.salary, "salary")

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
            elif owner == player:
                if opts.landing_on_own == "build_one_or_sell":  # 004: build one house here, or sell it back
                    self.emit(ev.AwaitingDecision(OwnProperty(player, at)))
            elif not s.mortgaged[at]:
                if s.players[owner].in_jail and not opts.rent_while_in_jail:
                    self.emit(ev.RentWaived(player, at, owner))
                    return
                if sq.kind == "utility" and dice_multiplier:
                    self.emit(ev.AwaitingDecision(RentRoll(player, at, dice_multiplier)))
                else:
                    self.charge(player, owner, rent(s, at, sum(s.last_dice), rent_multiplier), "rent")
        elif sq.kind == "tax":
            if sq.tax == "income" and opts.income_tax == "choice":
                self.emit(ev.AwaitingDecision(IncomeTaxChoice(player, at)))
            else:
                self.charge(player, self.bank_or_pot("tax"), tax_amount(s.ruleset, at), "tax")
        elif sq.kind in ("chance", "community_chest") and s.ruleset.decks[sq.kind]:  # 004: no cards, an empty square
            self.emit(ev.AwaitingDecision(DrawCard(player, sq.kind)))
        elif sq.kind == "go_to_jail":
            self.emit(ev.Jailed(player))
        elif sq.kind == "free_parking" and s.pot and opts.free_parking == "tax_pot":
            self.emit(ev.Paid(POT, player, s.pot, "free_parking"))
