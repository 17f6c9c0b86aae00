"""The game record: the source of truth for a game, and the fold that replays it.

A record is JSON Lines: one header object, then one object per referee
entry (see ``docs/game-record.md``).  :class:`Game` holds a record's
entries and the state they fold to.  A correction is itself an entry
(``void``): it takes back the latest entries without deleting anything.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .entries import Entry, parse_entry
from .errors import IllegalEntry, MalformedEntry, RefereeError
from .events import Event
from .ruleset import Ruleset
from .rules import Outcome, resolve
from .state import GameState

RECORD_FORMAT = "referee-game-record"
RECORD_VERSION = 1
SEATING_MODES = ("roll", "fixed")
HEADER_FIELDS = ("format", "version", "ruleset", "options", "players", "seating", "meta")
MAX_PLAYERS = 8
SNAPSHOT_EVERY = 256


class RecordError(RefereeError):
    """A line of a record that cannot be read or replayed.  ``line`` counts from 1, the header included."""

    code = "record"

    def __init__(self, line: int, message: str, *, code: str | None = None, clause: str = "",
                 entry: dict | None = None) -> None:
        super().__init__(message, code=code, clause=clause)
        self.line = line
        self.entry = entry

    def __str__(self) -> str:
        text = f"line {self.line}: {self.message}"
        if self.entry is not None:
            text = f"line {self.line}: {json.dumps(self.entry, ensure_ascii=False)}: {self.message}"
        if self.clause:
            text += f" [{self.code}] (rule: {self.clause})"
        return text


@dataclass(frozen=True, slots=True)
class Header:
    ruleset: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    seating: str = "roll"
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "ruleset": self.ruleset,
                               "options": self.options, "players": list(self.players), "seating": self.seating}
        if self.meta:
            out["meta"] = self.meta
        return out


def parse_header(data: Any, line: int = 1) -> Header:
    def bad(message: str) -> RecordError:
        return RecordError(line, f"header: {message}", code="bad_header")

    if not isinstance(data, dict):
        raise bad(f"expected a JSON object, got {data!r}")
    extra = sorted(set(data) - set(HEADER_FIELDS))
    if extra:
        raise bad(f"unknown field(s) {', '.join(extra)}")
    if data.get("format") != RECORD_FORMAT:
        raise bad(f"format must be {RECORD_FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != RECORD_VERSION:
        raise bad(f"version {data.get('version')!r} is not supported (this program reads version {RECORD_VERSION})")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or not ruleset:
        raise bad(f"ruleset must be a ruleset id, got {ruleset!r}")
    players = data.get("players")
    if (not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS
            or not all(isinstance(p, str) and p.strip() for p in players)):
        raise bad(f"players must be 2 to {MAX_PLAYERS} names, got {players!r}")
    if len(set(players)) != len(players):
        raise bad(f"player names must differ, got {players!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise bad(f"options must be an object, got {options!r}")
    seating = data.get("seating", "roll")
    if seating not in SEATING_MODES:
        raise bad(f"seating must be one of {', '.join(SEATING_MODES)}, got {seating!r}")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise bad(f"meta must be an object, got {meta!r}")
    return Header(ruleset, tuple(players), options, seating, meta)


def parse_record(lines: Iterable[str]) -> tuple[Header, list[tuple[int, Entry, dict]]]:
    """The header and every entry (with its line number and raw object) of a record's text."""
    header: Header | None = None
    entries: list[tuple[int, Entry, dict]] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not JSON: {exc.msg} at column {exc.colno}", code="not_json") from None
        if header is None:
            header = parse_header(data, number)
            continue
        try:
            entry = parse_entry(data)
        except MalformedEntry as exc:
            raise RecordError(number, exc.message, code=exc.code, entry=data if isinstance(data, dict) else None) \
                from None
        seq = data.get("seq")
        if seq is not None and seq != len(entries) + 1:
            raise RecordError(number, f"seq {seq!r} out of order: expected {len(entries) + 1}", code="bad_seq",
                              entry=data)
        entries.append((number, entry, data))
    if header is None:
        raise RecordError(1, "empty record: no header line", code="bad_header")
    return header, entries


class Game:
    """A record's entries and the state they fold to.

    ``record(entry)`` checks an entry against the current state and appends
    it, or raises and changes nothing.  ``void`` entries take back the latest
    effective entries; the state is then folded again from the nearest
    snapshot.
    """

    def __init__(self, ruleset: Ruleset, header: Header) -> None:
        self.ruleset = ruleset
        self.header = header
        self.initial = GameState.new(ruleset, list(header.players), header.seating)
        self.entries: list[Entry] = []
        self.effective: list[int] = []  # indices into entries, voided ones removed
        self.state = self.initial
        self._snapshots: dict[int, GameState] = {0: self.initial}  # effective length -> state

    def record(self, entry: Entry) -> Outcome:
        if entry.type == "void":
            return self._void(entry)
        outcome = resolve(self.state, entry)
        self.entries.append(entry)
        self.effective.append(len(self.entries) - 1)
        self.state = outcome.state
        if len(self.effective) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self.effective)] = self.state
        return outcome

    def _void(self, entry: Entry) -> Outcome:
        count = entry.count
        if count > len(self.effective):
            raise IllegalEntry(f"void: only {len(self.effective)} entries can be taken back, not {count}",
                               code="void_too_many", clause=self.ruleset.cite("correction"), rule="correction")
        keep = len(self.effective) - count
        self.entries.append(entry)
        del self.effective[keep:]
        for length in [k for k in self._snapshots if k > keep]:
            del self._snapshots[length]
        base = max(self._snapshots)
        state = self._snapshots[base]
        for index in self.effective[base:keep]:
            state = resolve(state, self.entries[index]).state
        self.state = state
        return Outcome((), state)

    def state_after(self, recorded: int) -> GameState:
        """The state as it was after the first ``recorded`` entries (voids included) were recorded."""
        game = Game(self.ruleset, self.header)
        for entry in self.entries[:recorded]:
            game.record(entry)
        return game.state

    def effective_entries(self) -> list[Entry]:
        return [self.entries[i] for i in self.effective]

    def to_lines(self) -> list[str]:
        lines = [json.dumps(self.header.to_dict(), ensure_ascii=False)]
        for seq, entry in enumerate(self.entries, start=1):
            lines.append(json.dumps({"seq": seq, **entry.to_dict()}, ensure_ascii=False))
        return lines


def replay(ruleset: Ruleset, header: Header, entries: list[tuple[int, Entry, dict]],
           on_events: Callable[[tuple[Event, ...]], None] | None = None) -> Game:
    """Fold a parsed record; :class:`RecordError` naming the line at the first illegal entry."""
    game = Game(ruleset, header)
    for line, entry, raw in entries:
        try:
            outcome = game.record(entry)
        except IllegalEntry as exc:
            raise RecordError(line, exc.message, code=exc.code, clause=exc.clause, entry=raw) from None
        if on_events is not None:
            on_events(outcome.events)
    return game
