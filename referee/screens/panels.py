"""The build panel: the builds the rules allow now, one tap each, with each lot's buildings after it and the amount
on the button (the sell panel, :mod:`.kinds.sell_buildings`, lays its sales out the same way: :class:`SalePanel`)."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine import build_offers, Change, GameState
from ..language import gettext as _
from .words import change_words, group_name, level_words, money, square_name


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

