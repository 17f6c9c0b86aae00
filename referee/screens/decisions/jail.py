"""The jail fine after the last failed roll in jail (and before a roll where a ruleset asks for it first): pay it, use
a get-out-of-jail card, skip a turn instead, or buy another player's card to use."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import card_first, card_for_sale, GameState, JailFine
from ...language import gettext as _
from ..words import Why, why
from .base import Decision, pending_as, Seen


@dataclass(frozen=True, slots=True)
class JailFineCard:
    player: str
    bail: int | None  # the fine (None: not offered)
    jail_card: bool  # a get-out-of-jail card may be used
    skip: bool  # a turn may be skipped instead of the fine
    offers: list[tuple[int, str, str]]  # the cards the player could buy first: (holder, holder's name, card id)
    fine: int  # the fine: a card bought goes for less
    price_limit: int  # the most a card bought may cost


def words(state: GameState) -> str:
    p = pending_as(state, JailFine)
    name = state.players[p.player].name
    if card_first(state):
        return _("waiting for {player} to use the get-out-of-jail card to leave jail").format(player=name)
    if not state.players[p.player].jail_cards and not card_for_sale(state, p.player):
        return _("third failed roll: waiting for {player} to pay the fine and move, or skip a turn").format(player=name)
    if not state.players[p.player].jail_cards:
        return _("third failed roll: waiting for {player} to pay the fine, or buy a get-out-of-jail card and use "
                 "it").format(player=name)
    return _("waiting for {player} to pay the fine or use a card to leave jail").format(player=name)


def notes(state: GameState) -> list[Why]:
    """The card that settles the fine first, the turn that may be skipped instead, the card that may be bought."""
    p = pending_as(state, JailFine)
    rs = state.ruleset
    fine = rs.money_text(rs.money.bail)
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
    return []


def card_offers(state: GameState) -> list[tuple[int, str, str]]:
    """After the third failed roll, the cards the jailed player could buy: (holder, holder's name, card id)."""
    p = pending_as(state, JailFine)
    if state.players[p.player].jail_cards or not card_for_sale(state, p.player):
        return []
    return [(i, pl.name, pl.jail_cards[0]) for i, pl in enumerate(state.players)
            if i != p.player and not pl.bankrupt and pl.jail_cards]


def _card(seen: Seen) -> JailFineCard | None:
    ways = [seen.first(kind) for kind in ("pay_bail", "use_jail_card", "skip_jail_turn")]
    if not any(ways):
        return None
    bail, card, skip = ways
    state = seen.state
    fine = state.ruleset.money.bail
    return JailFineCard(seen.name(pending_as(state, JailFine).player),
                        bail.detail["amount"] if bail is not None else None,
                        card is not None, skip is not None, card_offers(state) if seen.latest else [], fine, fine - 1)


DECISIONS = (Decision((JailFine,), words, "table/decisions/jail.html", notes=notes, card=_card),)
