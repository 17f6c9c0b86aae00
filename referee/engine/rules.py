"""The rules: what may be recorded now, and what an entry brings about.

``legal_actions(state)`` lists what the table may record next (the tablet
draws its buttons from it).  ``resolve(state, entry)`` checks the entry
against the same predicates and either raises :class:`IllegalEntry` (code,
message with the bad value, the ruleset clause) or returns the events the
entry brings about and the state after them.  The state given is not
changed (unless asked to be: a fold in place, :class:`.record.Game`).  Each kind of entry is checked and worked out by its own module
(:mod:`.turn`, :mod:`.auction`, :mod:`.declarations`, :mod:`.cards`, :mod:`.jail`,
:mod:`.bankruptcy`, :mod:`.ending`, and each kind of entry recorded whatever the decision awaited in a module of
its own, :mod:`.kinds`); this one carries the game on between them.
"""
from __future__ import annotations

from typing import Any, Callable, Collection

from . import events as ev
from .auction import auction_actions, bid_on_deed, hammer_deed
from .bankruptcy import BANKRUPTCY_HANDLERS, go_bankrupt
from .building import Change, even_targets, plan_change
from .cards import CARD_HANDLERS, drawable_cards
from .declarations import DECLARATION_HANDLERS, DECLARATION_KINDS_AT, bid_on_building, declaration_actions, hammer_building
from .ending import ENDING_HANDLERS, end_game, time_is_up
from .facts import ending_bankruptcy, sits_out
from .entries import ENTRY_FIELDS, Action, Entry
from .errors import IllegalEntry, illegal
from .facts import card_first, jail_exit_creditor, jail_exit_rent_ahead, jail_exit_short, raisable_cash, total_assets
from .jail import JAIL_HANDLERS
from .own_landing import OWN_LANDING_HANDLERS, own_landing_actions
from .phrases import EntryKind
from . import kinds  # noqa: F401  (the kinds of entry declared each in a module of its own register themselves)
from .registry import AT_ANY_DECISION, HANDLERS, on_change
from .state import (AwaitRoll, Auction, BidPayment, BuildingAuction, BuildRound, BuyOrAuction, DealDeeds, Debt, DrawCard, FineOrCard, GameOver, GameState, OwnProperty,
                    IncomeTaxChoice, JailFine, Pending, PlaceBuilding, RentRoll, Resume, RollOff, SeatingRoll,
                    awaiting_roll)
from .step import Observer, Step
from .timing import not_now
from .turn import TURN_HANDLERS


class Outcome:
    """What an entry brings about: its events, and the state after them (a value nothing changes; a plain class,
    as one is made for every entry recorded, and a named tuple takes twice as long to make)."""

    __slots__ = ("events", "state")

    def __init__(self, events: tuple[ev.Event, ...], state: GameState) -> None:
        self.events = events
        self.state = state

    def __repr__(self) -> str:
        return f"Outcome(events={self.events!r}, state=...)"


def legal_actions(state: GameState, kinds: Collection[str] | None = None, player: int | None = None) -> list[Action]:
    """Everything the table may record now, with the limits the buttons need; with ``kinds`` (entry types), only
    those, and with ``player``, only that player's (what is not asked for is not worked out)."""
    p = state.pending
    kind = type(p)
    if p is None or kind is GameOver:
        return []
    if kinds is None:
        out = _decision_actions(state, p)
        if kind not in _SET_UP:
            for _, actions in AT_ANY_DECISION:
                out.extend(actions(state, player))
        return out if player is None else [a for a in out if a.player == player]
    try:
        answers, producers, asked, exact = _PLANS[kind, kinds]
    except (KeyError, TypeError):  # kinds not asked for before at this decision, or not as a tuple
        answers, producers, asked, exact = _plan(kind, kinds)
    if answers:
        out = _ANSWERING[kind](state, p)
        for actions in producers:
            out.extend(actions(state, player))
    elif len(producers) == 1:
        out = producers[0](state, player)  # a new list
    else:
        out = []
        for actions in producers:
            out.extend(actions(state, player))
    if exact and player is None:  # every action made is of a kind asked for
        return out
    return [a for a in out if a.type in asked and (player is None or a.player == player)]


Producer = Callable[[GameState, int | None], list[Action]]  # the actions of one kind of entry that may be recorded now
Plan = tuple[bool, tuple[Producer, ...], frozenset[str], bool]  # what _plan works out

_PLANS: dict[tuple[type, Collection[str]], Plan] = {}  # (decision type, kinds asked) -> what legal_actions works out
on_change(_PLANS.clear)  # a kind registered or taken away: the plans are worked out again



def _plan(kind: type, kinds: Collection[str]) -> Plan:
    """What answers to ``kinds`` at a decision of type ``kind``: whether the decision's own answers are asked for,
    the producers of the other actions that make a kind asked for, the kinds as a set, and whether those make
    nothing else (so nothing is left to filter out).  Worked out once for each decision type and kinds asked."""
    key = (kind, kinds if isinstance(kinds, (tuple, frozenset)) else tuple(kinds))
    plan = _PLANS.get(key)
    if plan is None:
        asked = frozenset(kinds)
        answers = not _ANSWERS[kind].isdisjoint(asked) and kind in _ANSWERING
        made = set(_ANSWERS[kind]) if answers else set()
        producers = []
        if kind not in _SET_UP:
            for makes, actions in AT_ANY_DECISION:
                at = _MAKES_AT.get(actions)
                if at is not None:  # what it makes at this decision (nothing at one its table leaves out)
                    makes = at.get(kind, frozenset())
                if not makes.isdisjoint(asked):
                    producers.append(actions)
                    made |= makes
        plan = (answers, tuple(producers), asked, made <= asked)
        if len(_PLANS) < 1024:  # the kinds asked come from code, not from a table: a handful of sets
            _PLANS[key] = plan
    return plan


_SET_UP = frozenset((SeatingRoll, RollOff, DealDeeds))  # decisions before play (or after it): nothing else is open


def _decision_actions(state: GameState, p: Pending) -> list[Action]:
    """What answers the decision the table waits for."""
    answers = _ANSWERING.get(type(p))
    return answers(state, p) if answers is not None else []


def _seat_rolls(state: GameState, p: SeatingRoll) -> list[Action]:
    return [Action("seat_roll", i) for i in p.waiting]


def _rolloffs(state: GameState, p: RollOff) -> list[Action]:
    return [Action("rolloff", i) for i in p.waiting]


def _deals(state: GameState, p: DealDeeds) -> list[Action]:
    free = tuple(sq.index for sq in state.ruleset.squares if sq.is_property and state.owner[sq.index] is None)
    return [Action("deal", p.waiting[0], {"count": state.ruleset.options.dealt_deeds, "available": free})]


def _rolls(state: GameState, p: AwaitRoll) -> list[Action]:
    out = [Action("roll", p.player)]
    pl = state.players[p.player]
    if pl.in_jail and not state.turn_started:
        if pl.cash >= state.ruleset.money.bail:
            out.append(Action("pay_bail", p.player, {"amount": state.ruleset.money.bail}))
        if pl.jail_cards:
            out.append(Action("use_jail_card", p.player, {"cards": tuple(pl.jail_cards)}))
        if state.ruleset.options.jail_skip_turn:
            out.append(Action("skip_jail_turn", p.player))
    return out


def _buy_or_decline(state: GameState, p: BuyOrAuction) -> list[Action]:
    out = []
    price = state.ruleset.squares[p.square].price
    if state.players[p.player].cash >= price:
        out.append(Action("buy", p.player, {"square": p.square, "price": price}))
    out.append(Action("decline", p.player, {"square": p.square}))
    return out


def _income_tax_choice(state: GameState, p: IncomeTaxChoice) -> list[Action]:
    return [Action("income_tax", p.player, {"choices": ("flat", "percent"),
                                            "flat": state.ruleset.squares[p.square].amount,
                                            "percent": total_assets(state, p.player)
                                            * state.ruleset.options.income_tax_percent // 100})]


def _card_draw(state: GameState, p: DrawCard) -> list[Action]:
    return [Action("card", p.player, {"deck": p.deck, "cards": drawable_cards(state, p.deck)})]


def _fine_or_card(state: GameState, p: FineOrCard) -> list[Action]:
    return [Action("fine_or_card", p.player, {"choices": ("pay", "draw"), "amount": p.amount, "deck": p.deck})]


def _rent_roll(state: GameState, p: RentRoll) -> list[Action]:
    return [Action("rent_roll", p.player, {"square": p.square, "multiplier": p.multiplier})]


def _jail_fine(state: GameState, p: JailFine) -> list[Action]:
    out = []
    if not card_first(state):
        out.append(Action("pay_bail", p.player, {"amount": state.ruleset.money.bail}))
    if state.players[p.player].jail_cards:
        out.append(Action("use_jail_card", p.player, {"cards": tuple(state.players[p.player].jail_cards)}))
    if state.ruleset.options.jail_skip_turn:
        out.append(Action("skip_jail_turn", p.player))
    return out


def _bankruptcy(state: GameState, p: Debt) -> list[Action]:
    ahead = jail_exit_rent_ahead(state)  # the rent the fine's roll leads to, owed with it (JMA)
    if raisable_cash(state, p.debtor) < p.amount or ahead:
        return [Action("bankrupt", p.debtor, {"amount": p.amount + ahead, "creditor": p.creditor,
                                              "may_take_over": jail_exit_creditor(state)})]
    return []


# what answers each kind of decision (the decisions of a round of declarations are answered by the declarations'
# own actions, in AT_ANY_DECISION); each is given a decision of its key's type (which a dict's type cannot say)
_ANSWERING: dict[type, Callable[[GameState, Any], list[Action]]] = {
    SeatingRoll: _seat_rolls, RollOff: _rolloffs, DealDeeds: _deals, AwaitRoll: _rolls, BuyOrAuction: _buy_or_decline,
    Auction: auction_actions, IncomeTaxChoice: _income_tax_choice, DrawCard: _card_draw, FineOrCard: _fine_or_card,
    OwnProperty: own_landing_actions, RentRoll: _rent_roll,
    JailFine: _jail_fine, Debt: _bankruptcy,
}


# the kinds of entry that may answer each kind of decision (the rest of legal_actions comes after)
_ANSWERS: dict[type, frozenset[str]] = {
    SeatingRoll: frozenset(("seat_roll",)), RollOff: frozenset(("rolloff",)), DealDeeds: frozenset(("deal",)),
    AwaitRoll: frozenset(("roll", "pay_bail", "use_jail_card", "skip_jail_turn")), BuyOrAuction: frozenset(("buy", "decline")),
    Auction: frozenset(("bid", "hammer")), IncomeTaxChoice: frozenset(("income_tax",)),
    DrawCard: frozenset(("card",)), FineOrCard: frozenset(("fine_or_card",)), RentRoll: frozenset(("rent_roll",)),
    OwnProperty: frozenset(("build_house", "sell_to_bank", "keep")),
    JailFine: frozenset(("pay_bail", "use_jail_card", "skip_jail_turn")), Debt: frozenset(("bankrupt",)),
    BuildRound: frozenset(), BuildingAuction: frozenset(), PlaceBuilding: frozenset(), BidPayment: frozenset(),
}


def decision_kinds(state: GameState) -> frozenset[str]:
    """The kinds of entry that may answer the decision the table waits for (legal_actions lists which now)."""
    return _ANSWERS.get(type(state.pending), frozenset())


# what may be recorded whatever the decision awaited (each where its own rules allow it): the kinds each makes; the
# kinds declared in modules of their own (.kinds) follow, each with its own
AT_ANY_DECISION[:0] = (
    (frozenset(("build", "withdraw_build", "close_builds", "place_building", "bid", "hammer")), declaration_actions),
)


# the kinds a producer above can make at each kind of decision, where that is fewer than all it makes: building
# declarations are made only at the roll awaited and in a round of declarations (timing.build_time), bids and the
# hammer at a shortage auction, the placing after it (test_predicates checks these against the full lists)
_MAKES_AT: dict[Producer, dict[type, frozenset[str]]] = {declaration_actions: DECLARATION_KINDS_AT}


def settle(step: Step) -> None:
    """Carry the game on until it waits for the referee again."""
    s = step.state
    opts = s.ruleset.options
    out_at_zero = opts.short_payment == "all_cash_then_out"
    ends_early = bool(opts.end_after_bankruptcies)  # ending_bankruptcy is asked only where it can be true
    while True:
        if out_at_zero:
            for i in s.active:
                if s.players[i].cash <= 0:  # 004, 3: dessen Privatvermögen auf 0 gefallen ist, scheidet aus
                    go_bankrupt(step, Debt(i, None, 0, "out", True))
        p = s.pending
        if p is not None:
            kind = type(p)  # no pending class is subclassed (each assert below says so to a type checker)
            if kind is Debt:
                assert isinstance(p, Debt)
                if s.players[p.debtor].cash < p.amount or jail_exit_short(s):
                    return  # JMA: the fine waits while it and the rent ahead are not both covered
                if s.rescue_parts:
                    step.emit(ev.RescueSettled())  # the split rescue covers both: its parts stand
                for creditor, amount in p.shares or ((p.creditor, p.amount),):
                    payee = creditor if creditor is not None else step.bank_or_pot(p.reason)
                    step.emit(ev.Paid(p.debtor, payee, amount, p.reason))
                step.emit(ev.AwaitingDecision(None))
                continue
            if kind is BidPayment:
                assert isinstance(p, BidPayment)
                if s.players[p.player].cash < p.amount:
                    return
                step.pay_bid(p)
                continue
            return
        if len(s.active) <= 1:
            end_game(step, "monopoly")
            return
        if ends_early and ending_bankruptcy(s, 0):
            end_game(step, "bankruptcies")  # 003, shortened game: the game ends at the second bankruptcy
            return
        if s.debts:
            step.emit(ev.DebtTaken())
            continue
        if s.estate_auctions:
            square = s.estate_auctions[0]
            step.emit(ev.EstateAuctionTaken())
            step.emit(ev.AwaitingDecision(Auction(square)))
            return
        if s.resume is not None:
            resume = s.resume
            step.emit(ev.ResumeSet(None))
            _run_resume(step, resume)
            continue
        cur = s.current
        pl = s.players[cur]
        again = s.doubles > 0 and not pl.bankrupt and not pl.in_jail
        nxt = cur if again else s.next_player(cur)
        if s.time_called and time_is_up(s, nxt, again):
            end_game(step, "time")
        elif s.bank_emptied and not again and nxt <= cur:
            end_game(step, "bank")  # 004, 3: spätestens nach der Runde, in der das Bankvermögen auf 0 gefallen ist
        elif again:
            step.emit(ev.AwaitingDecision(awaiting_roll(cur)))  # doubles: roll again
        else:
            step.emit(ev.TurnBegan(nxt))  # and the table waits for the roll
            if s.players[nxt].in_jail and sits_out(s, nxt):  # (a player out of jail never sits out)
                step.emit(ev.JailTurnSat(nxt))  # 004, Polizist: Dort setzt er 3 Runden lang aus
                continue
        return

def _run_resume(step: Step, resume: Resume) -> None:
    kind, player, how, steps = resume
    if kind == "await_roll":  # a fine recorded while a roll was awaited is paid: the same roll is awaited again
        if not step.state.players[player].bankrupt:
            step.emit(ev.AwaitingDecision(awaiting_roll(player)))
        return
    if kind == "jail_exit":
        if step.state.players[player].bankrupt:
            return
        step.emit(ev.Released(player, how))
        step.move_by(player, steps)


def _bid(step: Step, entry: Entry) -> None:
    if isinstance(step.state.pending, BuildingAuction):
        bid_on_building(step, entry, step.state.pending)
    else:
        bid_on_deed(step, entry)


def _hammer(step: Step, entry: Entry) -> None:
    if isinstance(step.state.pending, BuildingAuction):
        hammer_building(step, entry, step.state.pending)
    else:
        hammer_deed(step, entry)


HANDLERS.update({  # the rules' own entry types' handlers, beside those of the kinds of .kinds
    **TURN_HANDLERS, "bid": _bid, "hammer": _hammer, **CARD_HANDLERS, **JAIL_HANDLERS,
    **BANKRUPTCY_HANDLERS, **DECLARATION_HANDLERS, **ENDING_HANDLERS,
    **OWN_LANDING_HANDLERS,
})


def resolve(state: GameState, entry: Entry, observe: Observer | None = None, in_place: bool = False) -> Outcome:
    """Check ``entry`` against the rules and work out its events; ``state`` is left as it was (``in_place``: it is
    changed into the state after, and left half changed if the entry is refused: :class:`.record.Game` undoes
    that).  ``observe`` is shown the state after each event as it is made."""
    kind = type(state.pending)
    if kind is GameOver or kind is RollOff and entry.type != "rolloff":
        raise not_now(state, entry.type, "game_end", code="game_over")
    handler = HANDLERS.get(entry.type)
    if handler is None:
        raise illegal(state, "not_an_engine_entry", "{entry} is applied by the game record, not by the rules",
                      "correction", entry=EntryKind(entry.type))
    step = Step(state, observe, in_place)
    handler(step, entry)
    settle(step)
    return Outcome(tuple(step.events), step.state)


def ready_entry(state: GameState, action: Action) -> Entry | None:
    """The entry that records ``action`` as it stands, where nothing is left to choose (its kind asks for no more
    than who: a purchase, a decline, the hammer, closing the declarations, a bankruptcy); None for an action that
    waits for a value (the dice, an amount, a card, the lots)."""
    required, optional = ENTRY_FIELDS[action.type]
    if any(name != "player" for name in required):
        return None
    player = action.player
    if player is None or "player" not in required + optional:
        return Entry(action.type)
    return Entry(action.type, player=state.players[player].name)


def build_offers(state: GameState, action: Action) -> list[Change]:
    """For a ``build`` action (a player, a colour group they may build on): the builds a referee is asked for most,
    as the rules accept them now, each with the level every lot ends at and its price: the same number on every
    lot (1 house each ... a hotel each) and the single next building.  The rules check each (the even rule, the
    player's cash, the bank's stock); any other layout is declared lot by lot."""
    player, group = action.player, action.detail["group"]
    assert player is not None  # a build is always someone's
    squares = state.ruleset.groups[group].squares
    now = sum(state.buildings[sq] for sq in squares)
    offers = []
    for total in range(now + 1, state.hotel_level * len(squares) + 1):
        if total != now + 1 and total % len(squares):
            continue
        levels = even_targets(state, group, total)
        targets = {sq: level for sq, level in levels.items() if level != state.buildings[sq]}
        try:
            resolve(state, Entry("build", player=state.players[player].name, targets=tuple(targets.items())))
        except IllegalEntry:
            continue
        offers.append(plan_change(state, player, levels, selling=False))
    return offers


def leads_to(state: GameState, action: Action) -> Outcome | None:
    """What recording ``action``'s ready entry would bring about (the state after it and its events), worked out
    without recording it: the auction a decline opens, whether a bankruptcy ends the game, what closing the
    declarations builds.  None for an action that waits for a value, or that the rules would refuse after all."""
    entry = ready_entry(state, action)
    if entry is None:
        return None
    try:
        return resolve(state, entry)
    except IllegalEntry:
        return None


def check(state: GameState, entry: Entry) -> tuple[ev.Event, ...]:
    """The events ``entry`` would bring about, or :class:`IllegalEntry`."""
    return resolve(state, entry).events


def apply(state: GameState, events: tuple[ev.Event, ...]) -> GameState:
    """A new state: ``state`` with ``events`` applied."""
    new = state.copy()
    for event in events:
        event.apply(new)
    return new

