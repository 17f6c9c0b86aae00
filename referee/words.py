"""Entries and events in words, for the table screen and the game log."""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Callable
from weakref import WeakKeyDictionary

from flask import Flask, g, has_app_context, has_request_context
from markupsafe import Markup
from .i18n import current_language, gettext as _

from .engine import (amount_text, Auction, AwaitingDecision, AwaitRoll, bid_means, BidHeld, BidPayment, BidVoided,
                     building_count, building_minimum_bid, BuildingAuction, BuildingsChanged, BuildRound, BuyOrAuction,
                     card_first, card_for_sale, CardDrawn, Change, Debt, DebtQueued, Deck, DeedTransferred, demand,
                     describe_pending, Entry, EstateShared, even_targets, Event, Game, GameState,
                     houses_for_declarations, IllegalEntry, jail_exit_creditor, jail_exit_landing, jail_exit_short,
                     JailCardReturned, Jailed, JailFine, JailRollFailed, JailTurnSat, level_text, Mortgaged, Moved,
                     named, Offer, OwnProperty, Paid, parse_entry, placeable, PlaceBuilding, plan_change, POT,
                     raisable_cash, RefereeError, Released, RentWaived, resolve, Ruleset, SeatingOrdered, TimeCalled,
                     trade_context, TradeMade, TransferInterestPaid, TurnBegan, Unmortgaged, WentBankrupt)
from .rulings import TieCall, sale_offers, tie_calls


def per_language(make: Callable[[], dict]) -> Callable[[], dict]:
    """A table of words made once for each language: each of its gettext calls costs microseconds, and the table
    screen and the log would otherwise translate every word of it for every line they show."""
    made: dict[str, dict] = {}

    @functools.wraps(make)
    def table() -> dict:
        lang = current_language()
        if lang not in made:
            made[lang] = make()
        return made[lang]

    return table


def _reason(reason: str) -> str:
    return _reasons().get(reason, reason)


@per_language
def _reasons() -> dict[str, str]:
    return {
        "salary": _("salary"), "go_landing": _("salary for landing on GO"), "rent": _("rent"), "tax": _("tax"),
        "purchase": _("for the deed"),
        "auction": _("at auction"), "card": _("by card"), "bail": _("to leave jail"), "mortgage": _("mortgage"),
        "unmortgage": _("to lift a mortgage"), "building": _("for buildings"),
        "building_auction": _("for a building at auction"), "buildings_sold": _("for buildings sold"),
        "bankruptcy": _("in bankruptcy"), "interest": _("mortgage interest"),
        "free_parking": _("(all of it)"), "rent_not_claimed": _("back: rent not claimed in time"),
        "deed_sold": _("for the deed sold back"),
    }


def square_name(state: GameState, square: int, lang: str | None = None) -> str:
    sq = state.ruleset.squares[square]
    return named(sq.name, lang or current_language(), sq.id)


def _square_words(ruleset: Ruleset, ref: int | str) -> str:
    """A square named in an entry (an index or an id) by its name on the board."""
    try:
        sq = ruleset.square(ref)
    except KeyError:
        return str(ref)
    return sq.name.get(current_language()) or sq.name.get("en") or sq.id


def group_name(ruleset: Ruleset, group: str) -> str:
    """A colour group by its name on the board (Dark Blue, 紺), never its id."""
    g = ruleset.groups.get(group)
    return group if g is None else named(g.name, current_language(), group)


def level_words(level: int | str, ruleset: Ruleset) -> str:
    """A building level in words: no buildings, 1 house, 3 houses, hotel."""
    hotel = ruleset.options.houses_per_hotel + 1
    return level_text(hotel if level == "hotel" else level, hotel, _, ruleset, current_language())


def _separator() -> str:
    return "、" if current_language() == "ja" else ", "


def names_and(names) -> str:
    """Aki, Ben and Chie / Aki、BenとChie."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s", names=_separator().join(names[:-1]), last=names[-1])


@dataclass(frozen=True, slots=True)
class Why:
    """A ruling in words, with the clause of the active ruleset it rests on (``rule`` is the clause's key, the
    anchor on the rules page; ``source`` is where the clause comes from)."""

    text: str
    rule: str
    source: str

    def __str__(self) -> str:
        return _("%(why)s (%(source)s)", why=self.text, source=self.source) if self.source else self.text


def why(ruleset: Ruleset, text: str, rule: str) -> Why:
    clause = ruleset.clauses.get(rule)
    return Why(text, rule, clause.source if clause else "")


def money(state: GameState, amount: int) -> str:
    """An amount in the game's currency, its digits grouped as the device's language groups them (1.600 M)."""
    return amount_text(state.ruleset, amount, current_language())


def party(state: GameState, who) -> str:
    if who is None:
        return _("the bank")
    if who == POT:
        return _("the free parking pot")
    return state.players[who].name


def event_words(state: GameState, event: Event) -> str | None:
    """One event in words, against the state after it; None for bookkeeping events nobody needs to read."""
    if isinstance(event, Moved):
        return _("%(player)s moves to %(square)s", player=party(state, event.player),
                 square=square_name(state, event.to))
    if isinstance(event, Paid):
        return _("%(payer)s pays %(payee)s %(amount)s %(reason)s", payer=party(state, event.payer),
                 payee=party(state, event.payee), amount=money(state, event.amount), reason=_reason(event.reason))
    if isinstance(event, DeedTransferred):
        return _("%(player)s takes %(square)s", player=party(state, event.to), square=square_name(state, event.square))
    if isinstance(event, RentWaived):
        return _("no rent: %(owner)s, who owns %(square)s, is in jail", owner=party(state, event.owner),
                 square=square_name(state, event.square))
    if isinstance(event, EstateShared):
        shares = [_("%(player)s %(squares)s", player=party(state, taker),
                    squares=_separator().join(square_name(state, sq) for sq in squares))
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
        return _("buildings: %(levels)s", levels=_separator().join(
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
        return _("order of play: %(players)s", players=_separator().join(p.name for p in state.players))
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
def _ordinals() -> dict[int, str]:
    return {2: _("a second"), 3: _("a third"), 4: _("a fourth"), 5: _("a fifth"), 6: _("a sixth"),
            7: _("a seventh"), 8: _("an eighth"), 9: _("a ninth"), 10: _("a tenth")}


def roll_notes(state: GameState) -> list[Why]:
    """What makes the roll the table waits for special, for the dice pad: the last roll of the game after time
    is called, a roll in jail (and which attempt), a roll again after doubles (and how many)."""
    p = state.pending
    if not isinstance(p, AwaitRoll):
        return []
    rs = state.ruleset
    opts = rs.options
    player = state.players[p.player]
    name = player.name
    notes = []
    if state.time_called and opts.after_time_called == "one_more_roll" and not state.final_roll:
        notes.append(why(rs, _("Last roll of the game: time has been called. Once this roll and all it brings are "
                               "settled, the game ends and is ranked; doubles give no further roll."),
                         "after_time_called"))
    elif state.time_called and opts.after_time_called == "equal_turns":
        notes.append(why(rs, _("Time has been called: play goes on until %(player)s's turn is over, so that "
                               "everyone has had as many turns; then the game ends and is ranked.",
                               player=state.players[max(state.active)].name), "after_time_called"))
    if player.in_jail:
        n, most = player.jail_rolls + 1, opts.jail_max_rolls
        if n >= most:
            fine = rs.money_text(rs.money.bail)
            if player.jail_cards:
                text = _("%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays "
                         "the %(fine)s fine or uses a get-out-of-jail card, and the token moves by this roll.",
                         player=name, n=n, max=most, fine=fine)
            elif card_for_sale(state, p.player):
                text = _("%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays "
                         "the %(fine)s fine, or first buys a get-out-of-jail card from another player and uses it, and "
                         "the token moves by this roll.", player=name, n=n, max=most, fine=fine)
            else:
                text = _("%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays "
                         "the %(fine)s fine and the token moves by this roll.", player=name, n=n, max=most, fine=fine)
        else:
            text = _("%(player)s is in jail: roll %(n)s of %(max)s. Doubles let %(player)s out and the token moves "
                     "by the roll.", player=name, n=n, max=most)
        notes.append(why(rs, text, "jail_release"))
    elif state.doubles and p.player == state.current:
        limit = opts.doubles_to_jail
        notes.append(why(rs, _("%(player)s rolls again: doubles %(n)s of %(limit)s — %(nth)s doubles in a row "
                               "sends %(player)s to jail", player=name, n=state.doubles, limit=limit,
                               nth=_ordinals().get(limit, str(limit))), "doubles_to_jail"))
    return notes


def decision_notes(state: GameState) -> list[Why]:
    """Why the decision the table waits for is the one it is: a winning bid that stands while its cash is raised,
    the jail fine that a card may be bought for or must be settled by, a lot that holds a shortage bid."""
    p = state.pending
    rs = state.ruleset
    fine = rs.money_text(rs.money.bail)
    if isinstance(p, OwnProperty):
        sq = rs.squares[p.square]
        if sq.kind == "street" and state.group_owner.get(sq.group) == p.player:
            return [why(rs, _("%(player)s owns every street of this colour: a house costs half, %(price)s.",
                              player=state.players[p.player].name, price=money(state, sq.house_cost // 2)),
                        "landing_on_own")]
        return [why(rs, _("On a street of one's own: one house at its price, or the street sold back to the bank."),
                    "landing_on_own")]
    if isinstance(p, BidPayment):
        cash = state.players[p.player].cash
        text = _("%(player)s's winning bid of %(amount)s stands: %(player)s has %(cash)s, and %(can)s in all "
                 "with every deed mortgaged and every building sold. The table waits for the %(short)s still "
                 "missing; the bid is paid as soon as the cash is there.", player=state.players[p.player].name,
                 amount=rs.money_text(p.amount), cash=rs.money_text(cash),
                 can=rs.money_text(raisable_cash(state, p.player)), short=rs.money_text(p.amount - cash))
        return [why(rs, text, "auction_unpayable_bid" if p.square is not None else "building_shortage")]
    if isinstance(p, JailFine):
        name = state.players[p.player].name
        if card_first(state):
            return [why(rs, _("The fine and the rent ahead come to more than %(player)s can raise: the "
                              "get-out-of-jail card settles the fine first, and the cash is left for the rent.",
                              player=name), "jail_exit_bankruptcy")]
        if not state.players[p.player].jail_cards and not card_for_sale(state, p.player):
            return [why(rs, _("Third failed roll: instead of paying the %(fine)s fine and moving, %(player)s may skip "
                              "this turn, staying on the jail square, out of jail.", player=name, fine=fine),
                        "jail_skip_turn")]
        if not state.players[p.player].jail_cards:
            return [why(rs, _("Third failed roll: before paying the %(fine)s fine, %(player)s may buy a "
                              "get-out-of-jail card from another player, for less than %(fine)s, and use it.",
                              player=name, fine=fine), "jail_card_purchase_before_fine")]
    if isinstance(p, Debt) and jail_exit_short(state):
        square, rent_due = jail_exit_landing(state)
        return [why(rs, _("After the fine, this roll leads to %(square)s: %(rent)s rent to %(owner)s, %(total)s in "
                          "all, more than %(player)s can raise. A rescue must come from a player other than "
                          "%(owner)s and cover both; the parts of a split rescue stand once together they do, and the "
                          "fine waits until then.", square=square_name(state, square), rent=rs.money_text(rent_due),
                          owner=state.players[state.owner[square]].name, total=rs.money_text(p.amount + rent_due),
                          player=state.players[p.debtor].name), "jail_exit_bankruptcy")]
    if isinstance(p, BuildingAuction):
        notes = [why(rs, _("A bid for a %(kind)s starts at the building price of the cheapest lot where the bidder "
                           "could build, in steps of %(step)s: each bidder's first quick bid is their own minimum.",
                           kind=_(p.kind), step=rs.money_text(rs.options.auction_bid_step)), "building_shortage")]
        if p.held is not None and p.high_bidder is not None:
            notes.append(why(rs, _("%(player)s's bid of %(amount)s is held: %(square)s's building price is %(price)s. "
                                   "To build there %(player)s must win at %(price)s or more; a higher bid by anyone "
                                   "wins as usual.", player=state.players[p.high_bidder].name,
                                   amount=rs.money_text(p.high_bid), square=square_name(state, p.held),
                                   price=rs.money_text(rs.squares[p.held].house_cost)), "building_shortage"))
        return notes
    if isinstance(p, PlaceBuilding) and any(rs.squares[i].house_cost > p.price
                                            for i in placeable(state, p.player, p.kind)):
        return [why(rs, _("A lot whose building price is above the winning bid of %(amount)s holds the bid: the "
                          "auction goes on, and %(player)s must win it at that price or more to build there.",
                          amount=rs.money_text(p.price), player=state.players[p.player].name), "building_shortage")]
    return []


def outcome_notes(state: GameState, events) -> list[Why]:
    """Rulings an entry's events carry out that the events alone do not explain: declared hotels built before the
    house declarations, their houses going to those declarations."""
    notes = []
    for e in events:
        if isinstance(e, BidVoided):
            shortage = any(isinstance(x, AwaitingDecision) and isinstance(x.decision, BuildRound)
                           for x in events)
            notes.append(why(state.ruleset, _("The declarations start again without %(player)s.",
                                              player=party(state, e.player)) if shortage else
                             _("The auction runs again without %(player)s.", player=party(state, e.player)),
                             "building_shortage" if shortage else "auction_unpayable_bid"))
        elif isinstance(e, RentWaived):
            notes.append(why(state.ruleset, _("No rent is collected by an owner who is in jail."), "rent_while_in_jail"))
        elif isinstance(e, EstateShared):
            notes.append(why(state.ruleset, _("The creditor takes the cash; the deeds are shared among the players "
                                              "left."), "bankrupt_estate"))
        elif isinstance(e, Paid) and e.reason == "go_landing":
            notes.append(why(state.ruleset, _("Landing exactly on GO pays %(amount)s.", amount=money(
                state, state.ruleset.money.go_landing_salary)), "go_landing_bonus"))
        elif isinstance(e, WentBankrupt) and state.ruleset.options.short_payment == "all_cash_then_out":
            notes.append(why(state.ruleset, _("A payment the cash does not cover takes all of it, and a player with "
                                              "no money left is out."), "short_payment"))
        elif isinstance(e, JailTurnSat):
            notes.append(why(state.ruleset, _("In jail a player sits out %(n)s turns, then moves on from the jail "
                                              "square.", n=state.ruleset.options.jail_max_rolls), "jail_mode"))
        elif isinstance(e, Paid) and e.payer is None and state.bank_cash is not None and state.bank_cash <= 0:
            notes.append(why(state.ruleset, _("The bank has no money left: it paid what it had, and the game ends "
                                              "after this round."), "bank_money"))
        elif isinstance(e, Paid) and e.payer == POT:
            notes.append(why(state.ruleset, _("Free Parking pays out the whole pot."), "free_parking"))
        elif isinstance(e, Paid) and e.payee == POT:
            notes.append(why(state.ruleset, _("The %(amount)s goes into the Free Parking pot (%(pot)s now).",
                                              amount=money(state, e.amount), pot=money(state, state.pot)),
                             "pot_payments"))
    built = [e for e in events if isinstance(e, BuildingsChanged)]
    hotels_first = any(e.hotel_change < 0 < e.house_change for e in built)
    houses_after = any(e.house_change < 0 for e in built[1:]) or any(
        isinstance(e, AwaitingDecision) and isinstance(e.decision, BuildingAuction) for e in events)
    if hotels_first and houses_after:
        notes.append(why(state.ruleset, _("Hotels declared are built first; the houses they give back go to the "
                                          "house declarations."), "building_shortage"))
    return notes


def jail_card_offers(state: GameState) -> list[tuple[int, str]]:
    """After the third failed roll, the cards the jailed player could buy: (holder, card id)."""
    p = state.pending
    if not isinstance(p, JailFine) or state.players[p.player].jail_cards or not card_for_sale(state, p.player):
        return []
    return [(i, pl.jail_cards[0]) for i, pl in enumerate(state.players)
            if i != p.player and not pl.bankrupt and pl.jail_cards]


def change_words(state: GameState, change: Change) -> str:
    """A change of buildings lot by lot: Boardwalk hotel → 4 houses, Park Place 4 houses → 3 houses."""
    rs = state.ruleset
    return _separator().join(
        _("%(square)s %(before)s → %(after)s", square=square_name(state, sq),
          before=level_words(state.buildings[sq], rs), after=level_words(level, rs))
        for sq, level in sorted(change.levels.items()) if level != state.buildings[sq])


@dataclass(frozen=True, slots=True)
class SaleOffer:
    entry: dict  # the sell_buildings entry the button records
    after: list[tuple[str, bool]]  # each lot's buildings after the sale (words, changed), in the group's order
    label: str  # the button: what the bank pays


@dataclass(frozen=True, slots=True)
class SalePanel:
    player: str
    group: str  # the colour group's name
    color: str
    lots: list[tuple[str, str]]  # (lot, its buildings now)
    offers: list[SaleOffer]


def sale_panels(state: GameState, actions) -> list[SalePanel]:
    """The sell panel: for each player and colour group they may sell on, every sale the rules allow now, with
    the buildings left on each lot and what the bank pays (the engine's price: half of what the levels sold
    cost, a hotel counting as the houses it replaced plus itself)."""
    rs = state.ruleset
    panels = []
    for a in actions:
        squares = rs.groups[a.detail["group"]].squares
        name = state.players[a.player].name
        offers = []
        for change in sale_offers(state, a.player, a.detail["group"]):
            targets = {rs.squares[sq].id: "hotel" if level == state.hotel_level else level
                       for sq, level in change.levels.items()}
            offers.append(SaleOffer(
                {"type": "sell_buildings", "player": name, "targets": targets},
                [(level_words(change.levels.get(sq, state.buildings[sq]), rs),
                  change.levels.get(sq, state.buildings[sq]) != state.buildings[sq]) for sq in squares],
                _("Sell: the bank pays %(amount)s", amount=money(state, -change.price))))
        if offers:
            panels.append(SalePanel(name, group_name(rs, a.detail["group"]), rs.groups[a.detail["group"]].color,
                                    [(square_name(state, sq), level_words(state.buildings[sq], rs)) for sq in squares],
                                    offers))
    return panels


def build_panels(state: GameState, actions) -> list[SalePanel]:
    """The build panel: for each player and colour group they may build on, the builds a referee is asked for
    most, one tap each, with the buildings each lot ends with and the price on the button: the same number on
    every lot (1 house each ... a hotel each) and the single next building.  Only builds the rules accept now
    (the even rule, the player's cash, the bank's stock) are offered; any other layout is declared with the
    lot-by-lot form."""

    rs = state.ruleset
    panels = []
    for a in actions:
        group = a.detail["group"]
        squares = rs.groups[group].squares
        name = state.players[a.player].name
        now = sum(state.buildings[sq] for sq in squares)
        totals = [t for t in range(now + 1, state.hotel_level * len(squares) + 1)
                  if t == now + 1 or t % len(squares) == 0]
        offers = []
        for total in totals:
            levels = even_targets(state, group, total)
            targets = {rs.squares[sq].id: "hotel" if level == state.hotel_level else level
                       for sq, level in levels.items() if level != state.buildings[sq]}
            entry = {"type": "build", "player": name, "targets": targets}
            try:
                resolve(state, parse_entry(entry))
            except RefereeError:
                continue
            price = sum((levels[sq] - state.buildings[sq]) * rs.squares[sq].house_cost for sq in squares)
            offers.append(SaleOffer(entry, [(level_words(levels[sq], rs), levels[sq] != state.buildings[sq])
                                            for sq in squares],
                                    _("Build: %(price)s", price=money(state, price))))
        if offers:
            panels.append(SalePanel(name, group_name(rs, group), rs.groups[group].color,
                                    [(square_name(state, sq), level_words(state.buildings[sq], rs)) for sq in squares],
                                    offers))
    return panels


def sale_way_words(state: GameState, group: str, change: Change) -> str:
    """A way for a debtor to raise cash: the smallest sale of buildings on a group."""
    return _("sell buildings on the %(group)s group: %(change)s", group=group_name(state.ruleset, group),
             change=change_words(state, change))


def mortgage_way_words(state: GameState, square: int) -> str:
    return _("mortgage %(square)s", square=square_name(state, square))


def pending_words(state: GameState) -> str:
    return describe_pending(state, _, current_language())


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
        "rolloff": _("roll-off"), "void": _("void"),
    }


def _card_words(ruleset: Ruleset, card: str) -> str:
    c = ruleset.cards.get(card)
    return (c.text.get(current_language()) or c.text.get("en") or card) if c else card


def deck_words(ruleset: Ruleset, deck: str) -> str:
    """A deck by the name of its squares on the board (Chance, 共同基金)."""
    for sq in ruleset.squares:
        if sq.kind == deck:
            return named(sq.name, current_language(), deck)
    return deck


def jail_card_words(ruleset: Ruleset, card: str) -> str:
    """A get-out-of-jail card by its deck, never its id: a get-out-of-jail card (Chance)."""
    c = ruleset.cards.get(card)
    if c is None:
        return _("a get-out-of-jail card")
    return _("a get-out-of-jail card (%(deck)s)", deck=deck_words(ruleset, c.deck))


def goods_words(ruleset: Ruleset, offer: Offer | None, mortgaged: tuple[int, ...] = ()) -> str:
    """One side of a trade: $200 and Baltic Avenue; deeds by their names (marked when mortgaged), jail cards by
    their deck; nothing when the side gives nothing."""
    if offer is None or offer.empty:
        return _("nothing")
    items = [ruleset.money_text(offer.cash)] if offer.cash else []
    for deed in offer.deeds:
        words = _square_words(ruleset, deed)
        items.append(_("%(square)s (mortgaged)", square=words) if _square_index(ruleset, deed) in mortgaged else words)
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


@dataclass(frozen=True, slots=True)
class EntryFacts:
    """What the log says of an entry beyond its own fields, taken from the table as it was just before it (and
    from what it did): the deed or building an auction entry was for, who won it at what price, a deed's price,
    the buildings on the lots before a change, the mortgaged deeds in a trade and what kind of trade it was."""

    square: int | None = None  # the deed auctioned, bought or declined
    kind: str | None = None  # the building auctioned (house or hotel)
    winner: str | None = None  # hammer: the high bidder's name
    amount: int = 0  # hammer: the winning bid; buy: the price
    void: bool = False  # hammer: the winning bid was void
    levels: tuple[tuple[int, int], ...] = ()  # build, sell_buildings: (lot, buildings before)
    mortgaged: tuple[int, ...] = ()  # trade: deeds that were mortgaged
    context: str = "trade"  # trade: trade, debt_negotiation or rescue
    card: str | None = None  # use_jail_card: the card used, when the entry does not name it


def entry_facts(before: GameState, entry: Entry, events=()) -> EntryFacts | None:
    """The facts the log needs about ``entry``, from ``before`` (the state it was recorded on) and its
    ``events``; None when the entry's own fields say it all."""
    p = before.pending
    rs = before.ruleset
    if entry.type in ("bid", "hammer") and isinstance(p, (Auction, BuildingAuction)):
        square = p.square if isinstance(p, Auction) else None
        kind = p.kind if isinstance(p, BuildingAuction) else None
        if entry.type == "bid":
            return EntryFacts(square=square, kind=kind)
        winner = None if p.high_bidder is None else before.players[p.high_bidder].name
        return EntryFacts(square=square, kind=kind, winner=winner, amount=p.high_bid,
                          void=any(isinstance(e, BidVoided) for e in events))
    if entry.type in ("buy", "decline") and isinstance(p, BuyOrAuction):
        return EntryFacts(square=p.square, amount=rs.squares[p.square].price)
    if entry.type in ("build", "sell_buildings") and entry.targets:
        levels = []
        for ref, _level in entry.targets:
            index = _square_index(rs, ref)
            if index is None:
                return None
            levels.append((index, before.buildings[index]))
        return EntryFacts(levels=tuple(levels))
    if entry.type == "trade":
        made = next((e for e in events if isinstance(e, TradeMade)), None)
        context = made.context if made is not None else "trade"
        deeds = [d for offer in (entry.give, entry.take) if offer is not None for d in offer.deeds]
        mortgaged = tuple(i for i in (_square_index(rs, d) for d in deeds) if i is not None and before.mortgaged[i])
        return EntryFacts(mortgaged=mortgaged, context=context) if mortgaged or context != "trade" else None
    if entry.type == "use_jail_card" and entry.card is None:
        used = next((e.card for e in events if isinstance(e, JailCardReturned)), None)
        return EntryFacts(card=used) if used is not None else None
    return None


def _lot_words(ruleset: Ruleset, facts: EntryFacts) -> str:
    if facts.square is not None:
        return _square_words(ruleset, facts.square)
    return _("a hotel") if facts.kind == "hotel" else _("a house")


def _square_index(ruleset: Ruleset, ref: int | str) -> int | None:
    try:
        return ruleset.square(ref).index
    except KeyError:
        return None


def _sentence(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str | None:
    """The entry as one sentence where its fields (and the facts) allow; None for the plain label form."""
    bidders = " = ".join(entry.bidders)
    if entry.type == "trade":
        return trade_words(ruleset, entry.player, entry.partner, entry.give, entry.take,
                           facts.context if facts else "trade", facts.mortgaged if facts else ())
    if entry.type == "card" and entry.card in ruleset.cards:
        return _("%(player)s draws a %(deck)s card: %(card)s", player=entry.player,
                 deck=deck_words(ruleset, ruleset.cards[entry.card].deck), card=_card_words(ruleset, entry.card))
    card = entry.card or (facts.card if facts else None)
    if entry.type == "use_jail_card" and card is not None:
        return _("%(player)s uses %(card)s", player=entry.player, card=jail_card_words(ruleset, card))
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
                 square=_square_words(ruleset, facts.square), price=ruleset.money_text(facts.amount))
    if entry.type == "decline" and facts.square is not None:
        if not ruleset.options.auction_on_decline:
            return _("%(player)s declines %(square)s: it stays with the bank", player=entry.player,
                     square=_square_words(ruleset, facts.square))
        return _("%(player)s declines %(square)s: it goes to auction", player=entry.player,
                 square=_square_words(ruleset, facts.square))
    if entry.type in ("build", "sell_buildings") and facts.levels:
        before = dict(facts.levels)
        hotel = ruleset.options.houses_per_hotel + 1
        changes = _separator().join(
            _("%(square)s %(before)s → %(after)s", square=_square_words(ruleset, ref),
              before=level_words(before[_square_index(ruleset, ref)], ruleset), after=level_words(level, ruleset))
            for ref, level in entry.targets
            if (hotel if level == "hotel" else level) != before[_square_index(ruleset, ref)])
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
    (:func:`entry_facts`, from the table as it was before the entry) what an auction entry was for and who won
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
        parts.append(_card_words(ruleset, entry.card) if ruleset else entry.card)
    if entry.choice is not None:
        parts.append({"flat": _("flat amount"), "percent": _("percentage of assets"), "pay": _("to pay the fine"),
                      "draw": _("to draw a card from the other deck")}.get(entry.choice, entry.choice))
    if entry.square is not None:
        parts.append(_square_words(ruleset, entry.square) if ruleset else str(entry.square))
    if entry.deeds:
        parts.append(_separator().join(_square_words(ruleset, d) if ruleset else str(d) for d in entry.deeds))
    if entry.partner is not None:
        parts.append(entry.partner)
    if entry.creditor is not None:
        parts.append(_("to %(creditor)s", creditor=entry.creditor))
    if entry.count:
        parts.append(_("the latest %(n)s", n=entry.count))
    if entry.targets:
        parts.append(_separator().join(
            f"{_square_words(ruleset, sq)} {level_words(lvl, ruleset)}" if ruleset else f"{sq} {lvl}"
            for sq, lvl in entry.targets))
    if entry.note:
        parts.append(f"({entry.note})")
    return " ".join(parts)


# The facts behind each entry of a game's log, judged once on the state the entry was recorded on: entries never
# change once recorded, so a fold of the record kept beside the service's Game (and carried on as entries are
# added) serves every later page of the log without folding the record again.
@dataclass
class _LogFold:
    game: Game
    facts: dict[int, EntryFacts]
    # each entry's words once said, by (language, index): they rest on the entries up to it and the game's ruleset
    # alone, so the table screen's latest lines are not put in words again at every draw
    said: dict[tuple[str, int], str] = field(default_factory=dict)


_log_folds: "WeakKeyDictionary[Game, _LogFold]" = WeakKeyDictionary()
_log_lock = threading.Lock()


def _log_fold(game: Game) -> _LogFold:
    """The log's fold kept beside ``game`` (call with ``_log_lock`` held)."""
    fold = _log_folds.get(game)
    if fold is None:
        fold = _log_folds[game] = _LogFold(Game(game.ruleset, game.header), {})
    return fold


def log_facts(game: Game, stop: int, start: int = 0) -> dict[int, EntryFacts]:
    """The facts of entries ``start`` to ``stop`` (0-based, ``stop`` excluded), by index, for the entries that have
    any (the record is folded up to ``stop`` once, and kept)."""
    stop = min(stop, len(game.entries))
    with _log_lock:
        fold = _log_fold(game)
        while len(fold.game.entries) < stop:
            index = len(fold.game.entries)
            entry = game.entries[index]
            before = fold.game.state
            outcome = fold.game.record(entry)
            facts = entry_facts(before, entry, outcome.events) if entry.type != "void" else None
            if facts is not None:
                fold.facts[index] = facts
        return {i: fold.facts[i] for i in range(max(0, start), stop) if i in fold.facts}


def log_lines(game: Game, start: int, stop: int) -> list[tuple[int, str, bool]]:
    """Entries ``start`` to ``stop`` (0-based) of the game's log as (number, words, still in effect): trades with
    both sides' goods, cards by their text, auction bids with their lot, the hammer with who bought what for how
    much, equal calls with who won them and by which rule."""
    start = max(0, start)
    stop = min(stop, len(game.entries))
    effective = set(game.effective[bisect_left(game.effective, start):])  # in order: those from ``start`` on
    lang = current_language()
    with _log_lock:
        said = _log_fold(game).said
        missing = [i for i in range(start, stop) if (lang, i) not in said]
    if missing:
        ties = tie_calls(game, missing)
        facts = log_facts(game, stop, missing[0])
        words = {(lang, i): entry_words(game.entries[i], game.ruleset, ties.get(i), facts.get(i)) for i in missing}
        with _log_lock:
            said.update(words)
    return [(i + 1, said[lang, i], i in effective or game.entries[i].type == "void") for i in range(start, stop)]


# --- the rules page: options and clauses by their names, option values in words, notes in the device's language --


@per_language
def _clause_labels() -> dict[str, str]:
    return {
        # options
        "seating_order": _("Order of play"), "doubles_to_jail": _("Doubles in a row that send a player to jail"),
        "auction_on_decline": _("Auction when the player declines to buy"),
        "auction_min_bid": _("Lowest bid at an auction"), "auction_bid_step": _("Bid step at an auction"),
        "auction_tie": _("Equal calls at the same time"),
        "auction_own_raise": _("The high bidder raising their own bid"),
        "auction_unpayable_bid": _("A winning bid the winner cannot pay"), "auction_no_bid": _("An auction without a bid"),
        "monopoly_rent_multiplier": _("Rent on a whole colour group"),
        "mortgaged_lot_breaks_monopoly_doubling": _("A mortgaged lot cancels the doubled rent of its group"),
        "mortgaged_deeds_count_for_rent": _("Mortgaged deeds count for rent"),
        "income_tax": _("Income tax"), "income_tax_percent": _("Income tax as a share of assets"),
        "free_parking": _("Free Parking"), "pot_payments": _("Payments that go into the Free Parking pot"),
        "go_landing_bonus": _("More salary for landing exactly on GO"),
        "rent_while_in_jail": _("Rent collected while in jail"),
        "rent_claim_turns": _("Turns an owner has to claim rent"),
        "jail_mode": _("How a player leaves jail"), "short_payment": _("A payment the cash does not cover"),
        "bank_money": _("The bank's money"), "landing_on_own": _("Landing on one's own deed"),
        "mortgages_allowed": _("Mortgages"), "jailed_may_trade": _("Trades by a player in jail"),
        "jail_skip_turn": _("Skipping a turn instead of the jail fine"),
        "doubles_after_prepaid_release_roll_again": _("Doubles after paying or using a card to leave jail roll again"),
        "jail_max_rolls": _("Rolls for doubles in jail"),
        "jail_card_purchase_before_fine": _("Getting a jail card from another player before paying the fine"),
        "mortgage_interest_percent": _("Mortgage interest"),
        "mortgage_interest_rounding": _("Rounding of mortgage interest"),
        "mortgage_timing": _("When deeds may be mortgaged"),
        "transferred_mortgage_interest": _("Interest on a mortgaged deed received from a player"),
        "bankruptcy_to_bank_deeds": _("Deeds after a bankruptcy to the bank"),
        "pay_each_player_bankruptcy_to_bank": _("Bankrupted by the 'pay each player' card"),
        "bankrupt_estate": _("A bankrupt's deeds, when the creditor is a player"),
        "jail_exit_bankruptcy": _("Bankruptcy leaving jail after the third failed roll"),
        "houses_per_hotel": _("Houses per hotel"), "build_timing": _("When buildings may be built"),
        "hotel_breakdown": _("Selling a hotel as houses from the bank"),
        "hotel_sale_value": _("What the bank pays for a hotel"), "after_time_called": _("After time is called"),
        "end_after_bankruptcies": _("Bankruptcies that end the game"),
        "ending_bankruptcy_buildings": _("Buildings of the bankrupt player whose bankruptcy ends the game"),
        "asset_deed_percent": _("Deeds in the asset count"),
        "asset_mortgaged_deed_percent": _("Mortgaged deeds in the asset count"),
        "asset_building_percent": _("Buildings in the asset count"), "trade_timing": _("When trades may be made"),
        "trade_limits": _("Limits on trades"), "provisional_bankruptcy": _("Provisional bankruptcy and rescue"),
        "trades_before_first_go": _("Trades before anyone has passed GO"),
        "dealt_deeds": _("Deeds dealt to each player at the start"),
        "dealt_deeds_redeal_pairs": _("A dealt pair of one colour is dealt again"),
        # clauses
        "seating": _("Seating"), "dice": _("Dice"), "doubles": _("Doubles"), "salary": _("Salary"),
        "purchase": _("Buying a deed"), "auction": _("Auction"), "rent": _("Rent"), "railroad_rent": _("Railroad rent"),
        "utility_rent": _("Utility rent"), "mortgaged_rent": _("No rent on a mortgaged lot"), "tax": _("Taxes"),
        "cards": _("Chance and Community Chest"), "jail": _("Jail"), "jail_release": _("Leaving jail"),
        "mortgage": _("Mortgage"), "unmortgage": _("Lifting a mortgage"), "debt": _("Debt"),
        "bankruptcy": _("Bankruptcy"), "between_turns": _("Between turns"), "correction": _("Correcting a mistake"),
        "game_end": _("End of the game"), "building": _("Building houses and hotels"),
        "building_shortage": _("Shortage of houses and hotels"), "selling_buildings": _("Selling buildings"),
        "hotel_sale": _("Selling a hotel"), "ranking": _("Ranking when time is called"), "trade": _("Trades"),
    }


def clause_label(key: str) -> str:
    """An option or clause of a ruleset by its name in the device's language (the key when none is known)."""
    return _clause_labels().get(key) or key.replace("_", " ")


@per_language
def _choice_words() -> dict[tuple[str, str], str]:
    return {
        ("seating_order", "by_roll"): _("by a roll of the dice, highest first"),
        ("seating_order", "highest_then_seat_order"): _("the highest roll starts, then seat order"),
        ("auction_tie", "next_to_move_first"): _("the caller nearest in turn order from the next player wins"),
        ("auction_tie", "refuse"): _("refused: the first call stands"),
        ("auction_unpayable_bid", "void_and_rerun_without_bidder"):
            _("void: the auction is run again without the winner"),
        ("auction_no_bid", "stays_with_bank"): _("the deed stays with the bank"),
        ("income_tax", "flat"): _("a flat amount"), ("income_tax", "choice"): _("a flat amount or a share of assets"),
        ("free_parking", "nothing"): _("nothing happens"),
        ("free_parking", "tax_pot"): _("a pot collects there for the player who lands"),
        ("pot_payments", "tax"): _("taxes"), ("pot_payments", "bail"): _("jail fines"),
        ("pot_payments", "card"): _("payments by card"),
        ("bankrupt_estate", "to_creditor"): _("all to the creditor"),
        ("bankrupt_estate", "shared_among_survivors"):
            _("cash and cards to the creditor, the deeds shared evenly among the players left"),
        ("mortgage_interest_rounding", "up"): _("rounded up"), ("mortgage_interest_rounding", "down"): _("rounded down"),
        ("mortgage_timing", "between_turns_or_to_pay"): _("between turns, or to raise cash for a payment"),
        ("mortgage_timing", "any_time"): _("at any time"),
        ("transferred_mortgage_interest", "on_transfer"): _("10% at once on receiving it"),
        ("transferred_mortgage_interest", "on_unmortgage_only"): _("only when the mortgage is lifted"),
        ("bankruptcy_to_bank_deeds", "auction_in_board_order"): _("auctioned unmortgaged, in board order from GO"),
        ("bankruptcy_to_bank_deeds", "return_unowned"): _("back to the bank unowned, for sale again"),
        ("jail_exit_bankruptcy", "jma"): _("as the JMA rules say (rescue covering fine and rent)"),
        ("jail_exit_bankruptcy", "to_bank"): _("a bankruptcy to the bank"),
        ("build_timing", "between_turns"): _("between turns"), ("build_timing", "any_time"): _("at any time"),
        ("hotel_breakdown", "debtors_only"): _("only by a player in debt"),
        ("hotel_breakdown", "any_player"): _("by any player"),
        ("hotel_sale_value", "five_houses"): _("half of five house prices"),
        ("hotel_sale_value", "four_houses"): _("half of four house prices"),
        ("after_time_called", "at_once"): _("the game ends at once"),
        ("ending_bankruptcy_buildings", "sold_to_bank"): _("sold back to the bank at half price"),
        ("ending_bankruptcy_buildings", "pass_to_creditor"): _("passed whole to the creditor"),
        ("after_time_called", "one_more_roll"): _("one more roll, then the game ends"),
        ("after_time_called", "equal_turns"): _("play on until everyone has had as many turns"),
        ("trade_timing", "between_turns_or_debt"): _("between turns, or in debt negotiation"),
        ("trade_timing", "any_time"): _("at any time"),
        ("trade_timing", "own_turn"): _("in the turn of one of the two players"),
        ("trade_timing", "never"): _("never"),
        ("jail_mode", "doubles_or_fine"): _("by doubles, the fine or a card"),
        ("jail_mode", "sit_out"): _("after turns sat out"),
        ("short_payment", "debt"): _("a debt: raise it or go bankrupt"),
        ("short_payment", "all_cash_then_out"): _("all the cash is paid, and the player is out"),
        ("landing_on_own", "nothing"): _("nothing happens"),
        ("landing_on_own", "build_one_or_sell"): _("build one house, or sell it back to the bank"),
        ("trade_limits", "jma"): _("the JMA limits"), ("trade_limits", "none"): _("none"),
    }


_MONEY_OPTIONS = ("auction_min_bid", "auction_bid_step")
_PERCENT_OPTIONS = ("income_tax_percent", "mortgage_interest_percent", "asset_deed_percent",
                    "asset_mortgaged_deed_percent", "asset_building_percent")


def option_value_words(ruleset: Ruleset, key: str, value) -> str:
    """An option's value in words: yes / no, $10, 10%, a flat amount."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        if key in _MONEY_OPTIONS:
            return ruleset.money_text(value)
        if key in _PERCENT_OPTIONS:
            return f"{value}%"
        if key == "monopoly_rent_multiplier":
            return _("%(n)s times", n=value)
        if key == "end_after_bankruptcies" and value == 0:
            return _("none: play goes on until one player is left")
        if key == "bank_money":
            return _("no limit") if value == 0 else ruleset.money_text(value)
        if key == "rent_claim_turns":
            return _("no limit: a claim traced back is paid") if value == 0 else _(
                "until the turn of the player %(n)s after the payer begins", n=value)
        return f"{value:,}"
    if isinstance(value, tuple):  # a list of choices
        return _separator().join(option_value_words(ruleset, key, v) for v in value) or _("none")
    return _choice_words().get((key, value)) or str(value)


def clause_note(ruleset: Ruleset, clause) -> str:
    """A clause's note (the choice made where the texts are silent, and why) in the device's language: the
    translation kept beside the ruleset file (rulesets/notes/ID.LANG.toml) while it translates the note as it
    stands; else the note as written (a note changed since, or a tournament's override of the option)."""
    from . import rulesets

    lang = current_language()
    if not clause.note or lang == "en":
        return clause.note
    english, translated = rulesets.notes(ruleset.id, lang).get(clause.key, ("", ""))
    return translated if english == clause.note else clause.note


def ending_words(state: GameState) -> str:
    """How an ended game ended, for the final ranking's title: (time), (monopoly win), (at the 2nd bankruptcy)."""
    reason = state.pending.reason
    if reason == "time":
        return _("(time)")
    if reason == "bank":
        return _("(the bank ran out of money)")
    if reason == "bankruptcies":
        return _("(ended at bankruptcy number %(n)s)", n=state.ruleset.options.end_after_bankruptcies)
    return _("(monopoly win)")


def deck_name(state: GameState, deck: str) -> str:
    """A deck by its name in this edition: Chance, Community Chest, Show Time, Magic Moments."""

    return Deck(deck).words(state, _, current_language())


def time_call_words(ruleset: Ruleset, reminder: bool = False) -> str:
    """What calling time does under this ruleset (option after_time_called): the confirmation's words, or
    (``reminder``) the short words after "Time is up: call time"."""
    rule = ruleset.options.after_time_called
    if rule == "at_once":
        return (_("— the game then ends at once and is ranked.") if reminder else
                _("Call time: the game ends now and is ranked by assets; an auction or building in progress is void. "
                  "This cannot be taken back except by voiding it."))
    if rule == "equal_turns":
        return (_("— then play goes on until every player has had as many turns, and the game is ranked.") if reminder
                else _("Call time: negotiations, auctions and building in progress stop; play goes on until every "
                       "player has had as many turns, then the game is ranked. This cannot be taken back except by "
                       "voiding it."))
    return (_("— then the last roll is played and the game is ranked.") if reminder else
            _("Call time: negotiations, auctions and building in progress stop; the last roll is played and the game "
              "is ranked. This cannot be taken back except by voiding it."))


def house_rules_off(ruleset: Ruleset) -> str:
    """The ruleset's house rules switched off for this game, by name."""
    return _separator().join(in_language(rule.name) for option, rule in ruleset.house_rules.items()
                             if rule.default_on and getattr(ruleset.options, option) == rule.off)


def variants_on(ruleset: Ruleset) -> str:
    """The ruleset's variants switched on for this game, by name."""
    return _separator().join(in_language(rule.name) for option, rule in ruleset.house_rules.items()
                             if not rule.default_on and getattr(ruleset.options, option) == rule.on)


def stage_words(stage) -> str:
    """A tournament format's stage in words: its rounds, who plays them, how they sit, how they are ranked."""
    parts = [_("%(n)s rounds", n=stage.rounds) if stage.rounds and stage.rounds > 1 else
             _("1 round") if stage.rounds else _("as many rounds as the director seats")]
    parts.append({"everyone": _("every player still in"),
                  "top": _("the best %(n)s of the stage before", n=stage.count),
                  "table_winners": _("the winner of each table of the stage before")}[stage.entrants])
    parts.append({"draw": _("tables drawn for the fewest repeat opponents (of 4, of 5 where the numbers do not "
                            "divide)"),
                  "snake": _("tables seeded snake-wise from the standings"),
                  "ranked_boards": _("ranked boards: the best on board 1, the next on board 2…")}[stage.seating])
    parts.append({"stage": _("ranked by this stage's games alone"),
                  "carried": _("ranked by every game so far")}[stage.points])
    if stage.invited:
        parts.append(_("with the seeds invited to it (a previous champion), who take places among them"))
    if stage.order == "by_board":
        parts.append(_("places go board by board: the champion comes from board 1"))
    if len(set(stage.minutes)) == 1:
        parts.append(_("%(n)s minutes a round", n=stage.minutes[0]))
    elif stage.minutes:
        parts.append(_("minutes by round: %(minutes)s (the last for every later round)",
                       minutes=", ".join(map(str, stage.minutes))))
    return _("%(stage)s: %(how)s", stage=in_language(stage.name), how=("、" if current_language() == "ja" else "; ").join(parts))


def in_language(names) -> str:
    """A text given by language (a house rule's name) in the device's language, else English."""
    return named(names, current_language(), next(iter(names.values()), ""))


def clause_texts(ruleset: Ruleset, clause) -> list[tuple[str, str]]:
    """A clause's words to show, as (language, text): in the ruleset's source language first (what the rule
    says), then in the device's language, or in English when the file has no text in the device's language."""
    source = ruleset.clause_language if ruleset.clause_language in clause.text else next(iter(clause.text), "")
    out = [(source, clause.text[source])] if source else []
    lang = current_language()
    other = lang if lang in clause.text else "en"
    if other != source and other in clause.text:
        out.append((other, clause.text[other]))
    return out


def ruleset_name(ruleset: Ruleset) -> str:
    """A ruleset by its name in the device's language."""
    return named(ruleset.name, current_language(), ruleset.id)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["square_name"] = square_name
    app.jinja_env.globals["money"] = money
    app.jinja_env.filters["entry_words"] = entry_words
    app.jinja_env.filters["pending_words"] = pending_words
    app.jinja_env.filters["level_words"] = level_words
    app.jinja_env.filters["group_name"] = group_name
    app.jinja_env.globals["clause_label"] = clause_label
    app.jinja_env.globals["option_value_words"] = option_value_words
    app.jinja_env.globals["clause_note"] = clause_note
    app.jinja_env.globals["ruleset_name"] = ruleset_name
    app.jinja_env.globals["in_language"] = in_language
    app.jinja_env.globals["time_call_words"] = time_call_words
    app.jinja_env.globals["house_rules_off"] = house_rules_off
    app.jinja_env.globals["variants_on"] = variants_on
    app.jinja_env.globals["stage_words"] = stage_words
    app.jinja_env.globals["bank_stock_words"] = bank_stock_words
    app.jinja_env.globals["board_places"] = board_places
    app.jinja_env.globals["board_tokens"] = board_tokens
    app.jinja_env.globals["deck_name"] = deck_name
    app.jinja_env.globals["ending_words"] = ending_words
    app.jinja_env.globals["clause_texts"] = clause_texts


# --- decision cards (issue 11) ---


def count_words(kind: str, n: int, ruleset: Ruleset | None = None) -> str:
    """A number of houses or hotels in words: 1 house, 3 houses, 1 hotel (the edition's own words where the ruleset,
    or the game this request shows, has them)."""

    if ruleset is None and has_app_context():
        ruleset = g.get("edition_ruleset")
    return building_count(ruleset, current_language(), kind, n, _)


def use_edition_words(ruleset: Ruleset) -> None:
    """The game this request shows: its edition's words for buildings, in the cards and panels that count them."""
    if has_request_context():
        g.edition_ruleset = ruleset


def bank_stock_words(state: GameState) -> str:
    """The bank's houses and hotels left: In the bank: 12 houses, 1 hotel."""
    return _("In the bank: %(houses)s, %(hotels)s", houses=count_words("house", state.bank_houses, state.ruleset),
             hotels=count_words("hotel", state.bank_hotels, state.ruleset))


@dataclass(slots=True)
class DeedLine:
    """A deed on a player's card: its name on the board, its buildings in words ("" when none), mortgaged.  The
    words are found when asked (the card's swatches need only the colour and the mortgage; the deed list, drawn
    when opened, names them).  The card's parts are made for every player at every draw, so they are not frozen
    (a frozen one takes twice as long to make); nothing changes them once made."""

    state: GameState
    index: int
    mortgaged: bool

    @property
    def square(self) -> str:
        return square_name(self.state, self.index)

    @property
    def buildings(self) -> str:
        level = self.state.buildings[self.index]
        return level_words(level, self.state.ruleset) if level else ""


@dataclass(slots=True)
class DeedGroup:
    """A player's deeds of one colour group (or of the railroads, the utilities), in the board's order."""

    group: str  # the group's name on the board
    color: str
    deeds: list[DeedLine]
    whole: bool  # the player holds every deed of the group


@dataclass(slots=True)
class Holdings:
    """What a player's card shows besides cash and square: deeds by group, buildings, get-out-of-jail cards."""

    groups: list[DeedGroup]
    deeds: int
    mortgaged: int
    houses: int
    hotels: int
    cards: list[str]  # each card held, by its deck

    @property
    def swatches(self) -> list[tuple[str, bool]]:
        """The card's row of colours: each deed's group colour, and whether it is mortgaged, in the list's order."""
        return [(group.color, deed.mortgaged) for group in self.groups for deed in group.deeds]

    @property
    def summary(self) -> str:
        """7 deeds (1 mortgaged) · 6 houses · 1 hotel"""
        parts = [_("%(n)s deeds", n=self.deeds) if self.deeds != 1 else _("1 deed")]
        if self.mortgaged:
            parts[0] = _("%(deeds)s (%(n)s mortgaged)", deeds=parts[0], n=self.mortgaged)
        if self.houses:
            parts.append(count_words("house", self.houses))
        if self.hotels:
            parts.append(count_words("hotel", self.hotels))
        return " · ".join(parts)


_board_places: "OrderedDict[tuple[int, str], tuple[tuple, list]]" = OrderedDict()  # (board, language): places
_board_lock = threading.Lock()


def board_places(ruleset: Ruleset) -> list[tuple[Markup, str, int]]:
    """The cells of a 40-square board as it lies on the table, GO at the bottom right and play running clockwise:
    each square's place in the grid and its colour band with the group's name (its cell's attributes), its name
    and its index.  The same on every screen of a board in a language: worked out once (the latest few boards
    kept)."""
    key = (id(ruleset.squares), current_language())
    with _board_lock:
        kept = _board_places.get(key)
        if kept is not None and kept[0] is ruleset.squares:
            _board_places.move_to_end(key)
            return kept[1]
    places = []
    for sq in ruleset.squares:
        i = sq.index
        row, col = (11, 11 - i) if i <= 10 else (21 - i, 1) if i < 20 else (1, i - 19) if i <= 30 else (i - 29, 11)
        group = ruleset.groups.get(sq.group) if sq.group else None
        attrs = (Markup(' title="{}" style="grid-row:{}; grid-column:{}; border-top:10px solid {}"').format(
                     group_name(ruleset, sq.group), row, col, group.color) if group is not None
                 else Markup(' style="grid-row:{}; grid-column:{}"').format(row, col))
        places.append((attrs, named(sq.name, current_language(), sq.id), i))
    with _board_lock:
        _board_places[key] = (ruleset.squares, places)
        while len(_board_places) > 16:
            _board_places.popitem(last=False)
    return places


def board_tokens(state: GameState) -> dict[int, list[int]]:
    """The players in the game on each square the board shows a token on, in seat order."""
    tokens: dict[int, list[int]] = {}
    for seat, p in enumerate(state.players):
        if not p.bankrupt:
            tokens.setdefault(p.position, []).append(seat)
    return tokens


def holdings(state: GameState, player: int) -> Holdings:
    """A player's deeds grouped by colour group (groups in board order), each with its buildings and whether it is
    mortgaged; the houses and hotels standing on them; the get-out-of-jail cards held, by deck."""
    rs = state.ruleset
    owned = state.deeds_of(player)
    by_group: dict[str, list[int]] = {}
    for sq in owned:
        by_group.setdefault(rs.squares[sq].group, []).append(sq)
    groups = []
    for gid, squares in by_group.items():
        group = rs.groups.get(gid)
        lines = [DeedLine(state, sq, state.mortgaged[sq]) for sq in squares]
        groups.append(DeedGroup(group_name(rs, gid) if gid else "", group.color if group else "#ddd", lines,
                                group is not None and len(squares) == len(group.squares)))
    return Holdings(groups, len(owned), sum(state.mortgaged[sq] for sq in owned),
                    sum(state.houses_on(sq) for sq in owned), sum(state.hotels_on(sq) for sq in owned),
                    [jail_card_words(rs, c) for c in state.players[player].jail_cards])


@dataclass(frozen=True, slots=True)
class DebtCard:
    """The figures of the debt card (a debt, or a winning bid the winner's cash does not cover): what is owed and
    to whom, the cash there, what mortgaging every deed and selling every building would add (the engine's
    ``raisable_cash``), and who the player may trade with to finish it."""

    player: int
    bid: bool  # a winning bid, not a debt
    owed: int
    to: str  # who is paid
    cash: int
    mortgages: int  # mortgaging every deed not yet mortgaged
    mortgage_count: int
    buildings: int  # selling every building back to the bank at half price
    building_count: int
    kept: int  # a building won at a shortage auction: the mortgage values of the group kept to build on
    ahead: int  # the rent the third failed jail roll leads to, due once the fine is paid (JMA)
    later: int  # further payments the player owes, waiting behind this one
    partners: list[tuple[int, str]]  # (player, "debt_negotiation" or "rescue"): trades that may finish the debt

    @property
    def raisable(self) -> int:
        return self.mortgages + self.buildings - self.kept

    @property
    def in_all(self) -> int:
        return self.cash + self.raisable

    @property
    def missing(self) -> int:
        return max(0, self.owed - self.cash)

    @property
    def short(self) -> int:
        """What even every way of raising cash leaves unpaid (0: the player can pay on their own)."""
        return max(0, self.owed + self.ahead - self.in_all)


def debt_card(state: GameState, trade_actions=()) -> DebtCard | None:
    """The debt card's figures while a debt or an unpayable winning bid is pending, else None.  ``trade_actions``:
    the legal ``trade`` actions (the debtor's partners)."""

    p = state.pending
    if isinstance(p, Debt):
        who, bid, to = p.debtor, False, party(state, p.creditor)
        if p.shares:
            to = names_and(party(state, c) for c, _amount in p.shares)
    elif isinstance(p, BidPayment):
        who, bid, to = p.player, True, _("the bank")
    else:
        return None
    rs = state.ruleset
    deeds = state.deeds_of(who)
    free = [sq for sq in deeds if not state.mortgaged[sq]]
    mortgages = sum(rs.squares[sq].mortgage for sq in free)
    cash = state.players[who].cash
    buildings = raisable_cash(state, who) - cash - mortgages  # the engine's sum, half the buildings' price
    kept = 0
    if bid and p.kind is not None:
        kept = raisable_cash(state, who) - bid_means(state, who, p.kind, p.amount)
    ahead = jail_exit_landing(state)[1] if jail_exit_short(state) else 0
    partners = []
    creditors = set() if bid else {p.creditor, jail_exit_creditor(state)}  # the creditors take no part in a rescue
    for a in trade_actions:
        if a.player != who:
            continue
        for b in a.detail["partners"]:
            context = trade_context(state, who, b)
            if context == "rescue" and b in creditors:
                continue  # a rescue comes from a player other than the creditor
            if context in ("debt_negotiation", "rescue"):
                partners.append((b, context))
    later = sum(d.amount for d in state.debts if d.debtor == who)
    return DebtCard(who, bid, p.amount, to, cash, mortgages, len(free), buildings,
                    sum(state.houses_on(sq) + state.hotels_on(sq) for sq in deeds), kept, ahead, later, partners)


@dataclass(frozen=True, slots=True)
class LotPreview:
    """A lot of a declared group: its buildings now and once the declaration is built (the even rule's result)."""

    square: str
    now: str
    after: str
    changed: bool


@dataclass(frozen=True, slots=True)
class DeclarationCard:
    """One player's declaration: the groups it builds on with every lot's levels before and after, what it costs,
    what it takes from the bank, and why it cannot be filled, if it cannot."""

    player: int
    name: str
    groups: list[tuple[str, str, list[LotPreview]]]  # (group name, colour, lots in the group's order)
    cost: int
    houses: int
    hotels: int
    problems: list[str]

    @property
    def needs(self) -> str:
        """What it takes from the bank: 3 houses, 1 hotel."""
        return _separator().join([count_words("house", self.houses)] * bool(self.houses)
                                 + [count_words("hotel", self.hotels)] * bool(self.hotels))


@dataclass(frozen=True, slots=True)
class ShortageLot:
    """A house-shortage auction: the building auctioned and, for each player who may bid, the opening price (the
    building price of the cheapest lot where they could build, in the bid steps) and where that is."""

    kind: str  # house or hotel
    openings: list[tuple[str, int, str]]  # (player, opening price, the lot's name)

    @property
    def what(self) -> str:
        return count_words(self.kind, 1)


@dataclass(frozen=True, slots=True)
class BuildRoundCard:
    """The building round panel: every declaration so far, the bank's stock and what the declarations need of
    it, what closing them does, and during a shortage auction its lot."""

    declarations: list[DeclarationCard]
    bank_houses: int
    bank_hotels: int
    houses_back: int  # houses the declared hotels, built first, give back to the bank
    houses_needed: int
    hotels_needed: int
    excluded: str  # the players out of this round after an unpayable bid, in words
    close_cost: int | None  # closing builds these declarations for this much in all; None: an auction follows
    close_auction: str | None  # closing starts an auction of this building (house or hotel)
    shortage: str  # why not every declaration can be built, in words ("" when they can)
    lot: ShortageLot | None

    @property
    def houses_there(self) -> int:
        return self.bank_houses + self.houses_back

    @property
    def hotels_first(self) -> str:
        """Where declared hotels give houses back: the bank's houses count them."""
        if not self.houses_back:
            return ""
        return _("The bank has %(bank)s; the hotels declared are built first and give back %(back)s.",
                 bank=count_words("house", self.bank_houses), back=count_words("house", self.houses_back))

    @property
    def close_auction_words(self) -> str:
        return count_words(self.close_auction, 1) if self.close_auction else ""

    def cost_of(self, player: int) -> int:
        return next((d.cost for d in self.declarations if d.player == player), 0)


def _declaration_card(state: GameState, player: int, targets, houses_there: int) -> DeclarationCard:
    from .refusals import detail

    rs = state.ruleset
    targets = dict(targets)
    groups = []
    for gid in dict.fromkeys(rs.squares[sq].group for sq in targets):
        g = rs.groups[gid]
        lots = [LotPreview(square_name(state, sq), level_words(state.buildings[sq], rs),
                           level_words(targets.get(sq, state.buildings[sq]), rs),
                           targets.get(sq, state.buildings[sq]) != state.buildings[sq]) for sq in g.squares]
        groups.append((group_name(rs, gid), g.color, lots))
    name = state.players[player].name
    try:
        change = plan_change(state, player, targets, selling=False)
    except IllegalEntry as exc:
        return DeclarationCard(player, name, groups, 0, 0, 0, [detail(exc)])
    problems = []
    cash = state.players[player].cash
    if change.price > cash:
        problems.append(_("%(player)s has %(cash)s, less than the %(cost)s it costs: it lapses when the buildings go "
                          "up.", player=name, cash=money(state, cash), cost=money(state, change.price)))
    if change.houses_needed > houses_there:
        problems.append(_("It needs %(needed)s; the bank has %(there)s for the declarations: it lapses when the "
                          "declarations close.", needed=count_words("house", change.houses_needed, state.ruleset),
                          there=count_words("house", houses_there, state.ruleset)))
    if change.hotels_needed > state.bank_hotels:
        problems.append(_("It needs %(needed)s; the bank has %(there)s: it lapses when the declarations close.",
                          needed=count_words("hotel", change.hotels_needed, state.ruleset),
                          there=count_words("hotel", state.bank_hotels, state.ruleset)))
    return DeclarationCard(player, name, groups, change.price, change.houses_needed, change.hotels_needed, problems)


def build_round_card(state: GameState) -> BuildRoundCard | None:
    """The building round panel's contents while declarations, their shortage auction or its winner's choice of
    lot are pending, else None."""

    p = state.pending
    if isinstance(p, BuildRound):
        round_ = p
    elif isinstance(p, (BuildingAuction, PlaceBuilding)):
        round_ = p.round
    else:
        return None
    rs = state.ruleset
    declarations = round_.declarations
    try:
        houses_there = houses_for_declarations(state, declarations)
        houses, hotels = demand(state, declarations)
    except IllegalEntry:
        houses_there, houses, hotels = state.bank_houses, 0, 0
    cards = [_declaration_card(state, player, targets, houses_there) for player, targets in declarations]
    close_cost = close_auction = None
    if isinstance(p, BuildRound):
        try:
            outcome = resolve(state, parse_entry({"type": "close_builds"}))
        except IllegalEntry:
            outcome = None
        if outcome is not None:
            after = outcome.state.pending
            if isinstance(after, BuildingAuction):
                close_auction = after.kind
            else:
                close_cost = sum(e.amount for e in outcome.events if isinstance(e, Paid) and e.reason == "building")
    shortage = ""
    if houses > houses_there or hotels > state.bank_hotels:
        rs = state.ruleset
        needed = [count_words("house", houses, rs)] * bool(houses) + [count_words("hotel", hotels, rs)] * bool(hotels)
        there = ([count_words("house", houses_there, rs)] * bool(houses)
                 + [count_words("hotel", state.bank_hotels, rs)] * bool(hotels))
        words = {"needed": names_and(needed), "there": names_and(there)}
        if close_auction:
            shortage = _("Declared in all: %(needed)s; the bank has %(there)s for them. Closing the declarations starts "
                         "a shortage auction, one building at a time, unless a declaration is withdrawn or reduced "
                         "first.", **words)
        elif isinstance(p, BuildRound):
            shortage = _("Declared in all: %(needed)s; the bank has %(there)s for them. Closing the declarations "
                         "builds those the bank can fill; the others lapse.", **words)
        else:
            shortage = _("Declared in all: %(needed)s; the bank has %(there)s for them: the buildings go one at a time "
                         "by auction, and after each the declarations stand again, less what was built.", **words)
    lot = None
    if isinstance(p, BuildingAuction):
        openings = []
        for i in state.active:
            lots = placeable(state, i, p.kind)
            if i in p.excluded or not lots:
                continue
            cheapest = min(lots, key=lambda sq: rs.squares[sq].house_cost)
            opening = building_minimum_bid(state, BuildingAuction(p.kind, p.round), i)
            openings.append((state.players[i].name, opening, square_name(state, cheapest)))
        lot = ShortageLot(p.kind, openings)
    return BuildRoundCard(cards, state.bank_houses, state.bank_hotels, houses_there - state.bank_houses, houses, hotels,
                          names_and(state.players[i].name for i in round_.excluded), close_cost, close_auction, shortage, lot)
