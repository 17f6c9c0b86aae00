"""A debt, or a winning bid its bidder's cash does not cover: the debt card (a debt, or a winning bid its bidder's cash does not cover): what is owed and to whom, what every way
of raising cash would bring, and who may trade to finish it."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import (bid_means, BidPayment, Change, Debt, GameState, jail_exit_creditor, jail_exit_landing,
                       jail_exit_short, leads_to, raisable_cash, smallest_sale, trade_context)
from ...language import gettext as _
from ..panels import mortgage_way_words, sale_way_words
from ..rulings import legal_sale, sale_offers
from ..words import change_words, count_words, names_and, party, separator, square_name, Why, why
from .base import ByType, Decision, pending_as, Seen


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
    mortgages_now: int  # of those, the deeds that may be mortgaged now: none in a group with buildings
    mortgage_now_count: int
    buildings: int  # selling every building back to the bank at half price
    building_count: int
    kept: int  # a building won at a shortage auction: the mortgage values of the group kept to build on
    ahead: int  # the rent the third failed jail roll leads to, due once the fine is paid (JMA)
    later: int  # further payments the player owes, waiting behind this one
    partners: list[tuple[int, str]]  # (player, "debt_negotiation" or "rescue"): trades that may finish the debt

    @property
    def after_sale(self) -> int:
        """What mortgaging the deeds of groups with buildings brings, once those buildings are sold."""
        return self.mortgages - self.mortgages_now

    @property
    def raisable(self) -> int:
        return self.mortgages + self.buildings - self.kept

    @property
    def in_all(self) -> int:
        return self.cash + self.raisable

    @property
    def missing(self) -> int:
        """What the cash leaves unpaid: of the debt, and of the rent ahead waiting with a jail fine (JMA: a fine the
        cash would pay still waits while the two together outrun the player, and the cash counts against both)."""
        return max(0, self.owed + self.ahead - self.cash)

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
    free_now = [sq for sq in free if not state.group_has_buildings(sq)]  # the rules: sell the group's buildings first
    cash = state.players[who].cash
    buildings = raisable_cash(state, who) - cash - mortgages  # the engine's sum, half the buildings' price
    kept = 0
    if isinstance(p, BidPayment) and p.kind is not None:
        kept = raisable_cash(state, who) - bid_means(state, who, p.kind, p.amount)
    landing = jail_exit_landing(state) if jail_exit_short(state) else None
    ahead = landing[1] if landing is not None else 0
    partners: list[tuple[int, str]] = []
    # the creditors take no part in a rescue
    creditors = {p.creditor, jail_exit_creditor(state)} if isinstance(p, Debt) else set()
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
    return DebtCard(who, bid, p.amount, to, cash, mortgages, len(free),
                    sum(rs.squares[sq].mortgage for sq in free_now), len(free_now), buildings,
                    sum(state.houses_on(sq) + state.hotels_on(sq) for sq in deeds), kept, ahead, later, partners)


@dataclass(frozen=True, slots=True)
class SalePlan:
    """One sale of buildings that raises the cash still missing (or as much as selling can), the even rule and the
    bank's houses kept on every group: one entry, one tap."""

    words: str  # the buildings sold, lot by lot
    buildings: str  # how many: "4 houses", "1 hotel"
    raises: int
    covers: bool  # it raises the whole of what is missing
    entry: dict


@dataclass(frozen=True, slots=True)
class DebtScreenCard:
    """The debt card's figures, the sale that pays it in one tap, the ways to raise cash (one button each, with
    what it raises), and bankruptcy where the rules allow it."""

    figures: DebtCard
    sale: SalePlan | None
    ways: list[tuple[str, int, dict]]  # (words, what it raises, the entry that records it)
    bankrupt: tuple[str, int, bool] | None  # (the player, what they cannot raise, whether it ends the game)


def raiser(state: GameState) -> int | None:
    """The player who must raise cash now: a debtor, or the winner of a bid their cash does not cover."""
    p = state.pending
    if isinstance(p, Debt):
        return p.debtor
    if isinstance(p, BidPayment):
        return p.player
    return None


PLANS_TRIED = 40  # the sums of sales tried, nearest first, before a plan is given up (each is one plan_change)


def sale_plan(state: GameState, by_type: ByType) -> SalePlan | None:
    """The sale of buildings that pays the debt or the winning bid in one entry: of every sum the engine's own sale
    offers on the player's groups (:func:`referee.screens.rulings.sale_offers`: the even rule, the bank's houses, a
    hotel broken into houses only by a debtor) can raise together, the smallest that covers the cash missing, else
    the largest; checked as one change by the engine (``plan_change``, ``sale_refusal``).  None when nothing can
    be sold now."""
    who = raiser(state)
    if who is None or jail_exit_short(state):
        return None
    groups = [a.detail["group"] for a in by_type.get("sell_buildings", []) if a.player == who]
    if not groups:
        return None
    missing = pending_as(state, Debt, BidPayment).amount - state.players[who].cash
    sums: dict[int, dict[int, int]] = {0: {}}  # what a sale raises -> the levels it leaves (first found)
    for group in groups:
        offers = sale_offers(state, who, group)
        grown = dict(sums)
        for raised, levels in sums.items():
            for offer in offers:
                grown.setdefault(raised - offer.price, {**levels, **offer.levels})
        sums = grown
    covering = sorted(r for r in sums if r >= missing)
    order = covering + sorted((r for r in sums if 0 < r < missing), reverse=True)
    in_debt = isinstance(state.pending, Debt)
    for raised in order[:PLANS_TRIED]:
        change = legal_sale(state, who, sums[raised], in_debt)
        if change is not None:
            return _plan_of(state, who, change, -change.price >= missing)
    return None


def _plan_of(state: GameState, who: int, change: Change, covers: bool) -> SalePlan:
    rs = state.ruleset
    hotels = sum(state.hotels_on(sq) for sq in change.levels) - sum(
        1 for level in change.levels.values() if level == state.hotel_level)
    houses = change.house_change  # houses back to the bank (fewer where a hotel is broken into houses)
    counted = [count_words(kind, n, rs) for kind, n in (("hotel", hotels), ("house", houses)) if n > 0]
    entry = {"type": "sell_buildings", "player": state.players[who].name,
             "targets": {rs.squares[sq].id: "hotel" if level == state.hotel_level else level
                         for sq, level in sorted(change.levels.items())}}
    return SalePlan(change_words(state, change), separator().join(counted), -change.price, covers, entry)


def ways_to_pay(state: GameState, by_type: ByType) -> list[tuple[str, int, dict]]:
    """For a pending debt or winning bid: every way the player can raise cash on their own, with what each
    raises and the entry that records it (the card's buttons)."""
    who = raiser(state)
    if who is None or jail_exit_short(state):  # the fine waits for a rescue covering the rent ahead too
        return []
    name = state.players[who].name
    squares = state.ruleset.squares
    ways = []
    for a in by_type.get("sell_buildings", []):
        if a.player == who:
            change = smallest_sale(state, a.player, a.detail["group"], in_debt=isinstance(state.pending, Debt))
            if change is not None:
                entry = {"type": "sell_buildings", "player": name,
                         "targets": {squares[sq].id: "hotel" if lvl == state.hotel_level else lvl
                                     for sq, lvl in change.levels.items()}}
                ways.append((sale_way_words(state, a.detail["group"], change), -change.price, entry))
    for a in by_type.get("mortgage", []):
        if a.player == who:
            entry = {"type": "mortgage", "player": name, "square": squares[a.detail["square"]].id}
            ways.append((mortgage_way_words(state, a.detail["square"]), a.detail["value"], entry))
    return ways


def _card(seen: Seen) -> DebtScreenCard | None:
    if not seen.latest:
        return None
    state = seen.state
    figures = debt_card(state, seen.actions.get("trade", []))
    if figures is None:
        return None
    a = seen.first("bankrupt")
    bankrupt = None
    if a is not None:  # its confirmation says whether it ends the game
        after = leads_to(state, a)
        bankrupt = (seen.name(a.by), a.detail["amount"], after is not None and after.state.over)
    sale = sale_plan(state, seen.actions)
    ways = [way for way in ways_to_pay(state, seen.actions) if sale is None or way[2] != sale.entry]
    return DebtScreenCard(figures, sale, ways, bankrupt)


def debt_notes(state: GameState) -> list[Why]:
    """A fine that waits for a rescue covering the rent ahead too."""
    p, rs = pending_as(state, Debt), state.ruleset
    landing = jail_exit_landing(state)
    if not jail_exit_short(state) or landing is None:
        return []
    square, rent_due = landing
    owner = state.owner[square]
    assert owner is not None  # rent is due there: the square is owned
    return [why(rs, _("After the fine, this roll leads to %(square)s: %(rent)s rent to %(owner)s, %(total)s in "
                      "all, more than %(player)s can raise. A rescue must come from a player other than "
                      "%(owner)s and cover both; the parts of a split rescue stand once together they do, and the "
                      "fine waits until then.", square=square_name(state, square), rent=rs.money_text(rent_due),
                      owner=state.players[owner].name, total=rs.money_text(p.amount + rent_due),
                      player=state.players[p.debtor].name), "jail_exit_bankruptcy")]


def bid_payment_notes(state: GameState) -> list[Why]:
    """A winning bid that stands while its cash is raised."""
    p, rs = pending_as(state, BidPayment), state.ruleset
    cash = state.players[p.player].cash
    text = _("%(player)s's winning bid of %(amount)s stands: %(player)s has %(cash)s, and %(can)s in all "
             "with every deed mortgaged and every building sold. The table waits for the %(short)s still "
             "missing; the bid is paid as soon as the cash is there.", player=state.players[p.player].name,
             amount=rs.money_text(p.amount), cash=rs.money_text(cash),
             can=rs.money_text(raisable_cash(state, p.player)), short=rs.money_text(p.amount - cash))
    return [why(rs, text, "auction_unpayable_bid" if p.square is not None else "building_shortage")]


def debt_words(state: GameState) -> str:
    p = pending_as(state, Debt)
    return _("{debtor} owes {creditor} {amount} ({reason})").format(
        debtor=state.players[p.debtor].name, creditor=_("the bank") if p.creditor is None else
        state.players[p.creditor].name, amount=state.ruleset.money_text(p.amount), reason=_(p.reason))


def bid_payment_words(state: GameState) -> str:
    p = pending_as(state, BidPayment)
    if p.square is not None:
        return _("{player} won {square} at {amount} and raises the cash to pay").format(
            player=state.players[p.player].name, square=square_name(state, p.square),
            amount=state.ruleset.money_text(p.amount))
    assert p.kind is not None  # a winning bid for a deed, or else for a building
    return _("{player} won a {kind} at {amount} and raises the cash to pay").format(
        player=state.players[p.player].name, kind=_(p.kind), amount=state.ruleset.money_text(p.amount))


DECISIONS = (
    Decision((Debt,), debt_words, "table/decisions/debt.html", notes=debt_notes, card=_card),
    Decision((BidPayment,), bid_payment_words, "table/decisions/debt.html", notes=bid_payment_notes, card=_card),
)
