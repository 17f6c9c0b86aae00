"""Shared fixtures: the shipped rulesets and a small table to set positions on; each test's tier (marker); a
PostgreSQL database of its own for each parallel worker."""
from __future__ import annotations

import inspect
import types

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


# Tiers.  Every test gets exactly one of the markers registered in pyproject.toml, so that
# `scripts/test -m "not browser and not postgres"` is the fast loop:
#   browser   its module is tests/test_browser*.py (chromium, a live server);
#   postgres  it runs on the PostgreSQL server (the `database` fixture's "postgresql" param, or `postgresql`);
#   web       it creates a Flask app: create_app (or Flask) is named by the test, a fixture it uses, or a helper of
#             the tests that either calls (followed through the tests' own functions, not into referee/);
#   engine    anything else: the engine, the rulesets, the simulator and the command line on records.
POSTGRES_FIXTURES = {"postgresql"}
APP_NAMES = {"create_app", "Flask"}


def _reaches_create_app(func, seen: set) -> bool:
    """Whether ``func`` (a test, a fixture or a helper of the tests) names create_app, directly or through the
    functions of the tests it names."""
    func = inspect.unwrap(func)
    code = getattr(func, "__code__", None)
    if code is None or code in seen:
        return False
    seen.add(code)
    names, strings, stack = set(), set(), [code]
    while stack:  # the function's own names and those of the functions and lambdas inside it
        c = stack.pop()
        names.update(c.co_names)
        strings.update(k for k in c.co_consts if isinstance(k, str))
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    if names & APP_NAMES or any(app in text for text in strings for app in APP_NAMES):  # or monkeypatch's "x.y"
        return True
    scope = getattr(func, "__globals__", {})
    for name in names:
        value = scope.get(name)
        if isinstance(value, types.FunctionType) and _is_test_code(value) and _reaches_create_app(value, seen):
            return True
    return False


def _is_test_code(func) -> bool:
    module = inspect.getmodule(func)
    name = getattr(module, "__name__", "")
    return name == "conftest" or name.startswith("test_")


def _tier(item) -> str:
    if item.path.name.startswith("test_browser"):
        return "browser"
    params = getattr(getattr(item, "callspec", None), "params", {})
    if params.get("database") == "postgresql" or POSTGRES_FIXTURES & set(item.fixturenames):
        return "postgres"
    seen: set = set()
    if _reaches_create_app(item.function, seen):
        return "web"
    for name in item.fixturenames:
        for fixturedef in item._fixtureinfo.name2fixturedefs.get(name, ()):
            if _is_test_code(fixturedef.func) and _reaches_create_app(fixturedef.func, seen):
                return "web"
    return "engine"


@pytest.hookimpl(tryfirst=True)  # before -m selects on the markers
def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(_tier(item))
