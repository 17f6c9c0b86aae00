"""The kinds of entry declared each in a module of its own (:mod:`.kinds`), and the tables the engine reads them
from.

An :class:`EntryType` says everything the engine knows of one kind of entry: its name (the record's ``type``), its
fields (which of :class:`~.entries.Entry`'s, required and optional, and the values its ``choice`` may take), when it
may be recorded (the actions it offers, whatever the decision awaited), how it is applied (its handler, checking it
against the rules and emitting its events), its events (each with the name counts and tests know it by), the entry
that records one of its actions as offered, and how often the simulator records it.  :func:`register` puts it in
the tables :func:`~.entries.parse_entry`, :func:`~.rules.legal_actions`, :func:`~.rules.resolve` and the simulator
read, so a new kind is its own module and nothing else of the engine.

The kinds of entry that answer a pending decision (a roll, a purchase, a bid...) are still the rules' own
(:mod:`.rules`' ``_ANSWERING``); their handlers are in the same table (:data:`HANDLERS`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from .entries import CHOICES, ENTRY_FIELDS, Action, Entry
from .events import Event
from .ruleset import Options
from .state import GameState
from .step import Step

Handler = Callable[[Step, Entry], None]
Producer = Callable[[GameState, "int | None"], list[Action]]


@dataclass(frozen=True, slots=True)
class Simulated:
    """How the simulator records a kind of entry while a roll is awaited: with chance ``rate``, the first action
    offered (``first``) or one drawn among them.  The chance is drawn only where one could be offered, so that games
    of rulesets without the kind draw the same numbers: where ``in_rules`` says a game's options could ever offer one
    (asked once a game: None, any game), and ``possible`` says its state could now (None: whenever a roll is
    awaited)."""

    rate: float
    possible: Callable[[GameState], bool] | None = None
    first: bool = False
    in_rules: Callable[[Options], bool] | None = None


@dataclass(frozen=True, slots=True)
class EntryType:
    """One kind of entry, declared once (see the module's docstring).  ``choices``: the values its ``choice`` field
    may take (checked as the entry is read); ``offered(state, player)``: the actions of this kind the rules allow
    now, whatever the decision awaited (``player``: only that player's); ``apply(step, entry)``: checks the entry
    against the rules (refusing with :meth:`Step.refuse`, a typed refusal naming the clause) and emits its events;
    ``events``: the event types it emits that are its own, each with its name; ``ready(state, action)``: the entry
    that records ``action`` as offered (the simulator's, and a button's); ``simulated``: how often the simulator
    records one; ``also``: the kinds ``offered`` makes besides this one, each declared too (a mortgage's offers
    include the lifting of mortgages, the deeds gone through once for both)."""

    name: str
    required: tuple[str, ...]
    apply: Handler
    optional: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    offered: Producer | None = None
    events: tuple[tuple[type[Event], str], ...] = ()
    ready: Callable[[GameState, Action], Entry] | None = None
    simulated: Simulated | None = None
    also: tuple[str, ...] = ()


KINDS: dict[str, EntryType] = {}  # the kinds declared in modules of their own, by name, in the order registered
HANDLERS: dict[str, Handler] = {}  # every entry type's handler: the rules' own (rules.py adds them) and each kind's
# what may be recorded whatever the decision awaited: the kinds each producer makes (the rules' own, then each kind's)
AT_ANY_DECISION: list[tuple[frozenset[str], Producer]] = []
_CHANGED: list[Callable[[], None]] = []  # what forgets what it worked out from these tables (rules' plans)


generation = 0  # how many times a kind was registered or taken away: what was worked out from the tables before a
# change is not kept past it (read at every roll the simulator awaits, where a call to ask would cost more)


def _changed() -> None:
    global generation
    generation += 1
    for forget in _CHANGED:
        forget()


def on_change(forget: Callable[[], None]) -> None:
    """Call ``forget`` whenever a kind is registered or taken away."""
    _CHANGED.append(forget)


def register(kind: EntryType) -> EntryType:
    """Put ``kind`` in the engine's tables: read from a record, offered by legal_actions, applied by the rules,
    recorded by the simulator.  A name already taken is refused (a kind is declared once)."""
    if kind.name in ENTRY_FIELDS:
        raise ValueError(f"entry type {kind.name!r} is declared twice")
    if kind.choices and "choice" not in kind.required + kind.optional:
        raise ValueError(f"entry type {kind.name!r} gives choices but has no choice field")
    ENTRY_FIELDS[kind.name] = (kind.required, kind.optional)
    if kind.choices:
        CHOICES[kind.name] = kind.choices
    HANDLERS[kind.name] = kind.apply
    if kind.offered is not None:
        AT_ANY_DECISION.append((frozenset((kind.name,) + kind.also), kind.offered))
    for event, event_name in kind.events:
        setattr(event, "kind", event_name)  # read without a call, as events.py sets the others'
    KINDS[kind.name] = kind
    _changed()
    return kind


def unregister(name: str) -> None:
    """Take a kind registered by :func:`register` out of the tables again (a test's own kind, once the test is
    done)."""
    kind = KINDS.pop(name)
    del ENTRY_FIELDS[name]
    CHOICES.pop(name, None)
    del HANDLERS[name]
    if kind.offered is not None:
        AT_ANY_DECISION.remove((frozenset((name,) + kind.also), kind.offered))
    _changed()


def made_with(name: str) -> tuple[str, ...]:
    """The kinds of entry the actions of kind ``name`` are offered with (its own producer's, ``also``), ``name``
    first: what is worked out at once when one of them is asked for."""
    for kind in KINDS.values():
        together = (kind.name,) + kind.also
        if name in together and len(together) > 1:
            return together
    return (name,)


def simulated(options: Options | None = None) -> list[EntryType]:
    """The kinds the simulator records now and then while a roll is awaited, in the order registered: those a game
    of ``options`` could offer (:attr:`Simulated.in_rules`), or all of them.  The simulator keeps what it was told
    for its game's options while :data:`generation` stays the same."""
    return [kind for kind in KINDS.values() if kind.simulated is not None and (
        options is None or kind.simulated.in_rules is None or kind.simulated.in_rules(options))]
