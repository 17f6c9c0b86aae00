"""Leaving jail: the fine or a card before the roll, and after the last failed roll."""
from __future__ import annotations

from . import events as ev
from .entries import Entry
from .rules import _money, _Step
from .state import AwaitRoll, JailFine


def _pay_bail(step: _Step, entry: Entry) -> None:
    s = step.state
    p = s.pending
    if isinstance(p, JailFine):
        who = step.expect_actor(entry, p.player, "jail_release")
        step.emit(ev.AwaitingDecision(None))
        step.emit(ev.ResumeSet(("jail_exit", who, "bail", sum(p.dice))))
        step.charge(who, step.bank_or_pot(), s.ruleset.money.bail, "bail")
        return
    p = step.expect(entry, AwaitRoll, "jail_release")
    who = step.expect_actor(entry, p.player, "jail_release")
    player = s.players[who]
    if not player.in_jail:
        raise step.refuse("not_in_jail", f"pay_bail: {entry.player} is not in jail", "jail_release")
    if s.turn_started:
        raise step.refuse("after_roll", f"pay_bail: {entry.player} has already rolled this turn", "jail_release")
    bail = s.ruleset.money.bail
    if player.cash < bail:
        raise step.refuse("cannot_afford", f"pay_bail: {entry.player} has {_money(s, player.cash)}; "
                          f"the fine is {_money(s, bail)}", "jail_release")
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
        raise step.refuse("not_in_jail", f"use_jail_card: {entry.player} is not in jail", "jail_release")
    if not fine and s.turn_started:
        raise step.refuse("after_roll", f"use_jail_card: {entry.player} has already rolled this turn",
                          "jail_release")
    card = entry.card or (player.jail_cards[0] if player.jail_cards else None)
    if card is None or card not in player.jail_cards:
        raise step.refuse("no_jail_card", f"use_jail_card: {entry.player} holds no get-out-of-jail card "
                          f"{entry.card or ''}".rstrip(), "jail_release")
    step.emit(ev.JailCardReturned(who, card))
    if fine:
        step.emit(ev.AwaitingDecision(None))
        step.emit(ev.ResumeSet(("jail_exit", who, "card", sum(p.dice))))
    else:
        step.emit(ev.Released(who, "card"))


JAIL_HANDLERS = {"pay_bail": _pay_bail, "use_jail_card": _use_jail_card}
