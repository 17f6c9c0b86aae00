"""Shared fixtures: the shipped rulesets and a small table to set positions on."""
from __future__ import annotations

import pytest

from referee.services import rulesets
from referee.engine import GameState, Ruleset, parse_entry, resolve, with_options


@pytest.fixture(scope="session")
def jma() -> Ruleset:
    return rulesets.load("jma-2006")


@pytest.fixture(scope="session")
def classic() -> Ruleset:
    return rulesets.load("classic")


def table(ruleset: Ruleset, players=("Aki", "Ben", "Chie"), **options) -> GameState:
    """A game with the seating already decided (players in the order given), Aki to roll."""
    return GameState.new(with_options(ruleset, options, "test"), list(players), seating="fixed")


def do(state: GameState, **entry) -> GameState:
    """The state after recording one entry (raises if the rules refuse it)."""
    return resolve(state, parse_entry(entry)).state


def events(state: GameState, **entry):
    return resolve(state, parse_entry(entry)).events


def sq(state: GameState, square_id: str) -> int:
    return state.ruleset.square(square_id).index


def give(state: GameState, player: int, *square_ids: str, mortgaged: bool = False) -> GameState:
    """Hand deeds to a player (setting up a position, as a referee would find it)."""
    state = state.copy()
    for sid in square_ids:
        i = sq(state, sid)
        state.set_owner(i, player)
        state.set_mortgaged(i, mortgaged)
    return state


def place(state: GameState, player: int, square_id: str, cash: int | None = None) -> GameState:
    state = state.copy()
    state.players[player].position = sq(state, square_id)
    if cash is not None:
        state.players[player].cash = cash
    return state


def cash(state: GameState) -> list[int]:
    return [p.cash for p in state.players]
