"""The game's log in words: each entry as the referee recorded it (a trade with both sides' goods, a card by its text,
an auction entry with its lot and who won it), each event, equal calls with who won them and by which rule; the
facts behind each entry are the game's history, judged once as it was recorded."""
from __future__ import annotations

from bisect import bisect_left

from ..engine import (BidHeld, BidVoided, BuildingsChanged, CardDrawn, DebtQueued, DeedTransferred, Entry, EntryFacts,
                      EstateShared, Event, Game, GameState, Jailed, JailRollFailed, JailTurnSat, Mortgaged, Moved,
                      Offer, Paid, Penalised, raisable_cash, Released, RentWaived, Ruleset, SeatingOrdered, square_index, TieCall,
                      TimeCalled, TradeMade, TransferInterestPaid, TurnBegan, Unmortgaged, WentBankrupt)
from ..i18n import current_language, gettext as _
from .words import (breach_words, card_words, deck_words, jail_card_words, level_words, money, names_and, party, per_language,
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
    if isinstance(event, Penalised):  # the penalty entry's own words say it (and the payment that follows)
        return None
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


@per_language
def _entry_labels() -> dict[str, str]:
    return {
        "seat_roll": _("seating roll"), "roll": _("rolls"), "deal": _("is dealt"), "buy": _("buys"),
        "decline": _("declines: auction"),
        "bid": _("bids"), "hammer": _("hammer"), "income_tax": _("income tax"), "card": _("card"),
        "fine_or_card": _("chooses"), "build_house": _("builds one house on landing"),
        "sell_to_bank": _("sells the deed back to the bank"), "keep": _("leaves the deed as it is"), "rent_not_claimed": _("rent not claimed in time by its owner, paid by"),
        "rent_roll": _("rent roll"), "pay_bail": _("pays to leave jail"), "use_jail_card": _("uses a jail card"),
        "skip_jail_turn": _("skips a turn instead of the jail fine"),
        "mortgage": _("mortgages"), "unmortgage": _("lifts the mortgage on"), "bankrupt": _("bankrupt"),
        "build": _("declares buildings"), "withdraw_build": _("reduces the declaration"),
        "close_builds": _("declarations closed"), "place_building": _("chooses the lot"),
        "sell_buildings": _("sells buildings"), "trade": _("trades with"), "time_called": _("time called"),
        "rolloff": _("roll-off"), "void": _("void"), "penalty": _("is fined"),
    }


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


def _sentence(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str | None:
    """The entry as one sentence where its fields (and the facts) allow; None for the plain label form."""
    bidders = " = ".join(entry.bidders)
    if entry.type == "trade":
        return trade_words(ruleset, entry.player, entry.partner, entry.give, entry.take,
                           facts.context if facts else "trade", facts.mortgaged if facts else ())
    if entry.type == "card" and entry.card in ruleset.cards:
        return _("%(player)s draws a %(deck)s card: %(card)s", player=entry.player,
                 deck=deck_words(ruleset, ruleset.cards[entry.card].deck), card=card_words(ruleset, entry.card))
    card = entry.card or (facts.card if facts else None)
    if entry.type == "use_jail_card" and card is not None:
        return _("%(player)s uses %(card)s", player=entry.player, card=jail_card_words(ruleset, card))
    if entry.type == "penalty" and entry.choice is not None and entry.player is not None:
        return _("%(player)s is fined %(amount)s: %(breach)s", player=entry.player,
                 amount=ruleset.money_text(getattr(ruleset.options, "penalty_" + entry.choice, 0)),
                 breach=breach_words(entry.choice))
    if facts is None:
        return None
    if entry.type == "bid" and entry.amount is not None:
        return _("%(bidders)s bids %(amount)s for %(lot)s", bidders=bidders, amount=ruleset.money_text(entry.amount),
                 lot=_lot_words(ruleset, facts))
    if entry.type == "hammer":
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
    if entry.type == "buy" and facts.square is not None:
        return _("%(player)s buys %(square)s for %(price)s", player=entry.player,
                 square=square_words(ruleset, facts.square), price=ruleset.money_text(facts.amount))
    if entry.type == "decline" and facts.square is not None:
        if not ruleset.options.auction_on_decline:
            return _("%(player)s declines %(square)s: it stays with the bank", player=entry.player,
                     square=square_words(ruleset, facts.square))
        return _("%(player)s declines %(square)s: it goes to auction", player=entry.player,
                 square=square_words(ruleset, facts.square))
    if entry.type in ("build", "sell_buildings") and facts.levels:
        before = dict(facts.levels)
        hotel = ruleset.options.houses_per_hotel + 1
        changes = separator().join(
            _("%(square)s %(before)s → %(after)s", square=square_words(ruleset, ref),
              before=level_words(before[square_index(ruleset, ref)], ruleset), after=level_words(level, ruleset))
            for ref, level in entry.targets
            if (hotel if level == "hotel" else level) != before[square_index(ruleset, ref)])
        if not changes:  # every lot named as it stands: the label form names them
            return None
        if entry.type == "build":
            return _("%(player)s declares buildings: %(changes)s", player=entry.player, changes=changes)
        return _("%(player)s sells buildings: %(changes)s", player=entry.player, changes=changes)
    return None


def entry_words(entry: Entry, ruleset: Ruleset | None = None, tie: TieCall | None = None,
                facts: EntryFacts | None = None) -> str:
    """An entry as the referee recorded it, in the device's language: squares, cards and buildings by their
    names when the game's ruleset is given, a trade with both sides' goods, a card by its text; with ``facts``
    (the engine's ``entry_facts``, from the table as it was before the entry) what an auction entry was for and who won
    it, a deed's price, the buildings before a change; equal calls at an auction with who won them and by which
    rule (``tie``, judged on the state before the entry)."""
    text = _sentence(entry, ruleset, facts) if ruleset is not None else None
    if text is None:
        text = _label_words(entry, ruleset)
    elif entry.note:
        text = f"{text} ({entry.note})"
    if tie is not None and ruleset is not None:
        text = f"{text} — {tie_words(ruleset, tie)}"
    return text


def _label_words(entry: Entry, ruleset: Ruleset | None) -> str:
    """An entry as its label and fields, for the entries one sentence does not fit (and without a ruleset)."""
    parts = [_entry_labels().get(entry.type, entry.type)]
    if entry.player:
        parts.insert(0, entry.player)
    if entry.players:
        parts.insert(0, " = ".join(entry.players))
    if entry.dice:
        parts.append(f"{entry.dice[0]}+{entry.dice[1]}")
    if entry.amount is not None:
        parts.append(ruleset.money_text(entry.amount) if ruleset else f"{entry.amount:,}")
    if entry.card is not None:
        parts.append(card_words(ruleset, entry.card) if ruleset else entry.card)
    if entry.choice is not None:
        parts.append({"flat": _("flat amount"), "percent": _("percentage of assets"), "pay": _("to pay the fine"),
                      "draw": _("to draw a card from the other deck")}.get(entry.choice, entry.choice))
    if entry.square is not None:
        parts.append(square_words(ruleset, entry.square) if ruleset else str(entry.square))
    if entry.deeds:
        parts.append(separator().join(square_words(ruleset, d) if ruleset else str(d) for d in entry.deeds))
    if entry.partner is not None:
        parts.append(entry.partner)
    if entry.creditor is not None:
        parts.append(_("to %(creditor)s", creditor=entry.creditor))
    if entry.count:
        parts.append(_("the latest %(n)s", n=entry.count))
    if entry.targets:
        parts.append(separator().join(
            f"{square_words(ruleset, sq)} {level_words(lvl, ruleset)}" if ruleset else f"{sq} {lvl}"
            for sq, lvl in entry.targets))
    if entry.note:
        parts.append(f"({entry.note})")
    return " ".join(parts)


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


def fine_lines(game: Game) -> list[tuple[int, str, str, str]]:
    """The fines the referee imposed in the game (voided ones left out), for the result sheet: (the entry's number,
    the player, what for, the amount)."""
    ruleset = game.ruleset
    out = []
    for i in game.effective:
        entry = game.entries[i]
        if entry.type == "penalty" and entry.player is not None and entry.choice is not None:
            out.append((i + 1, entry.player, breach_words(entry.choice),
                        ruleset.money_text(getattr(ruleset.options, "penalty_" + entry.choice, 0))))
    return out
