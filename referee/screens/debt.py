"""The debt card (a debt, or a winning bid its bidder's cash does not cover): what is owed and to whom, what every way
of raising cash would bring, and who may trade to finish it."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine import (bid_means, BidPayment, Debt, GameState, jail_exit_creditor, jail_exit_landing, jail_exit_short,
                      raisable_cash, trade_context)
from ..i18n import gettext as _
from .words import names_and, party


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
