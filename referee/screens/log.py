"""The game's log in words: each entry as the referee recorded it (a trade with both sides' goods, a card by its text,
an auction entry with its lot and who won it), each event, equal calls with who won them and by which rule; the
facts behind each entry are the game's history, judged once as it was recorded."""
from __future__ import annotations

from bisect import bisect_left
from typing import Callable

from ..engine import (BidHeld, BidVoided, BuildingsChanged, CardDrawn, DebtQueued, DeedTransferred, Entry, EntryFacts,
                      EstateShared, Event, Game, GameState, Jailed, JailRollFailed, JailTurnSat, Mortgaged, Moved,
                      Offer, Paid, raisable_cash, Released, RentWaived, Ruleset, SeatingOrdered, square_index, TieCall,
                      TimeCalled, TradeMade, TransferInterestPaid, TurnBegan, Unmortgaged, WentBankrupt)
from ..language import current_language, gettext as _, ngettext
from . import kind
from .words import (card_words, deck_words, jail_card_words, level_words, money, names_and, party,
                    reason_words, separator, square_name, square_words, Why, why)


LOG_PAGE = 500  # lines a page of the whole log shows


def log_page(total: int, n: int) -> int:
    """The page of the whole log (newest first, :data:`LOG_PAGE` lines a page) that shows entry ``n`` of ``total``."""
    return (total - n) // LOG_PAGE + 1


def event_words(state: GameState, event: Event) -> str | None:
    """One event in words, against the state after it; None for bookkeeping events nobody needs to read."""
    if isinstance(event, Moved):
        return _("%(player)s moves to %(square)s", player=party(state, event.player),
                 square=square_name(state, event.to))
    if isinstance(event, Paid):
        return _("%(payer)s pays %(payee)s %(amount)s %(reason)s", payer=party(state, event.payer),
                 payee=party(state, event.payee), amount=money(state, event.amount), reason=reason_words(event.reason))
    if isinstance(event, DeedTransferred):
        return _("%(player)s takes %(square)s", player=party(state, event.to), square=square_name(state, event.square))
    if isinstance(event, RentWaived):
        return _("no rent: %(owner)s, who owns %(square)s, is in jail", owner=party(state, event.owner),
                 square=square_name(state, event.square))
    if isinstance(event, EstateShared):
        shares = [_("%(player)s %(squares)s", player=party(state, taker),
                    squares=separator().join(square_name(state, sq) for sq in squares))
                  for taker, squares in event.shares if squares]
        return _("%(player)s's deeds are shared out, each in turn to whoever has received least and none completing "
                 "a group: %(shares)s", player=party(state, event.player), shares="; ".join(shares))
    if isinstance(event, Mortgaged):
        return _("%(square)s is mortgaged", square=square_name(state, event.square))
    if isinstance(event, Unmortgaged):
        return _("%(square)s is no longer mortgaged", square=square_name(state, event.square))
    if isinstance(event, Jailed):
        return _("%(player)s goes to jail", player=party(state, event.player))
    if isinstance(event, Released):
        if event.how == "turn_skipped":
            return _("%(player)s skips this turn instead of the fine and is out of jail",
                     player=party(state, event.player))
        return _("%(player)s leaves jail", player=party(state, event.player))
    if isinstance(event, JailRollFailed):
        return _("%(player)s stays in jail", player=party(state, event.player))
    if isinstance(event, CardDrawn):
        texts = state.ruleset.cards[event.card].text
        return _("%(player)s draws: %(card)s", player=party(state, event.player),
                 card=texts.get(current_language()) or texts.get("en", event.card))
    if isinstance(event, BuildingsChanged):
        return _("buildings: %(levels)s", levels=separator().join(
            f"{square_name(state, sq)} {level_words(lvl, state.ruleset)}" for sq, lvl in event.levels))
    if isinstance(event, BidVoided):
        return _("%(player)s's winning bid of %(amount)s is void: %(player)s could raise %(can)s at most, even by "
                 "mortgaging every deed and selling every building", player=party(state, event.player),
                 amount=money(state, event.amount), can=money(state, raisable_cash(state, event.player)))
    if isinstance(event, BidHeld):
        return _("%(player)s's bid of %(amount)s is below the building price of %(square)s: the bid is held and the "
                 "auction goes on", player=party(state, event.player), amount=money(state, event.amount),
                 square=square_name(state, event.square))
    if isinstance(event, TransferInterestPaid):
        return _("the 10%% interest on %(square)s is paid: lifting it now costs the mortgage value alone",
                 square=square_name(state, event.square))
    if isinstance(event, DebtQueued):
        d = event.debt
        return _("%(debtor)s owes %(creditor)s %(amount)s", debtor=party(state, d.debtor),
                 creditor=party(state, d.creditor), amount=money(state, d.amount))
    if isinstance(event, WentBankrupt):
        if state.ruleset.options.short_payment == "all_cash_then_out":
            return _("%(player)s has no money left and is out of the game; the deeds go back to the bank",
                     player=party(state, event.player))
        return _("%(player)s is bankrupt to %(creditor)s", player=party(state, event.player),
                 creditor=party(state, event.creditor))
    if isinstance(event, JailTurnSat):
        p = state.players[event.player]
        if p.in_jail:
            return _("%(player)s sits out a turn in jail (%(n)s of %(max)s)", player=party(state, event.player),
                     n=p.jail_rolls, max=state.ruleset.options.jail_max_rolls)
        return _("%(player)s has sat out the last turn in jail and rolls from the jail square next time",
                 player=party(state, event.player))
    if isinstance(event, TradeMade):
        # the goods are in the trade entry's own words (the log, the flash): here only that it took effect
        return _("%(first)s and %(second)s trade", first=party(state, event.first), second=party(state, event.second))
    if isinstance(event, TurnBegan):
        return _("%(player)s's turn", player=party(state, event.player))
    if isinstance(event, TimeCalled):
        return _("time is called")
    if isinstance(event, SeatingOrdered):
        return _("order of play: %(players)s", players=separator().join(p.name for p in state.players))
    return None


def tie_reason(call: TieCall) -> str:
    """Why the equal calls went to the winner (JMA 補足ルール「競売」: 次の手番のプレーヤーから右周りに近い
    プレーヤーのコールを優先)."""
    if call.winner == call.counted_from:
        return _("%(winner)s's call wins, as %(winner)s's turn comes next", winner=call.winner)
    return _("%(winner)s's call wins, as the caller nearest in turn order counting from %(next)s, whose turn "
             "comes next", winner=call.winner, next=call.counted_from)


def tie_words(ruleset: Ruleset, call: TieCall, standing: bool = False) -> Why:
    """Equal calls explained: for the log (after the entry's own words) or, ``standing``, for the auction card
    (the calls behind the standing high bid)."""
    if standing:
        text = _("%(players)s called %(amount)s at once: %(reason)s", players=names_and(call.callers),
                 amount=ruleset.money_text(call.amount), reason=tie_reason(call))
    else:
        text = _("equal calls at once: %(reason)s", reason=tie_reason(call))
    return why(ruleset, text, "auction_tie")


def goods_words(ruleset: Ruleset, offer: Offer | None, mortgaged: tuple[int, ...] = ()) -> str:
    """One side of a trade: $200 and Baltic Avenue; deeds by their names (marked when mortgaged), jail cards by
    their deck; nothing when the side gives nothing."""
    if offer is None or offer.empty:
        return _("nothing")
    items = [ruleset.money_text(offer.cash)] if offer.cash else []
    for deed in offer.deeds:
        words = square_words(ruleset, deed)
        items.append(_("%(square)s (mortgaged)", square=words) if square_index(ruleset, deed) in mortgaged else words)
    items += [jail_card_words(ruleset, card) for card in offer.cards]
    return names_and(items)


def trade_words(ruleset: Ruleset, player: str, partner: str, give: Offer | None, take: Offer | None,
                context: str = "trade", mortgaged: tuple[int, ...] = ()) -> str:
    """A trade with both sides' goods: Aki ⇄ Ben: Aki gives $200 and Baltic Avenue; Ben gives Park Place."""
    text = _("%(player)s ⇄ %(partner)s: %(player)s gives %(give)s; %(partner)s gives %(take)s", player=player,
             partner=partner, give=goods_words(ruleset, give, mortgaged), take=goods_words(ruleset, take, mortgaged))
    if context == "rescue":
        return _("rescue: %(trade)s", trade=text)
    if context == "debt_negotiation":
        return _("debt negotiation: %(trade)s", trade=text)
    return text


def _lot_words(ruleset: Ruleset, facts: EntryFacts) -> str:
    if facts.square is not None:
        return square_words(ruleset, facts.square)
    return _("a hotel") if facts.kind == "hotel" else _("a house")


def _dice(entry: Entry) -> str:
    return f"{entry.dice[0]}+{entry.dice[1]}" if entry.dice else ""


def _targets(entry: Entry, ruleset: Ruleset) -> str:
    """A declaration's or a sale's lots with the level each is to have: Boardwalk 2 houses, Park Place hotel."""
    return separator().join(f"{square_words(ruleset, sq)} {level_words(lvl, ruleset)}" for sq, lvl in entry.targets)


def lot_changes(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    """A declaration's or a sale's lots from what they had (the facts) to what they are to have; the lots with the
    level each is to have where the facts are not known or no lot changes."""
    if facts is None or not facts.levels:
        return _targets(entry, ruleset)
    before = dict(facts.levels)
    hotel = ruleset.options.houses_per_hotel + 1
    changes = separator().join(
        _("%(square)s %(before)s → %(after)s", square=square_words(ruleset, ref),
          before=level_words(before[ruleset.square(ref).index], ruleset), after=level_words(level, ruleset))
        for ref, level in entry.targets
        if (hotel if level == "hotel" else level) != before[ruleset.square(ref).index])
    return changes or _targets(entry, ruleset)


def _bid(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    bidders, amount = " = ".join(entry.bidders), ruleset.money_text(entry.amount or 0)
    if facts is None:
        return _("%(bidders)s bids %(amount)s", bidders=bidders, amount=amount)
    return _("%(bidders)s bids %(amount)s for %(lot)s", bidders=bidders, amount=amount, lot=_lot_words(ruleset, facts))


def _hammer(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    if facts is None:
        return _("the referee brings the hammer down: the auction is closed")
    lot = _lot_words(ruleset, facts)
    if facts.winner is None:
        if facts.square is not None:
            return _("hammer: no bid, %(lot)s stays with the bank", lot=lot)
        return _("hammer: no bid for %(lot)s", lot=lot)
    amount = ruleset.money_text(facts.amount)
    if facts.void:
        return _("hammer: %(player)s's winning bid of %(amount)s for %(lot)s is void", player=facts.winner,
                 amount=amount, lot=lot)
    if facts.square is not None:
        return _("hammer: %(player)s buys %(lot)s for %(amount)s", player=facts.winner, lot=lot, amount=amount)
    return _("hammer: %(player)s wins %(lot)s for %(amount)s", player=facts.winner, lot=lot, amount=amount)


def _buy(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    if facts is None or facts.square is None:
        return _("%(player)s buys the deed landed on", player=entry.player)
    return _("%(player)s buys %(square)s for %(price)s", player=entry.player,
             square=square_words(ruleset, facts.square), price=ruleset.money_text(facts.amount))


def _decline(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    if facts is None or facts.square is None:
        return _("%(player)s declines to buy the deed landed on", player=entry.player)
    if not ruleset.options.auction_on_decline:
        return _("%(player)s declines %(square)s: it stays with the bank", player=entry.player,
                 square=square_words(ruleset, facts.square))
    return _("%(player)s declines %(square)s: it goes to auction", player=entry.player,
             square=square_words(ruleset, facts.square))


def _income_tax(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    if entry.choice == "percent":
        return _("%(player)s chooses the income tax of %(percent)s%% of assets", player=entry.player,
                 percent=ruleset.options.income_tax_percent)
    if facts is None:
        return _("%(player)s chooses the flat income tax", player=entry.player)
    return _("%(player)s chooses the flat income tax of %(amount)s", player=entry.player,
             amount=ruleset.money_text(facts.amount))


def _card(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    name = entry.card or ""
    card = ruleset.cards.get(name)
    if card is None:
        return _("%(player)s draws a card: %(card)s", player=entry.player, card=entry.card)
    return _("%(player)s draws a %(deck)s card: %(card)s", player=entry.player, deck=deck_words(ruleset, card.deck),
             card=card_words(ruleset, name))


def _fine_or_card(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    if entry.choice == "draw":
        if facts is None or facts.deck is None:
            return _("%(player)s chooses to draw a card from the other deck instead of paying the fine",
                     player=entry.player)
        return _("%(player)s chooses to draw a %(deck)s card instead of paying the fine of %(amount)s",
                 player=entry.player, deck=deck_words(ruleset, facts.deck), amount=ruleset.money_text(facts.amount))
    if facts is None:
        return _("%(player)s chooses to pay the fine", player=entry.player)
    return _("%(player)s chooses to pay the fine of %(amount)s", player=entry.player,
             amount=ruleset.money_text(facts.amount))


def _own_deed(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    """Landing on a deed of one's own: one house built there, the deed sold back to the bank, or left as it is."""
    player = entry.player
    if facts is None or facts.square is None:
        if entry.type == "build_house":
            return _("%(player)s builds one house on the street landed on", player=player)
        if entry.type == "sell_to_bank":
            return _("%(player)s sells the deed landed on back to the bank", player=player)
        return _("%(player)s leaves the deed landed on as it is", player=player)
    square = square_words(ruleset, facts.square)
    if entry.type == "build_house":
        return _("%(player)s builds one house on %(square)s", player=player, square=square)
    if entry.type == "sell_to_bank":
        return _("%(player)s sells %(square)s back to the bank", player=player, square=square)
    return _("%(player)s leaves %(square)s as it is", player=player, square=square)


def _build(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    """A declaration, a declaration reduced: each lot from what it had to what it is to have."""
    if entry.type == "withdraw_build":
        return _("%(player)s reduces the declaration to %(targets)s", player=entry.player,
                 targets=_targets(entry, ruleset))
    return _("%(player)s declares buildings: %(changes)s", player=entry.player,
             changes=lot_changes(entry, ruleset, facts))


def _bankrupt(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    if entry.creditor is not None:
        return _("%(player)s goes bankrupt to %(creditor)s", player=entry.player, creditor=entry.creditor)
    return _("%(player)s goes bankrupt", player=entry.player)


def _rolls(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    player, dice = entry.player, _dice(entry)
    if entry.type == "seat_roll":
        return _("%(player)s rolls %(dice)s for the order of play", player=player, dice=dice)
    if entry.type == "rent_roll":
        return _("%(player)s rolls %(dice)s again for the utility's rent", player=player, dice=dice)
    if entry.type == "rolloff":
        return _("%(player)s rolls %(dice)s in the roll-off", player=player, dice=dice)
    return _("%(player)s rolls %(dice)s", player=player, dice=dice)


def _deal(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    price = sum(ruleset.squares[i].price for i in (square_index(ruleset, d) for d in entry.deeds) if i is not None)
    return _("%(player)s is dealt %(deeds)s and pays %(price)s for them", player=entry.player,
             deeds=names_and(square_words(ruleset, d) for d in entry.deeds), price=ruleset.money_text(price))


def _place_building(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    """The lot of a building won."""
    player, square = entry.player, square_words(ruleset, entry.square if entry.square is not None else "")
    return _("%(player)s chooses %(square)s for the building", player=player, square=square)


def _jail(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    if entry.type == "pay_bail":
        return _("%(player)s pays %(amount)s to leave jail", player=entry.player,
                 amount=ruleset.money_text(ruleset.money.bail))
    if entry.type == "skip_jail_turn":
        return _("%(player)s skips a turn instead of paying the jail fine", player=entry.player)
    card = entry.card or (facts.card if facts else None)
    return _("%(player)s uses %(card)s", player=entry.player, card=jail_card_words(ruleset, card or ""))


def _referee(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    """What the referee does alone: closing the declarations, taking entries back."""
    if entry.type == "close_builds":
        return _("the referee closes the declarations")
    return ngettext("the referee takes back the latest entry", "the referee takes back the latest %(num)s entries",
                    entry.count or 0)


# each entry type's sentence: who did what (a kind declared in a module of its own says its own: kind.sentence)
_SENTENCES: dict[str, Callable[[Entry, Ruleset, EntryFacts | None], str]] = {
    "seat_roll": _rolls, "roll": _rolls, "rent_roll": _rolls, "rolloff": _rolls, "deal": _deal,
    "buy": _buy, "decline": _decline, "bid": _bid, "hammer": _hammer, "income_tax": _income_tax, "card": _card,
    "fine_or_card": _fine_or_card, "build_house": _own_deed, "sell_to_bank": _own_deed, "keep": _own_deed,
    "place_building": _place_building,
    "pay_bail": _jail, "use_jail_card": _jail, "skip_jail_turn": _jail, "bankrupt": _bankrupt, "build": _build,
    "withdraw_build": _build, "close_builds": _referee, "void": _referee,
}


def entry_words(entry: Entry, ruleset: Ruleset, tie: TieCall | None = None, facts: EntryFacts | None = None) -> str:
    """An entry as the referee recorded it, in the device's language, as one sentence saying who did what:
    squares, cards and buildings by their names, a trade with both sides' goods, a card by its text; with
    ``facts`` (the engine's ``entry_facts``, from the table as it was before the entry) what an auction entry was
    for and who won it, a deed's price, the buildings before a change, the flat tax or the fine a choice was
    between; the referee's note after it; equal calls at an auction with who won them and by which rule (``tie``,
    judged on the state before the entry)."""
    said = _SENTENCES.get(entry.type)
    text = said(entry, ruleset, facts) if said is not None else kind.sentence(entry, ruleset, facts) or entry.type
    if entry.note:
        text = f"{text} ({entry.note})"
    if tie is not None:
        text = f"{text} — {tie_words(ruleset, tie)}"
    return text


def log_lines(game: Game, start: int, stop: int) -> list[tuple[int, str, bool]]:
    """Entries ``start`` to ``stop`` (0-based) of the game's log as (number, words, still in effect): trades with
    both sides' goods, cards by their text, auction bids with their lot, the hammer with who bought what for how
    much, equal calls with who won them and by which rule.  The facts and rulings behind each entry are the
    game's history (judged once, on the state the entry was recorded on); each entry's words, once said in a
    language, are kept with it (they rest on the entries up to it and the game's ruleset alone)."""
    history = game.with_history().history
    assert history is not None  # with_history keeps one
    start = max(0, start)
    stop = min(stop, len(game.entries))
    effective = set(game.effective[bisect_left(game.effective, start):])  # in order: those from ``start`` on
    lang = current_language()
    said = history.said
    for i in range(start, stop):
        if (lang, i) not in said:
            said[lang, i] = entry_words(game.entries[i], game.ruleset, history.ties[i], history.facts[i])
    return [(i + 1, said[lang, i], i in effective or game.entries[i].type == "void") for i in range(start, stop)]

