"""The notes a table screen gives beside the decision it waits for and after an entry: why the roll, the decision or
the outcome is the one it is, each with the clause of the active ruleset it rests on."""
from __future__ import annotations


from ..engine import (AwaitingDecision, AwaitRoll, BidPayment, BidVoided, BuildingAuction, BuildingsChanged, BuildRound,
                      card_first, card_for_sale, Debt, EstateShared, GameState, jail_exit_landing, jail_exit_short,
                      JailFine, JailTurnSat, OwnProperty, Paid, placeable, PlaceBuilding, POT, raisable_cash,
                      RentWaived, WentBankrupt)
from ..i18n import gettext as _
from .words import money, party, per_language, square_name, Why, why


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
