"""The choices a landing asks for: how to pay income tax, a fine or a card, which card was drawn, the roll for a
utility's rent, and what to do on a street of one's own."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ...engine import DrawCard, FineOrCard, GameState, IncomeTaxChoice, OwnProperty, RentRoll
from ...language import current_language, gettext as _
from ..words import deck_name, money, square_name, Why, why
from .base import Decision, pending_as, Seen
from .seating import RollCard


@dataclass(frozen=True, slots=True)
class IncomeTaxCard:
    player: str
    flat: int
    percent: int  # ten per cent of the player's worth


@dataclass(frozen=True, slots=True)
class FineOrCardCard:
    player: str
    amount: int
    deck: str


@dataclass(frozen=True, slots=True)
class DrawCardCard:
    player: str
    cards: list[tuple[str, str]]  # (the card's id, its text in the device's language): the cards it may be


@dataclass(frozen=True, slots=True)
class OwnPropertyCard:
    player: str
    build: tuple[int, int, int] | None  # a house built on landing: (its price, the square, the level it leaves)
    sell: tuple[int, int]  # the deed sold back to the bank: (the square, its price)


def _income_tax(seen: Seen) -> IncomeTaxCard | None:
    a = seen.first("income_tax")
    return IncomeTaxCard(seen.name(a.by), a.detail["flat"], a.detail["percent"]) if a is not None else None


def _fine_or_card(seen: Seen) -> FineOrCardCard | None:
    a = seen.first("fine_or_card")
    return FineOrCardCard(seen.name(a.by), a.detail["amount"], a.detail["deck"]) if a is not None else None


def _draw_card(seen: Seen) -> DrawCardCard | None:
    a = seen.first("card")
    if a is None:
        return None
    cards, lang = seen.state.ruleset.cards, current_language()
    return DrawCardCard(seen.name(a.by), [(cid, cards[cid].text.get(lang) or cards[cid].text.get("en", ""))
                                              for cid in a.detail["cards"]])


def _rent_roll(seen: Seen) -> RollCard | None:
    a = seen.first("rent_roll")
    return RollCard("rent_roll", seen.name(a.by), a.detail["multiplier"]) if a is not None else None


def _own_property(seen: Seen) -> OwnPropertyCard | None:
    keep = seen.first("keep")
    if keep is None:
        return None
    build, sell = seen.first("build_house"), seen.actions["sell_to_bank"][0]
    return OwnPropertyCard(seen.name(keep.by),
                           (build.detail["price"], build.detail["square"], build.detail["level"]) if build else None,
                           (sell.detail["square"], sell.detail["price"]))


def own_property_notes(state: GameState) -> list[Why]:
    """What a house on landing costs: half where the player owns the whole colour group."""
    p, rs = pending_as(state, OwnProperty), state.ruleset
    sq = rs.squares[p.square]
    if sq.kind == "street" and sq.group is not None and state.group_owner.get(sq.group) == p.player:
        return [why(rs, _("%(player)s owns every street of this colour: a house costs half, %(price)s.",
                          player=state.players[p.player].name, price=money(state, sq.house_cost // 2)),
                    "landing_on_own")]
    return [why(rs, _("On a street of one's own: one house at its price, or the street sold back to the bank."),
                "landing_on_own")]


class _OfPlayer(Protocol):
    """A landing's decision: the player it waits for."""

    @property
    def player(self) -> int: ...


def _player(state: GameState, kind: type[_OfPlayer]) -> str:
    return state.players[pending_as(state, kind).player].name


DECISIONS = (
    Decision((IncomeTaxChoice,), lambda state: _("waiting for {player} to choose how to pay income tax").format(
        player=_player(state, IncomeTaxChoice)), "table/decisions/income_tax.html", card=_income_tax),
    Decision((DrawCard,), lambda state: _("waiting for the {deck} card {player} drew").format(
        deck=deck_name(state, pending_as(state, DrawCard).deck), player=_player(state, DrawCard)),
        "table/decisions/draw_card.html", card=_draw_card),
    Decision((OwnProperty,), lambda state: _("{player} is on {square}, their own: build, sell it back, or leave "
                                              "it").format(player=_player(state, OwnProperty),
                                                           square=square_name(
                                                               state, pending_as(state, OwnProperty).square)),
             "table/decisions/own_property.html", notes=own_property_notes, card=_own_property),
    Decision((FineOrCard,), lambda state: _("waiting for {player} to pay {amount} or draw a {deck} card").format(
        player=_player(state, FineOrCard), amount=state.ruleset.money_text(pending_as(state, FineOrCard).amount),
        deck=deck_name(state, pending_as(state, FineOrCard).deck)), "table/decisions/fine_or_card.html",
        card=_fine_or_card),
    Decision((RentRoll,), lambda state: _("waiting for {player}'s roll for the utility rent").format(
        player=_player(state, RentRoll)), "table/decisions/roll_pad.html", card=_rent_roll),
)
