"""Dealing deeds before play (the shortened game): the deeds still in the bank, a checkbox each, for one player."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import DealDeeds
from ...language import gettext as _
from .base import Decision, pending_as, Seen


@dataclass(frozen=True, slots=True)
class DealCard:
    player: str
    deeds: list[tuple[str, int, int]]  # (the deed's id, its square, its price): the deeds still in the bank


def _card(seen: Seen) -> DealCard | None:
    a = seen.first("deal")
    if a is None:
        return None
    squares = seen.state.ruleset.squares
    return DealCard(seen.name(a.by), [(squares[sq].id, sq, squares[sq].price) for sq in a.detail["available"]])


DECISIONS = (Decision((DealDeeds,), lambda state: _("dealing deeds: waiting for {player}'s deeds").format(
    player=state.players[pending_as(state, DealDeeds).waiting[0]].name), "table/decisions/deal.html", card=_card),)
