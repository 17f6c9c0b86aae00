"""The building round card: every declaration with its lots before and after, what the declarations need of the bank's
stock, what closing them does, and during a shortage auction its lot with each bidder's opening price."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import (Action, building_minimum_bid, BuildingAuction, BuildRound, demand, GameState,
                       houses_for_declarations, IllegalEntry, leads_to, Paid, placeable, PlaceBuilding, plan_change,
                       Ruleset)
from ...language import gettext as _
from ..words import (count_words, group_name, level_words, money, names_and, refusal_text, separator, square_name,
                     Why, why)
from .base import Decision, pending_as, Seen


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
    ruleset: Ruleset  # the edition's words for buildings

    @property
    def needs(self) -> str:
        """What it takes from the bank: 3 houses, 1 hotel."""
        return separator().join([count_words("house", self.houses, self.ruleset)] * bool(self.houses)
                                + [count_words("hotel", self.hotels, self.ruleset)] * bool(self.hotels))


@dataclass(frozen=True, slots=True)
class ShortageLot:
    """A house-shortage auction: the building auctioned and, for each player who may bid, the opening price (the
    building price of the cheapest lot where they could build, in the bid steps) and where that is."""

    kind: str  # house or hotel
    openings: list[tuple[str, int, str]]  # (player, opening price, the lot's name)
    ruleset: Ruleset  # the edition's words for buildings

    @property
    def what(self) -> str:
        return count_words(self.kind, 1, self.ruleset)


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
    ruleset: Ruleset  # the edition's words for buildings

    @property
    def houses_there(self) -> int:
        return self.bank_houses + self.houses_back

    @property
    def houses_short(self) -> bool:
        """The declarations need more houses than the bank has for them."""
        return self.houses_needed > self.houses_there

    @property
    def hotels_short(self) -> bool:
        return self.hotels_needed > self.bank_hotels

    @property
    def hotels_first(self) -> str:
        """Where declared hotels give houses back: the bank's houses count them."""
        if not self.houses_back:
            return ""
        return _("The bank has %(bank)s; the hotels declared are built first and give back %(back)s.",
                 bank=count_words("house", self.bank_houses, self.ruleset),
                 back=count_words("house", self.houses_back, self.ruleset))

    @property
    def close_auction_words(self) -> str:
        return count_words(self.close_auction, 1, self.ruleset) if self.close_auction else ""

    def cost_of(self, player: int) -> int:
        return next((d.cost for d in self.declarations if d.player == player), 0)


def _declaration_card(state: GameState, player: int, targets, houses_there: int) -> DeclarationCard:
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
        return DeclarationCard(player, name, groups, 0, 0, 0, [refusal_text(exc)], rs)
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
    return DeclarationCard(player, name, groups, change.price, change.houses_needed, change.hotels_needed, problems,
                           rs)


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
        outcome = leads_to(state, Action("close_builds"))
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
        lot = ShortageLot(p.kind, openings, rs)
    return BuildRoundCard(cards, state.bank_houses, state.bank_hotels, houses_there - state.bank_houses, houses, hotels,
                          names_and(state.players[i].name for i in round_.excluded), close_cost, close_auction, shortage,
                          lot, rs)


def place_notes(state: GameState) -> list[Why]:
    """A lot priced above the winning bid holds the bid."""
    p, rs = pending_as(state, PlaceBuilding), state.ruleset
    if any(rs.squares[i].house_cost > p.price for i in placeable(state, p.player, p.kind)):
        return [why(rs, _("A lot whose building price is above the winning bid of %(amount)s holds the bid: the "
                          "auction goes on, and %(player)s must win it at that price or more to build there.",
                          amount=rs.money_text(p.price), player=state.players[p.player].name), "building_shortage")]
    return []


def _card(seen: Seen) -> BuildRoundCard | None:
    return build_round_card(seen.state) if seen.latest else None


DECISIONS = (
    Decision((BuildRound,), lambda state: _("building declarations: waiting for others to follow, or for the referee "
                                            "to close them"), "table/decisions/build_round.html", card=_card),
    Decision((PlaceBuilding,), lambda state: _("waiting for {player} to choose the lot for the {kind}").format(
        player=state.players[pending_as(state, PlaceBuilding).player].name,
        kind=_(pending_as(state, PlaceBuilding).kind)),
        "table/decisions/build_round.html", notes=place_notes, card=_card),
)
