"""Trades between two players: cash, deeds and get-out-of-jail cards, exchanged at once.

Also the trades of a player who owes more than their cash: debt negotiation,
and (JMA) the rescue of a provisionally bankrupt player by players other
than the creditor.
"""
from __future__ import annotations

from . import events as ev
from .entries import Offer
from .errors import IllegalEntry, illegal
from .facts import jail_exit_creditor, jail_exit_landing, jail_exit_short, raisable_cash
from .phrases import Card, Goods, Many, Money, Player, Square
from .state import AwaitRoll, BuyOrAuction, Debt, DrawCard, FineOrCard, GameState, OwnProperty, IncomeTaxChoice, JailFine, RentRoll
from .step import Step
from .timing import turn_refusal

_ANY_TIME = (AwaitRoll, BuyOrAuction, DrawCard, FineOrCard, IncomeTaxChoice, JailFine, OwnProperty, RentRoll)  # not during auctions


def _flows(a: int, b: int, give: Offer[int], take: Offer[int]
           ) -> dict[tuple[int, int], tuple[int, frozenset[int], frozenset[str]]]:
    return {(a, b): (give.cash, frozenset(give.deeds), frozenset(give.cards)),
            (b, a): (take.cash, frozenset(take.deeds), frozenset(take.cards))}


def pair_may_trade(state: GameState, a: int, b: int) -> bool:
    """What :func:`trade_context` asks of the two players whatever the decision awaited: no time called, trades in
    these rules, neither bankrupt, neither in jail where the jailed may not trade."""
    opts = state.ruleset.options
    pa, pb = state.players[a], state.players[b]
    if state.time_called or opts.trade_timing == "never" or pa.bankrupt or pb.bankrupt:
        return False
    # 002, Jail: In some editions, players in jail may not buy and sell properties
    return opts.jailed_may_trade or not (pa.in_jail or pb.in_jail)


def _debt_context(state: GameState, debt: Debt) -> str:
    """A debtor's trade: a rescue when provisionally bankrupt (JMA), else debt negotiation."""
    if state.ruleset.options.provisional_bankruptcy and (raisable_cash(state, debt.debtor) < debt.amount
                                                         or jail_exit_short(state)):
        return "rescue"
    return "debt_negotiation"


def trade_context(state: GameState, a: int, b: int) -> str | None:
    """'trade' between turns, 'debt_negotiation' or 'rescue' for a debtor; None when no trade may be made now."""
    if not pair_may_trade(state, a, b):
        return None
    p = state.pending
    opts = state.ruleset.options
    if isinstance(p, Debt) and p.debtor in (a, b):
        return _debt_context(state, p)
    if not opts.trades_before_first_go and not state.go_passed:
        return None  # tournament regulation: only debt negotiation until some player has passed GO
    if opts.trade_timing == "any_time" and isinstance(p, _ANY_TIME):
        return "trade"
    if opts.trade_timing == "own_turn":  # Korean wiki (3): 증서 거래는 자신의 턴에서 할 수 있다
        return "trade" if isinstance(p, _ANY_TIME) and state.current in (a, b) else None
    if opts.trade_timing == "before_own_roll" and isinstance(p, AwaitRoll):
        # 002, General: in some editions, players must do any trades ... at the start of their turn before rolling
        return "trade" if state.between_turns and state.current in (a, b) else None
    if isinstance(p, JailFine) and p.player in (a, b) and opts.jail_card_purchase_before_fine:
        return "jail_card"  # 補足ルール「刑務所」: only to get the jailed player a card before the fine
    return "trade" if isinstance(p, AwaitRoll) and state.between_turns else None


def _trade_timing_refusal(state: GameState, a: int, b: int) -> IllegalEntry:
    """Why no trade between ``a`` and ``b`` may be made now (:func:`trade_context` gave None)."""
    if state.time_called:
        return illegal(state, "not_now", "time has been called: no more trades", "trade_timing")
    if state.ruleset.options.trade_timing == "never":
        return illegal(state, "no_trades", "these rules have no trades between players", "trade_timing")
    if not state.ruleset.options.jailed_may_trade:
        for i in (a, b):
            if state.players[i].in_jail:
                return illegal(state, "in_jail", "{player} is in jail and may not buy or sell properties",
                               "jailed_may_trade", player=Player(i))
    for i in (a, b):
        if state.players[i].bankrupt:
            return illegal(state, "not_now", "{player} is bankrupt", "trade_timing", player=Player(i))
    if not state.ruleset.options.trades_before_first_go and not state.go_passed:
        return illegal(state, "not_now", "no trades except debt negotiation until some player has passed GO",
                       "trade_timing")
    if state.ruleset.options.trade_timing == "own_turn" and state.current not in (a, b):
        return illegal(state, "not_own_turn", "a trade is made in the turn of one of its players, and it is "
                       "{player}'s turn", "trade_timing", player=Player(state.current))
    if state.ruleset.options.trade_timing == "before_own_roll":
        if state.current not in (a, b):
            return illegal(state, "not_own_turn", "a trade is made by the player whose turn it is, at its start, "
                           "and it is {player}'s turn", "trade_timing", player=Player(state.current))
        if isinstance(state.pending, AwaitRoll):
            return illegal(state, "after_roll", "{player} trades only at the start of the turn, before the roll",
                           "trade_timing", player=Player(state.current))
    return turn_refusal(state, a, "trade", "not_now", "trade_timing")


def trade_refusal(state: GameState, a: int, b: int, give: Offer[int], take: Offer[int]) -> IllegalEntry | None:
    """Everything the rules say about a proposed trade, as a refusal, or None if it may stand."""
    opts = state.ruleset.options
    if a == b:
        return illegal(state, "same_player", "a player cannot trade with themself", "trade")
    context = trade_context(state, a, b)
    if context is None:
        return _trade_timing_refusal(state, a, b)
    p = state.pending
    if context == "rescue":
        assert isinstance(p, Debt)  # a rescue is a debtor's trade (trade_context)
        if p.creditor in (a, b) or jail_exit_creditor(state) in (a, b):
            return illegal(state, "creditor_rescue", "{player} is provisionally bankrupt: a rescue comes from a "
                           "player other than the creditor", "provisional_bankruptcy", player=Player(p.debtor))
    for who, offer in ((a, give), (b, take)):
        for ref in offer.deeds:
            sq = ref
            if state.owner[sq] != who:
                return illegal(state, "not_owner", "{player} does not own {square}", "trade", player=Player(who),
                               square=Square(sq))
            if state.group_has_buildings(sq):
                return illegal(state, "buildings_in_group", "{square}: its colour group has buildings; sell them to "
                               "the bank first", "trade", square=Square(sq))
        for card in offer.cards:
            if offer.cards.count(card) > 1 or card not in state.players[who].jail_cards:
                return illegal(state, "no_jail_card", "{player} does not hold {card}", "trade", player=Player(who),
                               card=Card(card))
        if len(set(offer.deeds)) != len(offer.deeds):
            return illegal(state, "duplicate_deed", "a deed is named twice", "trade")
    claim = debt_claim(state, a, b, give, take)
    for who, offer in ((a, give), (b, take)):
        cash_due = offer.cash - claim.get(who, 0)
        if cash_due > state.players[who].cash:
            return illegal(state, "cannot_afford", "{player} has {cash}, not {amount}", "trade", player=Player(who),
                           cash=Money(state.players[who].cash), amount=Money(offer.cash))
    if opts.trade_limits == "price_limits":
        refusal = _price_limits(state, a, b, give, take)
        if refusal:
            return refusal
    if context == "debt_negotiation" and jail_exit_landing(state) is not None:
        refusal = _jail_exit_refusal(state, a, b, give, take)
        if refusal:
            return refusal
    if context == "jail_card":
        assert isinstance(p, JailFine)  # a card bought before the fine (trade_context)
        jailed = p.player
        to_jailed = take if jailed == a else give
        if not to_jailed.cards:
            return illegal(state, "jail_card_trade_only",
                           "after the third failed roll {player} may only negotiate for a get-out-of-jail card before "
                           "paying the fine: this trade gives them none", "jail_card_purchase_before_fine",
                           player=Player(jailed))
    return None


def _jail_exit_refusal(state: GameState, a: int, b: int, give: Offer[int], take: Offer[int]) -> IllegalEntry | None:
    """JMA 補足ルール「破産」: 刑務所から3回目にゾロ目が出ず、その出所料と出た目で行くべきマスのレンタル料の両方で
    仮破産となる場合、救済提示(分割救済を含む)は両方の負債を完済できるものでなければならず.  While the fine of the
    third failed roll waits and the player could still pay both it and the rent ahead, a trade of theirs is judged
    on the table it leaves: one after which the fine and the rent ahead (as the trade leaves it: a deed sold may
    make its buyer the owner ahead, or raise their rent) are more than the player can raise would put them in
    provisional bankruptcy on both at once.  Such a trade is no debt negotiation: with the owner of the square ahead
    (before or after it) it would be a creditor's rescue; with anyone else it raises no cash for the two debts."""
    if state.ruleset.options.jail_exit_bankruptcy != "fine_and_rent_ahead":
        return None
    after = Step(state)  # the trade worked out on a copy, as _trade would make it
    after.emit(ev.TradeMade(a, b, give, take, "debt_negotiation", (a, b, give, take)))
    for receiver, offer in ((b, give), (a, take)):
        after.transfer_interest(receiver, offer.deeds)
    if not jail_exit_short(after.state):
        return None
    debt = after.state.pending
    landing = jail_exit_landing(after.state)
    assert isinstance(debt, Debt) and landing is not None  # the fine still waits: the trade paid none of it
    owners = {jail_exit_creditor(state), jail_exit_creditor(after.state)}
    need = Money(debt.amount + landing[1])
    if a in owners or b in owners:
        owner = a if a in owners else b
        return illegal(state, "creditor_rescue", "after this trade {player} could not raise both the fine and the "
                       "rent ahead ({amount} in all) and would be provisionally bankrupt on both: a rescue comes from "
                       "a player other than the creditor, and {owner} is owed the rent ahead", "jail_exit_bankruptcy",
                       player=Player(debt.debtor), amount=need, owner=Player(owner))
    return illegal(state, "leaves_both_unpaid", "after this trade {player} could not raise both the fine and the rent "
                   "ahead ({amount} in all): while the fine waits, a trade must leave both payable",
                   "jail_exit_bankruptcy", player=Player(debt.debtor), amount=need)


def debt_claim(state: GameState, a: int, b: int, give: Offer[int], take: Offer[int]) -> dict[int, int]:
    """JMA 補足ルール: an unpaid claim counts as cash.  The creditor's cash to the debtor comes first out of
    what the debtor owes them."""
    p = state.pending
    if not isinstance(p, Debt) or p.creditor is None or {p.debtor, p.creditor} != {a, b}:
        return {}
    paid = give.cash if p.creditor == a else take.cash
    return {p.creditor: min(paid, p.amount)}


def _bounds(state: GameState, offer: Offer[int]) -> tuple[int, float]:
    """The least and the most one side of a trade can be worth when every item is priced within the limit the
    JMA rules set for it alone: cash at its amount; an unmortgaged deed above its mortgage value; a mortgaged
    deed and a get-out-of-jail card above nothing (no gifts); a card below the fine ($50)."""
    low, high = offer.cash, float(offer.cash)
    for sq in offer.deeds:
        low += 1 + (0 if state.mortgaged[sq] else state.ruleset.squares[sq].mortgage)
        high = float("inf")
    bail = state.ruleset.money.bail
    low += len(offer.cards)
    high += (bail - 1) * len(offer.cards)
    return low, high


def _goods(offer: Offer[int]) -> Goods:
    return Goods(offer.cash, tuple(offer.deeds), len(offer.cards))


def _price_limits(state: GameState, a: int, b: int, give: Offer[int], take: Offer[int]) -> IllegalEntry | None:
    """JMA 補足ルール「その他」: 現金やその他の資産の贈与(無償譲渡)、抵当に入っていない権利書の抵当価額以下での譲渡、
    釈放カードの$50以上での譲渡、権利書などを売ったその場で異なる価格での買い戻し、などもできません。

    The limits hold for a bundle as a whole: a trade stands only if each item can be given a price within its
    own limit (:func:`_bounds`) so that both sides are worth the same.  So a deed with a jail card for a token
    sum, a deed swapped for a jail card, or unequal sums of cash are refused: each hides a forbidden transfer."""
    if give.empty or take.empty:
        return illegal(state, "gift", "each side must give something: gifts are not allowed", "trade_limits")
    sides = ((a, give, b, take), (b, take, a, give))
    for who, goods, other, price in sides:
        low, _ = _bounds(state, goods)
        _, high = _bounds(state, price)
        if low <= high:
            continue
        what, worth = _goods(goods), _goods(price)
        floors = [sq for sq in goods.deeds if not state.mortgaged[sq]]
        if floors:
            floor = sum(state.ruleset.squares[sq].mortgage for sq in floors)
            return illegal(state, "below_mortgage_value",
                           "{goods} from {player} for {price}: that is worth {most} at most, and {deeds} alone must "
                           "fetch more than the mortgage value {floor}: a deed may not go for its mortgage value or "
                           "less, in a bundle or alone", "trade_limits", goods=what, player=Player(who), price=worth,
                           most=Money(int(high)), deeds=Many(tuple(Square(sq) for sq in floors)), floor=Money(floor))
        if price.cards:
            bail = state.ruleset.money.bail
            return illegal(state, "jail_card_price",
                           "{goods} from {player} for {price}: the get-out-of-jail card would go for {least} or more: "
                           "a card may not go for {fine} or more, in a bundle or alone", "trade_limits", goods=worth,
                           player=Player(other), price=what, least=Money(low - int(high) + bail - 1), fine=Money(bail))
        return illegal(state, "gift", "{goods} from {player} for {price}: part of it would go for nothing: gifts are "
                       "not allowed, in a bundle or alone", "trade_limits", goods=what, player=Player(who), price=worth)
    return _buy_back_refusal(state, a, b, give, take)


def _buy_back_refusal(state: GameState, a: int, b: int, give: Offer[int], take: Offer[int]) -> IllegalEntry | None:
    """No buying back on the spot (before the next roll) at a different price: a trade that hands back to a
    player anything an earlier trade between the same two players since the last roll took from them must be that
    trade undone exactly, the same cash back (other trades in between change nothing)."""
    now = None  # this trade's flows, worked out once an earlier trade between the two is found
    for earlier in state.recent_trades:
        if {earlier[0], earlier[1]} != {a, b}:
            continue
        if now is None:
            now = _flows(a, b, give, take)
        before = _flows(*earlier)
        returned = any(now[(y, x)][1] & before[(x, y)][1] or now[(y, x)][2] & before[(x, y)][2]
                       for (x, y) in before)
        if returned and any(now[(y, x)] != before[(x, y)] for (x, y) in before):
            return illegal(state, "buy_back", "buying back at once what was just sold, at a different price, is not "
                           "allowed: only the same trade undone exactly", "trade_limits")
    return None
