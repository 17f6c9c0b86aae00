"""Leaving jail: the fine or a card before the roll, and after the last failed roll."""
from __future__ import annotations

from . import events as ev
from .entries import Entry
from .facts import card_first, fine_and_rent_short
from .phrases import Card, Money, Player
from .state import AwaitRoll, Debt, JailFine
from .step import Step


def charge_jail_exit_fine(step: Step, who: int, steps: int) -> None:
    """The fine of the third failed roll, charged; the move by that roll follows once every payment is settled
    (``rules._run_resume``).

    JMA 補足ルール「破産」: 刑務所から3回目にゾロ目が出ず、その出所料と出た目で行くべきマスのレンタル料の両方で仮破産と
    なる場合、救済提示(分割救済を含む)は両方の負債を完済できるものでなければならず、救済提示がない場合は破産となります。
    When the fine and the rent ahead together are more than the player can raise (:func:`.facts.fine_and_rent_short`),
    the fine waits as a debt even though the player's cash would pay it: the two are one provisional bankruptcy.
    A rescue must then cover both (the parts of a split rescue stand only once they do: ``rules.settle`` pays the
    fine and the move goes on); without one, ``bankrupt`` undoes the parts and pays the fine from the player's own
    assets before the bankruptcy on the square ahead (``bankruptcy._pay_the_fine_then_bankrupt_ahead``).  Paid at
    the roll, the fine would leave the rent alone, an ordinary debt whose split rescue stands part by part."""
    s = step.state
    fine = s.ruleset.money.bail
    step.emit(ev.ResumeSet(("jail_exit", who, "bail", steps)))
    if fine_and_rent_short(s, who, steps, fine):
        step.emit(ev.DebtQueued(Debt(who, None, fine, "bail")))
    else:
        step.charge(who, step.bank_or_pot("bail"), fine, "bail")


def _pay_bail(step: Step, entry: Entry) -> None:
    s = step.state
    p = s.pending
    if isinstance(p, JailFine):
        who = step.expect_actor(entry, p.player, "jail_release")
        if card_first(s):
            raise step.refuse("card_first", "{player} cannot raise both the fine and the rent ahead: the "
                              "get-out-of-jail card settles the fine first", "jail_exit_bankruptcy", player=Player(who))
        step.emit(ev.AwaitingDecision(None))
        charge_jail_exit_fine(step, who, sum(p.dice))
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
    step.emit(ev.Paid(who, step.bank_or_pot("bail"), bail, "bail"))
    step.emit(ev.Released(who, "bail"))


def _use_jail_card(step: Step, entry: Entry) -> None:
    s = step.state
    p = s.pending
    if not isinstance(p, JailFine):
        p = step.expect(entry, AwaitRoll, "jail_release")
    fine = isinstance(p, JailFine)
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
    if isinstance(p, JailFine):
        step.emit(ev.AwaitingDecision(None))
        step.emit(ev.ResumeSet(("jail_exit", who, "card", sum(p.dice))))
    else:
        step.emit(ev.Released(who, "card"))


def _skip_jail_turn(step: Step, entry: Entry) -> None:
    """Official rules, Jail: "When in jail, a player may ... pay the ₩50 fine or skips one turn. ... If the
    player fails to roll doubles for three turns, he or she must pay the ₩50 fine and then moves the number shown on
    the dice or skip one turn."  (option ``jail_skip_turn``): the player gives up this turn instead of the fine,
    is free, and rolls from Just Visiting at their next turn; after the last failed roll they stay where they are."""
    s = step.state
    if not s.ruleset.options.jail_skip_turn:
        raise step.refuse("not_allowed", "skipping a turn instead of the fine is not a rule of this game",
                          "jail_skip_turn")
    p = s.pending
    if not isinstance(p, JailFine):
        p = step.expect(entry, AwaitRoll, "jail_skip_turn")
    who = step.expect_actor(entry, p.player, "jail_skip_turn")
    if not s.players[who].in_jail:
        raise step.refuse("not_in_jail", "{player} is not in jail", "jail_skip_turn", player=Player(who))
    if isinstance(p, AwaitRoll) and s.turn_started:
        raise step.refuse("after_roll", "{player} has already rolled this turn", "jail_skip_turn", player=Player(who))
    step.emit(ev.Released(who, "turn_skipped"))
    step.emit(ev.AwaitingDecision(None))


JAIL_HANDLERS = {"pay_bail": _pay_bail, "use_jail_card": _use_jail_card, "skip_jail_turn": _skip_jail_turn}
