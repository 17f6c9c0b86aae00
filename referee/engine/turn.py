"""A plain turn: the seating roll, dealt deeds, the roll of the dice, buying or declining a deed, income tax, a
utility's rent roll."""
from __future__ import annotations

from . import events as ev
from .entries import Entry
from .errors import IllegalEntry, illegal
from .facts import card_for_sale, total_assets
from .jail import charge_jail_exit_fine
from .phrases import Money, Waiting, Player, Square
from .state import AwaitRoll, Auction, BuyOrAuction, DealDeeds, GameState, IncomeTaxChoice, JailFine, RentRoll, SeatingRoll
from .step import Step


def _seat_roll(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, SeatingRoll, "seating")
    who = step.player(entry.player, entry.type)
    if who not in p.waiting:
        raise step.refuse("not_waiting", "{player} is not due to roll: {pending}", "seating", player=Player(who),
                          pending=Waiting())
    dice = entry.dice
    assert dice is not None  # a field every seating roll has (ENTRY_FIELDS)
    rolls = list(p.rolls)
    rolls[who] = rolls[who] + (sum(dice),)
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
    step.emit(ev.TurnBegan(0))  # the first roll awaited, unless deeds are dealt first
    if s.ruleset.options.dealt_deeds:
        step.emit(ev.AwaitingDecision(DealDeeds(tuple(reversed(range(n))))))


def deal_refusal(state: GameState, player: int, squares: list[int]) -> IllegalEntry | None:
    """Tournament regulation: each player is dealt the ruleset's number of deeds, bought at face value;
    a pair of one colour, two railroads or two utilities is dealt again."""
    opts = state.ruleset.options
    if len(squares) != opts.dealt_deeds or len(set(squares)) != len(squares):
        return illegal(state, "bad_deal", "{player} is dealt {count} different deeds, not {given}", "dealt_deeds",
                       player=Player(player), count=opts.dealt_deeds, given=len(squares))
    for sq in squares:
        if not state.ruleset.squares[sq].is_property or state.owner[sq] is not None:
            return illegal(state, "not_dealable", "{square} is not an unowned deed", "dealt_deeds",
                           square=Square(sq))
    groups = [state.ruleset.squares[sq].group for sq in squares]
    if opts.dealt_deeds_redeal_pairs and len(squares) == 2 and groups[0] == groups[1]:
        return illegal(state, "redeal", "{first} and {second} are one colour group, two railroads or two utilities: "
                       "deal again", "dealt_deeds_redeal_pairs", first=Square(squares[0]), second=Square(squares[1]))
    price = sum(state.ruleset.squares[sq].price for sq in squares)
    if state.players[player].cash < price:
        return illegal(state, "cannot_afford", "{player} cannot pay {price}", "dealt_deeds", player=Player(player),
                       price=Money(price))
    return None


def _deal(step: Step, entry: Entry) -> None:
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


def _roll(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, AwaitRoll, "dice")
    who = step.expect_actor(entry, p.player, "dice")
    dice = entry.dice
    assert dice is not None  # a field every roll has (ENTRY_FIELDS)
    d1, d2 = dice
    doubles = d1 == d2
    player = s.players[who]
    if player.in_jail:
        if s.time_called:
            step.emit(ev.FinalRollMade())
        step.emit(ev.DiceRolled(who, dice, 0))
        if doubles:
            step.emit(ev.Released(who, "doubles"))
            step.move_by(who, d1 + d2)
            return
        step.emit(ev.JailRollFailed(who))
        if player.jail_rolls >= s.ruleset.options.jail_max_rolls:
            if player.jail_cards or card_for_sale(s, who) or s.ruleset.options.jail_skip_turn:  # a choice to make
                step.emit(ev.AwaitingDecision(JailFine(who, dice)))
            else:
                charge_jail_exit_fine(step, who, d1 + d2)
        return
    if s.time_called:
        step.emit(ev.FinalRollMade())
    in_a_row = s.doubles + 1 if doubles else 0
    if doubles and s.prepaid_release and not s.ruleset.options.doubles_after_prepaid_release_roll_again:
        in_a_row = 0
    step.emit(ev.DiceRolled(who, dice, in_a_row))
    if in_a_row >= s.ruleset.options.doubles_to_jail:
        step.emit(ev.Jailed(who))
        return
    step.move_by(who, d1 + d2)


def _buy(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, BuyOrAuction, "purchase")
    who = step.expect_actor(entry, p.player, "purchase")
    price = s.ruleset.squares[p.square].price
    cash = s.players[who].cash
    if cash < price:
        named = {"player": Player(who), "cash": Money(cash), "square": Square(p.square), "price": Money(price)}
        if s.ruleset.options.mortgages_allowed:
            raise step.refuse("cannot_afford", "{player} has {cash}; {square} costs {price} (mortgage first, or "
                              "decline)", "purchase", **named)
        # the hint names only what these rules allow: no mortgages (004: Der Kaufpreis liegt fest und muß sofort und
        # vollständig bezahlt werden)
        raise step.refuse("cannot_afford", "{player} has {cash}; {square} costs {price}, paid at once and in full (or "
                          "decline)", "purchase", **named)
    step.emit(ev.Paid(who, None, price, "purchase"))
    step.emit(ev.DeedTransferred(p.square, who))
    step.emit(ev.AwaitingDecision(None))


def _decline(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, BuyOrAuction, "purchase")
    step.expect_actor(entry, p.player, "purchase")
    if s.ruleset.options.auction_on_decline:
        step.emit(ev.AwaitingDecision(Auction(p.square)))
    else:
        step.emit(ev.AwaitingDecision(None))


def _income_tax(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, IncomeTaxChoice, "tax")
    who = step.expect_actor(entry, p.player, "tax")
    if entry.choice == "flat":
        amount = s.ruleset.squares[p.square].amount
    else:
        amount = total_assets(s, who) * s.ruleset.options.income_tax_percent // 100
    step.emit(ev.AwaitingDecision(None))
    step.charge(who, step.bank_or_pot("tax"), amount, "tax")


def _rent_roll(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, RentRoll, "utility_rent")
    who = step.expect_actor(entry, p.player, "utility_rent")
    dice = entry.dice
    assert dice is not None  # a field every rent roll has (ENTRY_FIELDS)
    step.emit(ev.AwaitingDecision(None))
    step.charge(who, s.owner[p.square], sum(dice) * p.multiplier, "rent")


TURN_HANDLERS = {
    "seat_roll": _seat_roll, "deal": _deal, "roll": _roll, "buy": _buy, "decline": _decline,
    "income_tax": _income_tax, "rent_roll": _rent_roll,
}
