"""The notes a table screen gives after an entry: why its outcome is the one it is, each with the clause of the active
ruleset it rests on (the notes beside a pending decision are its screens module's: :mod:`.decisions`)."""
from __future__ import annotations


from ..engine import (AwaitingDecision, BidVoided, BuildingAuction, BuildingsChanged, BuildRound, EstateShared,
                      GameState, JailTurnSat, Paid, POT, RentWaived, WentBankrupt)
from ..language import gettext as _
from .words import money, party, Why, why


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
