"""Before play and after it: the seating roll (who sits first) and a roll-off between players tied at the end, each
answered by a roll on the dice pad."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...engine import AwaitRoll, Game, GameState, RollOff, SeatingRoll
from ...language import gettext as _
from .base import Decision, pending_as, Seen
from ..words import separator, Why, why


def seats_by_roll(game: Game) -> bool:
    """The players take their seats by the seating roll: the record rolls for the order of play and the ruleset
    seats the players in that order (option seating_order ``by_roll``, JMA 補足ルール「基本的な駒の進め方」: the
    first player chooses a seat and the others sit from there in playing order).  Under ``highest_then_seat_order``
    the players keep their seats and the highest roll only says who starts."""
    return game.header.seating == "roll" and game.ruleset.options.seating_order == "by_roll"


def seats_note(game: Game, state: GameState) -> list[Why]:
    """On the first turn's screen, before the first player has acted, where the seating roll re-seats the players:
    who sits where, in the order the roll decided."""
    p = state.pending
    if not (seats_by_roll(game) and isinstance(p, AwaitRoll) and state.turn == 1 and state.current == 0
            and not state.turn_started and not state.doubles):
        return []
    order = separator().join(_("%(n)s. %(player)s", n=n, player=player.name)
                             for n, player in enumerate(state.players, start=1))
    return [why(state.ruleset, _("Seats by the seating roll: %(order)s — move to these seats: %(first)s chooses a "
                                 "seat and the others sit from there in this order, in the direction of play.",
                                 order=order, first=state.players[0].name), "seating_order")]


@dataclass(frozen=True, slots=True)
class RollCard:
    """A dice pad recording a roll of ``kind`` (``seat_roll``, ``rolloff``, ``rent_roll``) by ``player``."""

    kind: str
    player: str
    multiplier: int | None = None  # a utility's rent: this many times the dice


def roll_card(kind: str) -> Callable[[Seen], RollCard | None]:
    def card(seen: Seen) -> RollCard | None:
        a = seen.first(kind)
        return RollCard(kind, seen.name(a.by)) if a is not None else None
    return card


def _waiting(state: GameState) -> str:
    return separator().join(state.players[i].name for i in pending_as(state, SeatingRoll, RollOff).waiting)


SEATING = Decision((SeatingRoll,), lambda state: _("waiting for the seating roll of {players}").format(
    players=_waiting(state)), "table/decisions/roll_pad.html", card=roll_card("seat_roll"))
ROLL_OFF = Decision((RollOff,), lambda state: _("waiting for the roll-off of {players}").format(
    players=_waiting(state)), "table/decisions/roll_pad.html", card=roll_card("rolloff"))
DECISIONS = (SEATING, ROLL_OFF)
