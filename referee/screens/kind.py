"""The kinds of entry as the screens show them, each declared once in a module of :mod:`.kinds` beside its engine
module (:mod:`referee.engine.kinds`): its noun (what a refusal calls it), its log line, its payments' words, its
refusals' titles, and its buttons on the table screen (the values they show, worked out here, and the template
that lays them out, ``templates/table/kinds/``).  The log, the refusals and the table screen look a kind up here
(:data:`SCREENS`), and the result page and sheet ask each kind for its table on paper (:func:`paper_tables`); the
entry types the rules answer decisions with are still in their own tables (``log.py``, ``refusals.py``,
``panels.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..engine import Action, BidPayment, Debt, Entry, EntryFacts, Game, GameState, Ruleset, made_with


@dataclass(frozen=True, slots=True)
class Buttons:
    """Where a kind's buttons go on the table screen and what they show.  ``panel``: the words of its panel's summary
    (a panel of the table screen named ``name``, its contents drawn only while open), or None for buttons in the
    main column under the decision, drawn whenever the rules offer one; ``offers(state, actions)``: the values
    the buttons show, from the kind's legal actions (and those of the kinds the engine offers with it,
    :func:`referee.engine.made_with`: a mortgage's panel lifts mortgages too); ``template``: the template laying them out (given ``place``, the
    :class:`Place` with its offers, and the table screen's context); ``in_debt``: a panel drawn open while a debt or
    a winning bid is being raised (one of the ways to raise it); ``ahead``: a panel drawn before the building
    declarations' (the others follow it, each in the order its kind is registered)."""

    name: str
    offers: Callable[[GameState, list[Action]], list[Any]]
    template: str
    panel: Callable[[], str] | None = None
    in_debt: bool = False
    ahead: bool = False


@dataclass(frozen=True, slots=True)
class Paper:
    """A kind's table on the result page and sheet: its heading, its columns (each one's head, and whether it holds
    numbers), and its rows in a game (``rows(game)``: its entries still in effect, a text a column each)."""

    heading: Callable[[], str]
    columns: Callable[[], tuple[tuple[str, bool], ...]]
    rows: Callable[[Game], list[tuple[str, ...]]]


@dataclass(frozen=True, slots=True)
class PaperTable:
    """One kind's table on paper, worked out for a game (:func:`paper_tables`)."""

    kind: str
    heading: str
    columns: tuple[tuple[str, bool], ...]
    rows: list[tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Confirmation:
    """One button of a kind behind its confirmation: what it says (in sight before it is tapped), the question the
    confirmation asks and its yes, and the entry that records it; ``key``, the button's id among its kind's."""

    key: str
    entry: dict[str, Any]
    label: str
    question: str
    yes: str


@dataclass(frozen=True, slots=True)
class EntryScreen:
    """One kind of entry as the screens show it: ``noun()``, what a refusal calls it ("a fine"); ``sentence(entry,
    ruleset, facts)``, its line in the log (who did what); ``reasons()``, the words of the payments it makes, by
    their reason; ``titles``, its refusals' titles by code (English, marked for the catalogues with ``_l``);
    ``buttons``, where its buttons go on the table screen (None: it has none of its own); ``paper``, its table on the
    result page and sheet (None: none)."""

    name: str
    noun: Callable[[], str]
    sentence: Callable[[Entry, Ruleset, "EntryFacts | None"], str]
    reasons: Callable[[], dict[str, str]] = field(default=dict)
    titles: dict[str, str] = field(default_factory=dict)
    buttons: Buttons | None = None
    paper: Paper | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """A kind's buttons on one table screen: its kind, where they go and what they show (worked out when drawn)."""

    kind: str
    name: str
    summary: str | None  # a panel's summary; None: buttons in the main column
    template: str
    offers: list[Any]
    ahead: bool = False  # a panel drawn before the building declarations'


SCREENS: dict[str, EntryScreen] = {}  # the kinds of .kinds by name, in the order registered


def register_screen(screen: EntryScreen) -> EntryScreen:
    """Put ``screen`` where the log, the refusals and the table screen find it (a kind is declared once)."""
    if screen.name in SCREENS:
        raise ValueError(f"the screens of entry type {screen.name!r} are declared twice")
    SCREENS[screen.name] = screen
    return screen


def unregister_screen(name: str) -> None:
    """Take a kind's screens away again (a test's own kind, once the test is done)."""
    del SCREENS[name]


def kind_panels() -> tuple[str, ...]:
    """The names of the table screen's panels the kinds give."""
    return tuple(s.buttons.name for s in SCREENS.values() if s.buttons is not None and s.buttons.panel is not None)


def raising_cash(state: GameState) -> bool:
    """Whether a debt or a winning bid waits for its cash (the ways to raise it are open)."""
    return isinstance(state.pending, (Debt, BidPayment))


def debt_panels() -> frozenset[str]:
    """The names of the kinds' panels drawn open while a debt or a winning bid is being raised."""
    return frozenset(s.buttons.name for s in SCREENS.values() if s.buttons is not None and s.buttons.in_debt)


def places(state: GameState, actions: dict[str, list[Action]], drawn: frozenset[str]) -> list[Place]:
    """Each kind's buttons the rules offer now (``actions``: the legal actions by type), a panel's values worked out
    only while it is ``drawn`` open."""
    out = []
    for screen in SCREENS.values():
        buttons = screen.buttons
        if buttons is None:
            continue
        offered = [a for name in made_with(screen.name) for a in actions.get(name, ())]
        if not offered:
            continue
        summary = buttons.panel() if buttons.panel is not None else None
        shown = summary is None or buttons.name in drawn
        out.append(Place(screen.name, buttons.name, summary, buttons.template,
                         buttons.offers(state, offered) if shown else [], buttons.ahead))
    return out


def paper_tables(game: Game) -> list[PaperTable]:
    """Each kind's table on the result page and sheet, where the game has rows for it."""
    out = []
    for screen in SCREENS.values():
        paper = screen.paper
        if paper is not None and (rows := paper.rows(game)):
            out.append(PaperTable(screen.name, paper.heading(), paper.columns(), rows))
    return out


def noun(kind: str) -> str | None:
    screen = SCREENS.get(kind)
    return screen.noun() if screen is not None else None


def sentence(entry: Entry, ruleset: Ruleset, facts: "EntryFacts | None") -> str | None:
    screen = SCREENS.get(entry.type)
    return screen.sentence(entry, ruleset, facts) if screen is not None else None


def reason(reason: str) -> str | None:
    for screen in SCREENS.values():
        said = screen.reasons().get(reason)
        if said is not None:
            return said
    return None


def refusal_title(code: str) -> str | None:
    for screen in SCREENS.values():
        if code in screen.titles:
            return screen.titles[code]
    return None
