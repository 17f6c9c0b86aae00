"""Leaving jail: the fine or a card before the roll, and after the last failed roll."""
from __future__ import annotations

from . import events as ev
from .bankruptcy import landing_rent
from .entries import Entry
from .phrases import Card, Money, Player
from .rules import _Step, raisable_cash
from .state import AwaitRoll, GameState, JailFine


def card_first(state: GameState) -> bool:
    """JMA 補足ルール「破産」: 刑務所から3回目にゾロ目が出ず、その出所料と出た目で行くべきマスのレンタル料の両方で
    仮破産となる場合 … 自分の資産で出所料の負債を支払える場合は、その処理をして(カード使用を優先)進んだマス目での
    破産となります。After the third failed roll, when the fine and the rent ahead together are more than the player
    can raise, a get-out-of-jail card in hand settles the fine: the cash stays for the creditor ahead."""
    p = state.pending
    if not isinstance(p, JailFine) or state.ruleset.options.jail_exit_bankruptcy != "jma":
        return False
    if not state.players[p.player].jail_cards:
        return False
    _, rent_due = landing_rent(state, p.player, sum(p.dice))
    return rent_due > 0 and raisable_cash(state, p.player) < state.ruleset.money.bail + rent_due


def card_for_sale(state: GameState, player: int) -> bool:
    """JMA 補足ルール「刑務所」: またこの際に釈放カードを所有していなければ、出所する前に他者から釈放カードを入手する
    交渉を行うことができます。Whether, after the third failed roll, the player could buy a card: the ruleset allows
    it and another player in the game holds one."""
    if not state.ruleset.options.jail_card_purchase_before_fine:
        return False
    return any(p.jail_cards for i, p in enumerate(state.players) if i != player and not p.bankrupt)


def _pay_bail(step: _Step, entry: Entry) -> None:
    s = step.state
    p = s.pending
    if isinstance(p, JailFine):
        who = step.expect_actor(entry, p.player, "jail_release")
        if card_first(s):
            raise step.refuse("card_first", "{player} cannot raise both the fine and the rent ahead: the "
                              "get-out-of-jail card settles the fine first", "jail_exit_bankruptcy", player=Player(who))
        step.emit(ev.AwaitingDecision(None))
        step.emit(ev.ResumeSet(("jail_exit", who, "bail", sum(p.dice))))
        step.charge(who, step.bank_or_pot(), s.ruleset.money.bail, "bail")
        return
    p = step.expect(entry, AwaitRoll, "jail_release")
    who = step.expect_actor(entry, p.player, "jail_release")
    player = s.players[who]
    if not player.in_jail:
        raise step.refuse("not_in_jail", "{player} is not in jail", "jail_release", player=Player(who))
    if s.turn_started:
        raise step.refuse("after_roll", "{player} has already rolled this turn", "jail_release", player=Player(who))
    bail = s.ruleset.money.bail
    if player.cash < bail:
        raise step.refuse("cannot_afford", "{player} has {cash}; the fine is {fine}", "jail_release",
                          player=Player(who), cash=Money(player.cash), fine=Money(bail))
    step.emit(ev.Paid(who, step.bank_or_pot(), bail, "bail"))
    step.emit(ev.Released(who, "bail"))


def _use_jail_card(step: _Step, entry: Entry) -> None:
    s = step.state
    p = s.pending
    fine = isinstance(p, JailFine)
    if not fine:
        p = step.expect(entry, AwaitRoll, "jail_release")
    who = step.expect_actor(entry, p.player, "jail_release")
    player = s.players[who]
    if not fine and not player.in_jail:
        raise step.refuse("not_in_jail", "{player} is not in jail", "jail_release", player=Player(who))
    if not fine and s.turn_started:
        raise step.refuse("after_roll", "{player} has already rolled this turn", "jail_release", player=Player(who))
    card = entry.card or (player.jail_cards[0] if player.jail_cards else None)
    if card is None:
        raise step.refuse("no_jail_card", "{player} holds no get-out-of-jail card", "jail_release", player=Player(who))
    if card not in player.jail_cards:
        raise step.refuse("no_jail_card", "{player} does not hold {card}", "jail_release", player=Player(who),
                          card=Card(card))
    step.emit(ev.JailCardReturned(who, card))
    if fine:
        step.emit(ev.AwaitingDecision(None))
        step.emit(ev.ResumeSet(("jail_exit", who, "card", sum(p.dice))))
    else:
        step.emit(ev.Released(who, "card"))


JAIL_HANDLERS = {"pay_bail": _pay_bail, "use_jail_card": _use_jail_card}
