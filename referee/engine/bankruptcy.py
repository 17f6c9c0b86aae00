"""Bankruptcy: to a player or to the bank, and JMA's jail-fine case."""
from __future__ import annotations

from dataclasses import replace

from . import building as _building
from . import events as ev
from .entries import Entry
from .phrases import Money, Player
from .rules import _Step, raisable_cash, rent
from .state import Debt, GameState


def _bankrupt(step: _Step, entry: Entry) -> None:
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
    step.charge(taker, step.bank_or_pot(), debt.amount, "bail")


def _undo_rescue_parts(step: _Step) -> None:
    """JMA 補足ルール「破産」: the parts of a split rescue that never covered both debts do not stand (未成立のものは
    無効): each is handed back, the latest first."""
    parts = step.state.rescue_parts
    for a, b, give, take in reversed(parts):
        step.emit(ev.TradeMade(a, b, take, give, "rescue_undone", (a, b, take, give)))
    if parts:
        step.emit(ev.RescueSettled())


def _pay_the_fine_then_bankrupt_ahead(step: _Step, debt: Debt) -> None:
    """JMA 補足ルール「破産」: 自分の資産で出所料の負債を支払える場合は、その処理をして(カード使用を優先)進んだマス目での
    破産となります。Without a rescue covering both, a player whose own assets pay the fine raises it (every building
    sold back, then deeds mortgaged in board order as far as needed), pays it, moves by the roll, and is bankrupt on
    that square to its owner."""
    s = step.state
    who = debt.debtor
    square, rent_due = jail_exit_landing(s)
    _sell_every_building(step, who)
    for sq in s.deeds_of(who):
        if s.players[who].cash >= debt.amount:
            break
        if not s.mortgaged[sq]:
            step.emit(ev.Mortgaged(sq))
            step.emit(ev.Paid(None, who, s.ruleset.squares[sq].mortgage, "mortgage"))
    step.emit(ev.Paid(who, step.bank_or_pot(), debt.amount, "bail"))
    step.emit(ev.Released(who, "bail"))
    step.emit(ev.Moved(who, square))
    go_bankrupt(step, Debt(who, s.owner[square], rent_due, "rent"))


def jail_exit_landing(state: GameState) -> tuple[int, int] | None:
    """While the fine of the third failed jail roll is the pending debt: the square that roll leads to and its
    rent to another player by those dice (0 if none is due there).  None at any other time."""
    p = state.pending
    if not isinstance(p, Debt) or p.reason != "bail" or not state.resume or state.resume[0] != "jail_exit":
        return None
    _, player, _, steps = state.resume
    return landing_rent(state, player, steps)


def landing_rent(state: GameState, player: int, steps: int) -> tuple[int, int]:
    """The square ``steps`` ahead of the player and the rent due there to another player by those dice (0 if
    none)."""
    to = (state.players[player].position + steps) % len(state.ruleset.squares)
    owner = state.owner[to]
    if owner is None or owner == player or state.mortgaged[to] or state.players[owner].bankrupt:
        return to, 0
    return to, rent(state, to, steps)


def jail_exit_short(state: GameState) -> bool:
    """JMA 補足ルール「破産」: 刑務所から3回目にゾロ目が出ず、その出所料と出た目で行くべきマスのレンタル料の両方で
    仮破産となる場合: while the fine of the third failed roll is the pending debt, whether the fine and the rent
    ahead together are more than the player can raise (a provisional bankruptcy even if the fine alone is not)."""
    landing = jail_exit_landing(state)
    if state.ruleset.options.jail_exit_bankruptcy != "jma" or landing is None or not landing[1]:
        return False
    return raisable_cash(state, state.pending.debtor) < state.pending.amount + landing[1]


def jail_exit_creditor(state: GameState) -> int | None:
    """The owner of the square a player would move to after the third failed jail roll, while the fine is
    unpaid: under JMA they may take the bankruptcy over, fine included."""
    landing = jail_exit_landing(state)
    if state.ruleset.options.jail_exit_bankruptcy != "jma" or landing is None or not landing[1]:
        return None
    return state.owner[landing[0]]


def _sell_every_building(step: _Step, player: int) -> None:
    """Every building of the player back to the bank at half price, group by group."""
    s = step.state
    for gid in sorted({s.ruleset.squares[sq].group for sq in s.deeds_of(player) if s.buildings[sq]}):
        squares = s.ruleset.groups[gid].squares
        _building.apply_change(step, _building.plan_change(s, player, {i: 0 for i in squares}, selling=True),
                               "buildings_sold")


def go_bankrupt(step: _Step, debt: Debt) -> None:
    """元ルール「破産」: to a player, buildings go back at half price and everything passes to the creditor;
    to the bank, the deeds go back (JMA: auctioned in board order, unmortgaged)."""
    s = step.state
    who = debt.debtor
    creditor = None if debt.to_bank_if_bankrupt else debt.creditor
    opts = s.ruleset.options
    deeds = s.deeds_of(who)
    _sell_every_building(step, who)
    cash = s.players[who].cash
    if cash:
        step.emit(ev.Paid(who, creditor, cash, "bankruptcy"))
    for card in list(s.players[who].jail_cards):
        step.emit(ev.JailCardReturned(who, card))
        if creditor is not None:
            step.emit(ev.JailCardKept(creditor, card))
    if creditor is not None:
        for sq in deeds:
            step.emit(ev.DeedTransferred(sq, creditor))
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
