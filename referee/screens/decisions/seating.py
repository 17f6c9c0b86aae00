"""Before play and after it: the seating roll (who sits first) and a roll-off between players tied at the end, each
answered by a roll on the dice pad."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import RollOff, SeatingRoll
from ...i18n import gettext as _
from .base import Decision, Seen
from ..words import separator


@dataclass(frozen=True, slots=True)
class RollCard:
    """A dice pad recording a roll of ``kind`` (``seat_roll``, ``rolloff``, ``rent_roll``) by ``player``."""

    kind: str
    player: str
    multiplier: int | None = None  # a utility's rent: this many times the dice


def roll_card(kind: str):
    def card(seen: Seen) -> RollCard | None:
        a = seen.first(kind)
        return RollCard(kind, seen.name(a.player)) if a is not None else None
    return card


def _waiting(state) -> str:
    return separator().join(state.players[i].name for i in state.pending.waiting)


SEATING = Decision((SeatingRoll,), lambda state: _("waiting for the seating roll of {players}").format(
    players=_waiting(state)), "table/decisions/roll_pad.html", card=roll_card("seat_roll"))
ROLL_OFF = Decision((RollOff,), lambda state: _("waiting for the roll-off of {players}").format(
    players=_waiting(state)), "table/decisions/roll_pad.html", card=roll_card("rolloff"))
DECISIONS = (SEATING, ROLL_OFF)
