"""A sale of buildings back to the bank (the engine's :mod:`referee.engine.kinds.sell_buildings`) as the screens
show it: the sell panel, every sale the rules allow now one tap each with the buildings it leaves and what the bank
pays (``templates/table/kinds/sell_buildings.html``, drawn open while a debt is being raised); its line in the log,
its noun, its payments' words."""
from __future__ import annotations

from ...engine import Action, Entry, EntryFacts, GameState, Ruleset
from ...language import gettext as _
from ..kind import Buttons, EntryScreen, register_screen
from ..log import lot_changes
from ..panels import SaleOffer, SalePanel
from ..rulings import sale_offers
from ..words import group_name, level_words, money, per_language, square_name


def sale_panels(state: GameState, actions: list[Action]) -> list[SalePanel]:
    """The sell panel: for each player and colour group they may sell on, every sale the rules allow now, with
    the buildings left on each lot and what the bank pays (the engine's price: half of what the levels sold
    cost, a hotel counting as the houses it replaced plus itself)."""
    rs = state.ruleset
    panels = []
    for a in actions:
        assert a.player is not None  # a sale is always someone's
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


@per_language
def _reasons() -> dict[str, str]:
    return {"buildings_sold": _("for buildings sold")}


def _sentence(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    return _("%(player)s sells buildings: %(changes)s", player=entry.player,
             changes=lot_changes(entry, ruleset, facts))


register_screen(EntryScreen(
    "sell_buildings", lambda: _("a sale of buildings"), _sentence,
    reasons=_reasons,
    buttons=Buttons("sell", sale_panels, "table/kinds/sell_buildings.html", panel=lambda: _("Sell buildings"),
                    in_debt=True)))
