"""What a pending decision's screens module gives: its words, its notes, its card and the template laying the card out
(:class:`Decision`); the screens layer looks a decision up by its type (:mod:`referee.screens.decisions`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, overload, TypeVar

from ...engine import Action, Game, GameState
from ..words import Why

ByType = dict[str, list[Action]]  # the legal actions by type: the buttons

A = TypeVar("A")
B = TypeVar("B")


class NotPending(TypeError):
    """A decision's screens asked of a state waiting for another decision (a screens module is looked up by the
    pending decision's type, so this is a mistake in the code, not in the record)."""

    def __init__(self, kinds: tuple[type, ...], found: object) -> None:
        super().__init__(f"the state waits for {type(found).__name__}, not "
                         f"{' or '.join(kind.__name__ for kind in kinds)}")
        self.kinds, self.found = kinds, found


@overload
def pending_as(state: GameState, kind: type[A], /) -> A: ...


@overload
def pending_as(state: GameState, kind: type[A], other: type[B], /) -> A | B: ...


def pending_as(state: GameState, *kinds: type) -> Any:
    """The decision ``state`` waits for, as the type (one of the types) a decision's screens module shows: raises
    :class:`NotPending` when it waits for another."""
    found = state.pending
    if not isinstance(found, kinds):
        raise NotPending(kinds, found)
    return found


@dataclass(frozen=True, slots=True)
class Seen:
    """What a decision's card is built from: the game, the state shown, its legal actions by type (none on a screen
    that records nothing: an earlier state, an altered record) and whether the state is the game's latest."""

    game: Game
    state: GameState
    actions: ByType
    latest: bool

    def first(self, kind: str) -> Action | None:
        """The first legal action of this type (the one a card's button records), or None."""
        found = self.actions.get(kind)
        return found[0] if found else None

    def name(self, player: int) -> str:
        """A player by their name in the record: what an entry's "player" says."""
        return self.state.players[player].name


def no_notes(state: GameState) -> list[Why]:
    return []


def no_card(seen: Seen) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Decision:
    """One kind of pending decision as the screens show it.

    ``kinds``: the engine's pending types it shows; ``words(state)``: what the table waits for, in the device's
    language (the table's heading, the director's overview, a refusal's "waiting for ..."); ``notes(state)``: why the
    decision is the one it is, each with its clause (on the latest state only); ``card(seen)``: the values its
    buttons and figures show (None: nothing to show); ``template``: the template that lays the card out."""

    kinds: tuple[type, ...]
    words: Callable[[GameState], str]
    template: str
    notes: Callable[[GameState], list[Why]] = field(default=no_notes)
    card: Callable[[Seen], Any] = field(default=no_card)
