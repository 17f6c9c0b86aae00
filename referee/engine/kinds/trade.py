"""A trade between two players: cash, deeds and get-out-of-jail cards, exchanged at once (also a debtor's
negotiation, and JMA's rescue of a provisionally bankrupt player).

JMA 2006, 土地の売却: "土地・鉄道・公共会社(電力・水道)は、個人的に適当な価格で他のプレイヤーに売ったり、所有地どうしの
交換ができます。しかし、家やホテルはプレイヤー同士の売買は認められていませんので、家やホテルが建っている土地を売る事が
できません。"  Official rules: "sell property deeds to other players in the game."  Whether a trade may be made
now, and why not, is :mod:`..trading`'s (:func:`~..trading.trade_refusal`, :func:`~..trading.trade_context`),
which the simulator and the trade builder's check ask too.  The fields are many (who, with whom, each side's cash,
deeds and cards), and a trade is not recorded from its action as offered (the offer is built on the tablet).
"""
from __future__ import annotations

from dataclasses import replace

from .. import events as ev
from ..entries import Action, Entry, Offer
from ..facts import jail_exit_short
from ..registry import EntryType, register
from ..state import Debt, GameState, JailFine
from ..step import Step
from ..trading import debt_claim, pair_may_trade, trade_context, trade_refusal


def _offer_squares(step: Step, offer: Offer[int | str] | None, entry: Entry) -> Offer[int]:
    assert offer is not None  # fields every trade has (ENTRY_FIELDS)
    return offer.with_deeds(tuple(step.square(ref, entry.type) for ref in offer.deeds))


def _trade(step: Step, entry: Entry) -> None:
    s = step.state
    a = step.player(entry.player, entry.type)
    b = step.player(entry.partner, entry.type)
    give = _offer_squares(step, entry.give, entry)
    take = _offer_squares(step, entry.take, entry)
    refusal = trade_refusal(s, a, b, give, take)
    if refusal:
        raise refusal
    context = trade_context(s, a, b)
    assert context is not None  # the trade was not refused: it may be made now (trade_refusal)
    agreed = (a, b, give, take)
    claim = debt_claim(s, a, b, give, take)
    if claim:
        creditor, used = next(iter(claim.items()))
        debt = s.pending
        assert isinstance(debt, Debt)  # a claim counts only in a trade with the creditor of the debt pending
        step.emit(ev.AwaitingDecision(replace(debt, amount=debt.amount - used)))
        if creditor == a:
            give = replace(give, cash=give.cash - used)
        else:
            take = replace(take, cash=take.cash - used)
    step.emit(ev.TradeMade(a, b, give, take, context, agreed))
    if context == "rescue" and jail_exit_short(step.state):
        # 救済提示(分割救済を含む)は両方の負債を完済できるものでなければならず: a part of a split rescue stands only
        # once the parts together cover the fine and the rent ahead; a bankruptcy undoes it
        step.emit(ev.RescuePart((a, b, give, take)))
    for receiver, offer in ((b, give), (a, take)):
        step.transfer_interest(receiver, offer.deeds)
    if isinstance(s.pending, Debt) and s.pending.amount == 0:
        step.emit(ev.AwaitingDecision(None))


def trade_actions(state: GameState, player: int | None = None) -> list[Action]:
    """Who may trade with whom now (``player``: that player's trades only; the tablet's trade builder checks each
    offer with trade_refusal).  Outside debt negotiation and the jail fine, :func:`trade_context` is the same for
    every pair of players in the game (unless trades are made in one's own turn): it is asked once."""
    active = state.active
    p = state.pending
    if len(active) < 2 or player is not None and player not in active:
        return []
    proposers = active if player is None else (player,)
    if type(p) is Debt:  # only the debtor proposes, to anyone they may trade with (trade_context is never None then)
        a = p.debtor
        if a not in proposers:
            return []
        partners = tuple(b for b in active if b != a and pair_may_trade(state, a, b))
        return [Action("trade", a, {"partners": partners})] if partners else []
    if not isinstance(p, JailFine) and state.ruleset.options.trade_timing not in ("own_turn", "before_own_roll"):
        if trade_context(state, active[0], active[1]) is None:
            return []
        out = []
        for a in proposers:
            k = active.index(a)
            out.append(Action("trade", a, {"partners": active[:k] + active[k + 1:]}))  # every other player in play
        return out
    out = []
    for a in proposers:
        partners = tuple(b for b in active if b != a and trade_context(state, a, b) is not None)
        if partners:
            out.append(Action("trade", a, {"partners": partners}))
    return out


TRADE = register(EntryType("trade", ("player", "partner", "give", "take"), _trade, offered=trade_actions))
