"""The build and sell panels: the builds and sales the rules allow now, one tap each, with each lot's
buildings after it and the amount on the button."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine import build_offers, Change, GameState
from ..language import gettext as _
from .words import change_words, group_name, level_words, money, square_name
from .rulings import sale_offers


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
        offers = []
        for change in build_offers(state, a):
            levels = change.levels
            targets = {rs.squares[sq].id: "hotel" if level == state.hotel_level else level
                       for sq, level in levels.items() if level != state.buildings[sq]}
            offers.append(SaleOffer({"type": "build", "player": name, "targets": targets},
                                    [(level_words(levels[sq], rs), levels[sq] != state.buildings[sq]) for sq in squares],
                                    _("Build: %(price)s", price=money(state, change.price))))
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

