"""The pending decisions as the screens show them: one module per kind of decision, looked up by the decision's type
(as boardgame.io keys its moves by stage).  Each gives, in :class:`~.base.Decision`, the decision's words (what the
table waits for), its notes (why, with the clause), its card (the values its buttons and figures show, worked out
here: the templates do no rule arithmetic and read no option) and the template that lays the card out
(``templates/table/decisions/``).

A new kind of decision is a module here (and its template), beside its type and entries in the engine.

- :mod:`.seating`: the seating roll, a roll-off; :mod:`.deal`: dealing deeds;
- :mod:`.roll`: the roll awaited; :mod:`.jail`: the jail fine;
- :mod:`.purchase`: buy or decline; :mod:`.auction`: an auction, a house-shortage auction;
- :mod:`.landing`: income tax, a fine or a card, the card drawn, a utility's rent roll, one's own street;
- :mod:`.debt`: a debt, a winning bid to pay; :mod:`.build_round`: building declarations, the lot for a building;
- :mod:`.ending`: the game over.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine import Action, Game, GameState
from ...language import gettext as _
from ..words import Why
from . import auction, build_round, deal, debt, ending, jail, landing, purchase, roll, seating
from .base import Decision, Seen

NOTHING = Decision((type(None),), lambda state: _("nothing pending"), "")

BY_TYPE: dict[type, Decision] = {kind: decision
                                 for module in (seating, deal, roll, jail, purchase, auction, landing, debt, build_round,
                                                ending)
                                 for decision in module.DECISIONS for kind in decision.kinds}


def decision_of(state: GameState) -> Decision:
    """The screens of the decision ``state`` waits for."""
    return BY_TYPE.get(type(state.pending), NOTHING)


def pending_words(state: GameState) -> str:
    """What the table waits for, in the device's language."""
    return decision_of(state).words(state)


@dataclass(frozen=True, slots=True)
class DecisionScreen:
    """The decision a table screen shows: in words, its notes, its card and the template laying it out."""

    words: str
    notes: list[Why]
    card: Any
    template: str


def decision_screen(game: Game, state: GameState, actions: dict[str, list[Action]], latest: bool) -> DecisionScreen:
    """The decision ``state`` waits for as the table screen shows it: ``actions``, its legal actions by type (none on
    a screen that records nothing); ``latest``, whether ``state`` is the game's latest (notes and cards that look
    ahead are for the latest state only)."""
    decision = decision_of(state)
    return DecisionScreen(decision.words(state), decision.notes(state) if latest else [],
                          decision.card(Seen(game, state, actions, latest)), decision.template)


__all__ = ["BY_TYPE", "Decision", "DecisionScreen", "decision_of", "decision_screen", "pending_words"]
