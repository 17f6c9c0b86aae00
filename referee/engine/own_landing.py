"""Landing on a deed of one's own, where a ruleset gives it a use (German variant, seed 004, option
``landing_on_own``): build one house there, or sell the deed back to the bank, or leave it as it is.

004, Straße: Wenn ein Spieler eine eigene Straße erreicht, kann er sie an die Bank verkaufen. Der Verkäufer erhält
von der Bank den halben Kaufpreis der Straße und den halben Kaufpreis jedes Hauses ... Alle Häuser bzw. das Hotel
verfallen beim Verkauf. ... kann er dort ein Haus bauen, wenn auf der Straße noch kein Hotel steht. Pro Zug kann nur
1 Haus gebaut werden. ... Wenn ein Spieler alle Straßen der gleichen Farbe besitzt, kostet ein Haus nur die Hälfte.
Auf einer Straße mit 4 Häusern entsteht beim Kauf des fünften Hauses ein Hotel.
"""
from __future__ import annotations

from . import events as ev
from .entries import Action, Entry
from .phrases import Money, Player, Square
from .state import GameState, OwnProperty
from .step import Step


def house_price(state: GameState, player: int, square: int) -> int:
    """One house on the street: its price, or half of it when the player owns every street of its colour."""
    sq = state.ruleset.squares[square]
    whole = sq.group is not None and state.group_owner.get(sq.group) == player
    return sq.house_cost // 2 if whole else sq.house_cost


def sale_price(state: GameState, square: int) -> int:
    """What the bank pays for the deed: half its price and half the price of each house on it (a hotel: five)."""
    sq = state.ruleset.squares[square]
    return sq.price // 2 + state.buildings[square] * sq.house_cost // 2


def own_landing_actions(state: GameState, p: OwnProperty) -> list[Action]:
    sq = state.ruleset.squares[p.square]
    out = []
    if sq.kind == "street" and state.buildings[p.square] < state.hotel_level:
        price = house_price(state, p.player, p.square)
        if state.players[p.player].cash >= price and _in_stock(state, p.square):
            out.append(Action("build_house", p.player, {"square": p.square, "price": price,
                                                         "level": state.buildings[p.square] + 1}))
    out.append(Action("sell_to_bank", p.player, {"square": p.square, "price": sale_price(state, p.square)}))
    out.append(Action("keep", p.player, {"square": p.square}))
    return out


def _in_stock(state: GameState, square: int) -> bool:
    """The bank has the building the next level takes: a house, or the hotel for the fifth."""
    if state.buildings[square] + 1 == state.hotel_level:
        return state.bank_hotels > 0
    return state.bank_houses > 0


def _build_house(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, OwnProperty, "building")
    who = step.expect_actor(entry, p.player, "building")
    sq = s.ruleset.squares[p.square]
    level = s.buildings[p.square]
    if sq.kind != "street" or level >= s.hotel_level:
        raise step.refuse("nothing_to_build", "{square} takes no more buildings", "building", square=Square(p.square))
    price = house_price(s, who, p.square)
    if s.players[who].cash < price:
        raise step.refuse("cannot_afford", "{player} has {cash}; a house on {square} costs {price}", "building",
                          player=Player(who), cash=Money(s.players[who].cash), square=Square(p.square),
                          price=Money(price))
    if not _in_stock(s, p.square):
        raise step.refuse("no_stock", "the bank has no building left for {square}", "building_shortage",
                          square=Square(p.square))
    step.emit(ev.AwaitingDecision(None))
    step.emit(ev.Paid(who, None, price, "building"))
    hotel = level + 1 == s.hotel_level  # the fifth house is a hotel: the four houses go back
    step.emit(ev.BuildingsChanged(((p.square, level + 1),), level if hotel else -1, -1 if hotel else 0))


def _sell_to_bank(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, OwnProperty, "purchase")
    who = step.expect_actor(entry, p.player, "purchase")
    level = s.buildings[p.square]
    price = sale_price(s, p.square)
    step.emit(ev.AwaitingDecision(None))
    if level:  # the buildings go, back to the bank's stock
        hotel = level == s.hotel_level
        step.emit(ev.BuildingsChanged(((p.square, 0),), 0 if hotel else level, 1 if hotel else 0))
    step.emit(ev.DeedTransferred(p.square, None))
    step.bank_pays(who, price, "deed_sold")


def _keep(step: Step, entry: Entry) -> None:
    p = step.expect(entry, OwnProperty, "purchase")
    step.expect_actor(entry, p.player, "purchase")
    step.emit(ev.AwaitingDecision(None))


OWN_LANDING_HANDLERS = {"build_house": _build_house, "sell_to_bank": _sell_to_bank, "keep": _keep}
