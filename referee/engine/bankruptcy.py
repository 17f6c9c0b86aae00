"""Bankruptcy: to a player or to the bank, and JMA's jail-fine case."""
from __future__ import annotations

from dataclasses import replace

from .building import apply_change, plan_change
from . import events as ev
from .entries import Entry
from .facts import ending_bankruptcy, jail_exit_creditor, jail_exit_landing, jail_exit_short, raisable_cash
from .phrases import Money, Player
from .state import Debt, GameState
from .step import Step


def _bankrupt(step: Step, entry: Entry) -> None:
    s = step.state
    debt = step.expect(entry, Debt, "bankruptcy")
    who = step.expect_actor(entry, debt.debtor, "bankruptcy")
    can_raise = raisable_cash(s, who)
    if can_raise >= debt.amount and not jail_exit_short(s):
        raise step.refuse("can_still_pay", "{player} can raise {amount} by selling buildings and mortgaging, enough "
                          "for the {debt} owed", "bankruptcy", player=Player(who), amount=Money(can_raise),
                          debt=Money(debt.amount))
    _undo_rescue_parts(step)
    if raisable_cash(s, who) >= debt.amount:
        _pay_the_fine_then_bankrupt_ahead(step, debt)
        return
    if entry.creditor is None:
        go_bankrupt(step, debt)
        return
    taker = step.player(entry.creditor, entry.type)
    if taker != jail_exit_creditor(s):
        raise step.refuse("not_the_creditor", "{player} cannot take over this bankruptcy: only the owner of the square "
                          "a player leaving jail after the third failed roll would move to may take over the unpaid "
                          "fine", "bankruptcy", player=Player(taker))
    # JMA 補足ルール「破産」: the destination's creditor takes the estate, fine included
    go_bankrupt(step, replace(debt, creditor=taker, to_bank_if_bankrupt=False))
    step.charge(taker, step.bank_or_pot("bail"), debt.amount, "bail")


def _undo_rescue_parts(step: Step) -> None:
    """JMA 補足ルール「破産」: the parts of a split rescue that never covered both debts do not stand (未成立のものは
    無効): each is handed back, the latest first."""
    parts = step.state.rescue_parts
    for a, b, give, take in reversed(parts):
        step.emit(ev.TradeMade(a, b, take, give, "rescue_undone", (a, b, take, give)))
    if parts:
        step.emit(ev.RescueSettled())


def _pay_the_fine_then_bankrupt_ahead(step: Step, debt: Debt) -> None:
    """JMA 補足ルール「破産」: 自分の資産で出所料の負債を支払える場合は、その処理をして(カード使用を優先)進んだマス目での
    破産となります。Without a rescue covering both, a player whose own assets pay the fine raises it (every building
    sold back, then deeds mortgaged in board order as far as needed), pays it, moves by the roll, and is bankrupt on
    that square to its owner."""
    s = step.state
    who = debt.debtor
    landing = jail_exit_landing(s)
    assert landing is not None  # the fine of the third failed roll is the pending debt: the roll leads somewhere
    square, rent_due = landing
    _sell_every_building(step, who)
    for sq in s.deeds_of(who):
        if s.players[who].cash >= debt.amount:
            break
        if not s.mortgaged[sq]:
            step.emit(ev.Mortgaged(sq))
            step.bank_pays(who, s.ruleset.squares[sq].mortgage, "mortgage")
    step.emit(ev.Paid(who, step.bank_or_pot("bail"), debt.amount, "bail"))
    step.emit(ev.Released(who, "bail"))
    step.emit(ev.Moved(who, square))
    go_bankrupt(step, Debt(who, s.owner[square], rent_due, "rent"))


def _sell_every_building(step: Step, player: int) -> None:
    """Every building of the player back to the bank at half price, group by group (where buildings go with their
    street alone, as in the German variant, they go back to the bank's stock lot by lot, as the street does: the
    player is out and owes the bank what it would pay)."""
    s = step.state
    if s.ruleset.options.landing_on_own != "nothing":
        hotel = s.hotel_level
        for sq in s.deeds_of(player):
            level = s.buildings[sq]
            if level:
                step.emit(ev.BuildingsChanged(((sq, 0),), 0 if level == hotel else level, 1 if level == hotel else 0))
        return
    built: set[str] = set()  # the groups with buildings
    for sq in s.deeds_of(player):
        if s.buildings[sq]:
            group = s.ruleset.squares[sq].group
            assert group is not None  # buildings stand on streets, each of a group
            built.add(group)
    for gid in sorted(built):
        squares = s.ruleset.groups[gid].squares
        apply_change(step, plan_change(s, player, {i: 0 for i in squares}, selling=True), "buildings_sold")


def estate_shares(state: GameState, debtor: int, deeds: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Korean wiki, footnote 19: 원래는 수익자가 모든걸 가져가는게 공식. 하지만 이러면 전세가 너무 확 기울기 때문에
    독점이 나지않게 남은 유저들에게 골고루 분배하기도 한다 (officially the creditor takes everything; but as that tilts
    the game too far, the estate is sometimes shared out evenly among the remaining players so that no monopoly
    forms).

    The deeds are dealt one at a time in board order, each to the survivor who has so far received the least by
    printed price (a tie to the first in seat order after the bankrupt player), passing over a survivor whom the
    deed would give a whole group (colour group, the railroads, the utilities) while another survivor can take it
    without completing one.  Every survivor in seat order after the debtor, with the deeds each receives (possibly
    none), in board order."""
    order = [i for i in state.seats_from(debtor + 1) if i != debtor]
    received = {i: 0 for i in order}
    shares: dict[int, list[int]] = {i: [] for i in order}
    squares, groups = state.ruleset.squares, state.ruleset.groups
    for sq in sorted(deeds):
        group = squares[sq].group

        def completes(i: int) -> bool:
            return group is not None and all(
                state.owner[other] == i or other in shares[i] or other == sq for other in groups[group].squares)

        candidates = [i for i in order if not completes(i)] or order
        taker = min(candidates, key=lambda i: received[i])  # min keeps the first of equals: seat order
        received[taker] += squares[sq].price
        shares[taker].append(sq)
    return {i: tuple(share) for i, share in shares.items()}


def go_bankrupt(step: Step, debt: Debt) -> None:
    """元ルール「破産」: to a player, buildings go back at half price and everything passes to the creditor (option
    ``bankrupt_estate``: or the cash and cards to the creditor and the deeds shared among the survivors,
    :func:`estate_shares`); to the bank, the deeds go back (JMA: auctioned in board order, unmortgaged)."""
    s = step.state
    who = debt.debtor
    creditor = None if debt.to_bank_if_bankrupt else debt.creditor
    opts = s.ruleset.options
    deeds = s.deeds_of(who)
    # 003, shortened game: the bankruptcy that ends the game transfers to the creditor everything the player owns,
    # including buildings (and, as the game is over, no interest is charged on the mortgaged deeds received)
    whole = creditor is not None and ending_bankruptcy(s) and opts.ending_bankruptcy_buildings == "pass_to_creditor"
    if not whole:
        _sell_every_building(step, who)
    cash = s.players[who].cash
    if cash:
        step.emit(ev.Paid(who, creditor, cash, "bankruptcy"))
    for card in list(s.players[who].jail_cards):
        step.emit(ev.JailCardReturned(who, card))
        if creditor is not None:
            step.emit(ev.JailCardKept(creditor, card))
    if creditor is not None and opts.bankrupt_estate == "shared_among_survivors":
        shares = estate_shares(s, who, deeds)
        step.emit(ev.EstateShared(who, tuple(shares.items())))
        for taker, share in shares.items():
            for sq in share:
                step.emit(ev.DeedTransferred(sq, taker))
            step.transfer_interest(taker, share)
    elif creditor is not None:
        for sq in deeds:
            step.emit(ev.DeedTransferred(sq, creditor))
        if not whole:
            step.transfer_interest(creditor, deeds)
    else:
        for sq in deeds:
            step.emit(ev.DeedTransferred(sq, None))
        if opts.bankruptcy_to_bank_deeds == "auction_in_board_order" and deeds and not s.time_called:
            step.emit(ev.EstateAuctionsQueued(tuple(sorted(deeds))))
    step.emit(ev.WentBankrupt(who, creditor))
    if who == s.current:
        step.emit(ev.ResumeSet(None))
    step.emit(ev.AwaitingDecision(None))


BANKRUPTCY_HANDLERS = {"bankrupt": _bankrupt}
