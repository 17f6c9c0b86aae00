"""The game record: the source of truth for a game, and the fold that replays it.

A record is JSON Lines: one header object, then one object per referee
entry (see ``docs/game-record.md``); the header may give a set-up
``position`` to start from instead of a new game (:func:`initial_state`).
:class:`Game` holds a record's entries and the state they fold to.  A
correction is itself an entry (``void``): it takes back the latest entries
without deleting anything.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from .entries import MAX_NAME, Entry, parse_entry, text_problem
from .errors import IllegalEntry, MalformedEntry, RefereeError, illegal
from .events import Event
from .history import History
from .numbers import NotWhole, square_ref, whole_number
from .ruleset import Ruleset
from .phrases import SHOWN, Money, clip
from .rules import Outcome, resolve
from .step import Observer
from .state import AwaitRoll, GameState

RECORD_FORMAT = "referee-game-record"
RECORD_VERSION = 1
SEATING_MODES = ("roll", "fixed")
HEADER_FIELDS = ("format", "version", "ruleset", "options", "players", "seating", "position", "meta")
MAX_PLAYERS = 8
# a set-up position (header field "position"): the table as found, waiting for the current player's roll
POSITION_FIELDS = ("current", "players", "deeds", "bank")
POSITION_PLAYER_FIELDS = ("cash", "square", "in_jail", "jail_rolls", "jail_cards")
POSITION_DEED_FIELDS = ("owner", "mortgaged", "buildings")
POSITION_BANK_FIELDS = ("houses", "hotels")
MAX_AMOUNT = 10**9  # the largest cash (or count) a position may give
# what any line of a record may hold, so that a hostile file is refused with a line's number instead of filling
# memory, the stack or a database column: a line's length, how deeply its JSON nests (a set-up position, the
# deepest thing a record holds, nests 4 levels), any text in it; a game's title as its list shows it
MAX_LINE = 256 * 1024
MAX_DEPTH = 8
MAX_TEXT = 1000
MAX_TITLE = 200  # a record's meta.title may be longer (a conformance record's says what it pins): cut for the list
MAX_RECORD_BYTES = 64 * 1024 * 1024  # a whole record file (100,000 entries take about 8 MB)
SNAPSHOT_EVERY = 256


class RecordError(RefereeError):
    """A line of a record that cannot be read or replayed.  ``line`` counts from 1, the header included."""

    code = "record"

    def __init__(self, line: int, message: str, *, code: str | None = None, clause: str = "",
                 entry: dict[str, Any] | None = None, refusal: RefereeError | None = None) -> None:
        super().__init__(message, code=code, clause=clause)
        self.line = line
        self.entry = entry
        if refusal is not None:  # the refused entry's own words and clause, to be said in another language (detail)
            self.pattern, self.params, self.state = refusal.pattern, refusal.params, refusal.state
            self.rule = refusal.rule

    def __str__(self) -> str:
        return self.where(self.message)

    def where(self, detail: str) -> str:
        """``detail`` (the message, or it in another language) after the line and the entry it is about."""
        text = f"line {self.line}: {detail}"
        if self.entry is not None:
            text = f"line {self.line}: {json.dumps(self.entry, ensure_ascii=False)}: {detail}"
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
    position: dict[str, Any] | None = None  # the set-up position the game starts from (seating "fixed" only)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "ruleset": self.ruleset,
                               "options": self.options, "players": list(self.players), "seating": self.seating}
        if self.position is not None:
            out["position"] = copy.deepcopy(self.position)
        if self.meta:
            out["meta"] = self.meta
        return out


def bad_header(line: int, message: str) -> RecordError:
    """A header that cannot be read: the message names the field and (cut if very long) the value."""
    return RecordError(line, f"header: {clip(message, 4 * SHOWN)}", code="bad_header")


def new_header(ruleset_id: str, players: Sequence[str], seating: str, title: str = "",
               options: Mapping[str, Any] | None = None) -> Header:
    """A new game's header (its ruleset, its options beside the file's, its players in seat order, how the order of
    play is found, its title), checked as a record's header is read: :class:`RecordError` (line 1) naming what is
    wrong."""
    return parse_header({"format": RECORD_FORMAT, "version": RECORD_VERSION, "ruleset": ruleset_id,
                         "options": dict(options or {}), "players": list(players), "seating": seating,
                         "meta": {"title": title} if title else {}})


def parse_header(data: Any, line: int = 1) -> Header:
    def bad(message: str) -> RecordError:
        return bad_header(line, message)

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
    for name in players:
        problem = text_problem(f"player name {clip(repr(name), 40)}", name, MAX_NAME)
        if problem:
            raise bad(problem.message)
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

    position = None
    if "position" in data:
        if seating != "fixed":
            raise bad(f'position needs "seating": "fixed" (the order of play is the order of the players), '
                      f"got seating {seating!r}")
        position = copy.deepcopy(data["position"])
        _check_position_form(position, players, bad)
    return Header(ruleset, tuple(players), options, seating, meta, position)


def _fields(where: str, value: Any, allowed: tuple[str, ...], bad: Callable[[str], RecordError]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad(f"{where} must be an object, got {value!r}")
    extra = sorted(set(value) - set(allowed))
    if extra:
        raise bad(f"{where}: unknown field(s) {', '.join(map(str, extra))} (known: {', '.join(allowed)})")
    return value


def _whole(where: str, value: Any, low: int, high: int, bad: Callable[[str], RecordError]) -> int:
    try:
        return whole_number(where, value, low, high, text=False)
    except NotWhole as exc:
        raise bad(f"{where} must be a whole number from {low:,} to {high:,}, got {exc.given!r}") from None


def _flag(where: str, value: Any, bad: Callable[[str], RecordError]) -> bool:
    if not isinstance(value, bool):
        raise bad(f"{where} must be true or false, got {value!r}")
    return value


def _player_name(where: str, value: Any, players: list[str], bad: Callable[[str], RecordError]) -> str:
    if not isinstance(value, str) or value not in players:
        raise bad(f"{where}: {value!r} is not a player of this record (players: {', '.join(players)})")
    return value


def _check_position_form(position: Any, players: list[str], bad: Callable[[str], RecordError]) -> None:
    """What can be checked of a set-up position without the ruleset: fields, kinds, player names."""
    _fields("position", position, POSITION_FIELDS, bad)
    if "current" in position:
        _player_name("position.current", position["current"], players, bad)
    held: dict[str, str] = {}
    entries = position.get("players", {})
    if not isinstance(entries, dict):
        raise bad(f"position.players must be an object of players, got {entries!r}")
    for name, p in entries.items():
        _player_name("position.players", name, players, bad)
        where = f"position.players.{name}"
        _fields(where, p, POSITION_PLAYER_FIELDS, bad)
        if "cash" in p:
            _whole(f"{where}.cash", p["cash"], 0, MAX_AMOUNT, bad)
        if "square" in p and (isinstance(p["square"], bool) or not isinstance(p["square"], (int, str))):
            raise bad(f"{where}.square must be a square id or an index from GO, got {p['square']!r}")
        if "in_jail" in p:
            _flag(f"{where}.in_jail", p["in_jail"], bad)
        if "jail_rolls" in p:
            _whole(f"{where}.jail_rolls", p["jail_rolls"], 0, MAX_AMOUNT, bad)
        cards = p.get("jail_cards", [])
        if not isinstance(cards, list) or not all(isinstance(c, str) and c for c in cards):
            raise bad(f"{where}.jail_cards must be a list of card ids, got {cards!r}")
        for card in cards:
            if card in held:
                raise bad(f"{where}.jail_cards: {card!r} is already held by {held[card]}: a card is held by one "
                          "player at most")
            held[card] = name
    deeds = position.get("deeds", {})
    if not isinstance(deeds, dict):
        raise bad(f"position.deeds must be an object mapping squares to deeds, got {deeds!r}")
    for ref, d in deeds.items():
        where = f"position.deeds.{ref}"
        _fields(where, d, POSITION_DEED_FIELDS, bad)
        if "owner" not in d:
            raise bad(f"{where}: owner is missing (a deed the bank holds is left out of the position)")
        _player_name(f"{where}.owner", d["owner"], players, bad)
        if "mortgaged" in d:
            _flag(f"{where}.mortgaged", d["mortgaged"], bad)
        level = d.get("buildings", 0)
        if level != "hotel" and (not isinstance(level, int) or isinstance(level, bool) or level < 0):
            raise bad(f'{where}.buildings must be a number of houses or "hotel", got {level!r}')
    for key, value in _fields("position.bank", position.get("bank", {}), POSITION_BANK_FIELDS, bad).items():
        _whole(f"position.bank.{key}", value, 0, MAX_AMOUNT, bad)


def stake_refusal(ruleset: Ruleset, players: Sequence[str]) -> IllegalEntry | None:
    """German variant, 2: Es gibt eine Bank, die mit 200000 M Vermögen startet. Bei Spielbeginn zahlt die Bank
    an jeden Spieler 30000 M Startkapital aus.  A finite bank (option ``bank_money``) must pay every player's start
    money in full: a table it cannot stake is refused (why, beside the option in rulesets/german-simple.toml)."""
    bank, each = ruleset.options.bank_money, ruleset.money.start_cash
    if not bank or each * len(players) <= bank:
        return None
    state = GameState.new(ruleset, list(players), "fixed")  # (the amounts are said in the ruleset's money)
    return illegal(state, "bank_cannot_stake", "{count} players need {need} of start money, {each} each; the bank's "
                   "{bank} pays at most {most} players in full", "bank_money", count=len(players),
                   need=Money(each * len(players)), each=Money(each), bank=Money(bank), most=bank // each)


def initial_state(ruleset: Ruleset, header: Header) -> GameState:
    """The state a record starts from: a new game, or the header's set-up position (the table as the referee
    found it, between turns, waiting for the current player's roll).  :class:`RecordError` (line 1, code
    ``bad_header``) naming the field and the value of a position the ruleset does not allow, or a table the bank
    cannot stake (:func:`stake_refusal`)."""
    stake = stake_refusal(ruleset, header.players)
    if stake is not None:
        raise RecordError(1, f"header: players: {stake.message}", code="bad_header", clause=stake.clause,
                          refusal=stake)
    state = GameState.new(ruleset, list(header.players), header.seating)
    position = header.position
    if position is None:
        return state

    def bad(message: str) -> RecordError:
        return bad_header(1, message)

    def square(where: str, ref: Any) -> int:
        if isinstance(ref, str):
            ref = square_ref(ref)
        try:
            return ruleset.square(ref).index
        except KeyError:
            raise bad(f"{where}: no square {ref!r} on this board (an id such as \"boardwalk\", or 0-"
                      f"{len(ruleset.squares) - 1})") from None

    jail, max_rolls = ruleset.jail_index, ruleset.options.jail_max_rolls
    for name, p in position.get("players", {}).items():
        where = f"position.players.{name}"
        player = state.players[state.player_index(name)]
        player.cash = p.get("cash", player.cash)
        player.in_jail = p.get("in_jail", False)
        player.position = square(f"{where}.square", p["square"]) if "square" in p else (jail if player.in_jail
                                                                                          else 0)
        if player.in_jail and player.position != jail:
            raise bad(f"{where}: in_jail needs the jail square ({ruleset.squares[jail].id!r}), got square "
                      f"{p['square']!r}")
        if "jail_rolls" in p:
            if not player.in_jail:
                raise bad(f"{where}.jail_rolls: {p['jail_rolls']!r}: failed jail rolls are counted only for a "
                          "player in jail (in_jail: true)")
            if p["jail_rolls"] >= max_rolls:
                raise bad(f"{where}.jail_rolls must be from 0 to {max_rolls - 1} (the roll after the last failed "
                          f"one leaves jail), got {p['jail_rolls']!r}")
            player.jail_rolls = p["jail_rolls"]
        for card in p.get("jail_cards", []):
            found = ruleset.cards.get(card)
            if found is None or found.effect.kind != "get_out_of_jail":
                raise bad(f"{where}.jail_cards: {card!r} is not a get-out-of-jail card of this ruleset's decks")
            player.jail_cards.append(card)
    deeds: dict[int, Any] = {}  # square -> the reference the position gave it by
    for ref, d in position.get("deeds", {}).items():
        where = f"position.deeds.{ref}"
        i = square("position.deeds", ref)
        sq = ruleset.squares[i]
        named = repr(ref) if ref == sq.id else f"{ref!r} ({sq.id})"
        if not sq.is_property:
            raise bad(f"position.deeds: {named} is not a deed (a street, railroad or utility)")
        if i in deeds:
            raise bad(f"position.deeds: {sq.id} is given twice (as {deeds[i]!r} and {ref!r})")
        deeds[i] = ref
        state.set_owner(i, state.player_index(d["owner"]))
        state.set_mortgaged(i, d.get("mortgaged", False))
        level = d.get("buildings", 0)
        if level and sq.kind != "street":
            raise bad(f"{where}.buildings: {level!r}: {sq.id} is not a street and holds no buildings")
        if level != "hotel" and level > ruleset.options.houses_per_hotel:
            raise bad(f'{where}.buildings must be 0 to {ruleset.options.houses_per_hotel} houses or "hotel", '
                      f"got {level!r}")
        state.set_level(i, state.hotel_level if level == "hotel" else level)
    for gid, group in ruleset.groups.items():
        levels = [state.buildings[i] for i in group.squares]
        if not any(levels) or ruleset.options.landing_on_own != "nothing":  # 004: a house on any street of one's own
            continue
        names = ", ".join(f"{ruleset.squares[i].id} {'hotel' if state.hotels_on(i) else state.buildings[i]}"
                          for i in group.squares)
        owners = {state.owner[i] for i in group.squares}
        if len(owners) != 1 or None in owners:
            raise bad(f"position.deeds: buildings on the {gid} group ({names}) need one owner of every lot of "
                      "the group")
        mortgaged = [ruleset.squares[i].id for i in group.squares if state.mortgaged[i]]
        if mortgaged:
            raise bad(f"position.deeds: buildings on the {gid} group ({names}) with {', '.join(mortgaged)} "
                      "mortgaged: no lot of a group with buildings is mortgaged")
        if max(levels) - min(levels) > 1:
            raise bad(f"position.deeds: {names}: the lots of a group differ by at most one building (even rule)")
    houses, hotels = state.houses_built, state.hotels_built
    if houses > ruleset.houses or hotels > ruleset.hotels:
        raise bad(f"position.deeds: {houses} houses and {hotels} hotels on the board; the supply is "
                  f"{ruleset.houses} and {ruleset.hotels}")
    state.bank_houses, state.bank_hotels = ruleset.houses - houses, ruleset.hotels - hotels
    bank = position.get("bank", {})
    for key, left in (("houses", state.bank_houses), ("hotels", state.bank_hotels)):
        if key in bank and bank[key] != left:
            raise bad(f"position.bank.{key}: {bank[key]!r}, but the supply less the board leaves {left}")
    state.current = state.player_index(position.get("current", header.players[0]))
    state.turn = 1
    state.pending = AwaitRoll(state.current)
    return state


def plain_json_problem(data: Any) -> str | None:
    """What makes a decoded line more than a record line may hold (:data:`MAX_DEPTH`, :data:`MAX_TEXT`, a
    character no page or database can take), or None."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"JSON nested more than {MAX_DEPTH} levels deep (a header or an entry is a flat object)"
        if isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str):
            problem = text_problem(f"the text {clip(repr(value), 40)}", value, MAX_TEXT)
            if problem:
                return problem.message
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**18:
            return f"the number {clip(str(value), 40)} is larger than any record holds"
    return None


SIDE_LINES = ("ruling", "signoff", "chain")  # a record file's lines beyond the header and entries, by their one key


def side_line(text: str) -> tuple[str, object] | None:
    """A record file's line that is no header and no entry (``{"ruling": ...}``, ``{"signoff": ...}``, ``{"chain":
    ...}``: the game's rulings, the players' sign-offs, the hash a tablet's entries chain to): its key and the object
    under it; None for any other line (which the record's reading judges)."""
    if not text.lstrip().startswith(tuple(f'{{"{key}"' for key in SIDE_LINES)):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and len(data) == 1 and next(iter(data)) in SIDE_LINES:
        key = next(iter(data))
        return key, data[key]
    return None


def parse_record(lines: Iterable[str]) -> tuple[Header, list[tuple[int, Entry, dict[str, Any]]]]:
    """The header and every entry (with its line number and raw object) of a record's text."""
    header: Header | None = None
    entries: list[tuple[int, Entry, dict[str, Any]]] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        if len(text) > MAX_LINE:
            raise RecordError(number, f"a line of {len(text):,} characters: a record's lines hold at most "
                                      f"{MAX_LINE:,}", code="too_large")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not JSON: {exc.msg} at column {exc.colno}", code="not_json") from None
        except RecursionError:
            raise RecordError(number, f"not a record line: JSON nested more than {MAX_DEPTH} levels deep (a header "
                                      "or an entry is a flat object)", code="not_json") from None
        except ValueError:  # a number of thousands of digits
            raise RecordError(number, "not a record line: a number of thousands of digits (no record holds one)",
                              code="not_json") from None
        problem = plain_json_problem(data)
        if problem:
            raise RecordError(number, f"not a record line: {problem}", code="not_json")
        if header is None:
            header = parse_header(data, number)
            continue
        try:
            entry = parse_entry(data)
        except MalformedEntry as exc:
            raise RecordError(number, exc.message, code=exc.code, entry=data if isinstance(data, dict) else None,
                              refusal=exc) from None
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

    Each entry makes a new state and leaves the one before as it was, so that
    what was true before an entry can still be read (the log's facts, a
    ruling).  A fold that reads no state but the latest (a replay, the
    simulator) sets ``in_place``: each entry then changes ``state`` itself,
    without the copy (a third of the time of a plain entry); an entry refused
    after it began to change the state is undone by folding again from the
    nearest snapshot.
    """

    def __init__(self, ruleset: Ruleset, header: Header, in_place: bool = False, history: bool = False) -> None:
        self.ruleset = ruleset
        self.header = header
        self.initial = initial_state(ruleset, header)
        self.entries: list[Entry] = []
        self.effective: list[int] = []  # indices into entries, voided ones removed
        self.voided: dict[int, tuple[int, ...]] = {}  # a void's index -> the indices of the entries it took back
        self.in_place = in_place
        self.state = self.initial.copy() if in_place else self.initial
        self._snapshots: dict[int, GameState] = {0: self.initial}  # effective length -> state
        # each entry's events and what the log, the rulings and the chart read of them (a fold that keeps the
        # states it passes through: not in place)
        self.history: History | None = History() if history else None
        assert not (history and in_place), "a history keeps the state before each entry: not in place"

    def record(self, entry: Entry, observe: Observer | None = None) -> Outcome:
        """Check ``entry`` and append it, or raise and change nothing; ``observe`` as in :func:`.rules.resolve`
        (a void's refold shows it nothing)."""
        before = self.state
        if entry.type == "void":
            outcome = self._void(entry)
            if self.history is not None:
                self.history.add(before, entry, outcome, before is self.initial)
            return outcome
        if self.in_place:
            try:
                outcome = resolve(self.state, entry, observe, in_place=True)
            except RefereeError:
                self.state = self._fold(len(self.effective)).copy()  # as it was before the entry
                raise
        else:
            outcome = resolve(self.state, entry, observe)
        entries, effective = self.entries, self.effective
        effective.append(len(entries))
        entries.append(entry)
        self.state = outcome.state
        if len(effective) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(effective)] = self.state.copy() if self.in_place else self.state
        if self.history is not None:
            self.history.add(before, entry, outcome, before is self.initial)
        return outcome

    def _fold(self, length: int) -> GameState:
        """The state after the first ``length`` effective entries, folded from the nearest snapshot (a new state,
        or the snapshot itself)."""
        base = max(k for k in self._snapshots if k <= length)
        state = self._snapshots[base]
        for index in self.effective[base:length]:
            state = resolve(state, self.entries[index]).state
        return state

    def _void(self, entry: Entry) -> Outcome:
        count = entry.count
        assert count is not None  # a field every void has (ENTRY_FIELDS)
        if count > len(self.effective):
            raise illegal(self.state, "void_too_many", "only {n} entries can be taken back, not {count}", "correction",
                          n=len(self.effective), count=count)
        keep = len(self.effective) - count
        self.entries.append(entry)
        self.voided[len(self.entries) - 1] = tuple(self.effective[keep:])
        del self.effective[keep:]
        for length in [k for k in self._snapshots if k > keep]:
            del self._snapshots[length]
        state = self._fold(keep)
        self.state = state.copy() if self.in_place else state  # a snapshot is never changed in place
        return Outcome((), self.state)

    def copy(self) -> Game:
        """The same record as a game of its own, on which the next entries can be recorded while this one stays
        exactly as it is (read meanwhile by others, or kept should the next entries not be stored): its lists are
        its own; its entries and states are shared, as neither is ever changed (a fold ``in_place`` copies its
        state, which is)."""
        other = Game.__new__(Game)
        other.ruleset, other.header, other.initial, other.in_place = self.ruleset, self.header, self.initial, self.in_place
        other.entries, other.effective, other.voided = list(self.entries), list(self.effective), dict(self.voided)
        other.state = self.state.copy() if self.in_place else self.state
        other._snapshots = dict(self._snapshots)
        other.history = self.history.copy() if self.history is not None else None
        return other

    def redoable(self) -> list[Entry]:
        """The entries the latest entry took back, when it is a void: what a redo records again."""
        taken = self.voided.get(len(self.entries) - 1, ())
        return [self.entries[i] for i in taken]

    def state_after(self, recorded: int) -> GameState:
        """The state as it was after the first ``recorded`` entries (voids included) were recorded."""
        game = Game(self.ruleset, self.header, in_place=True)
        for entry in self.entries[:recorded]:
            game.record(entry)
        return game.state

    def with_history(self) -> Game:
        """This game if it keeps its history, else the same record folded again keeping it (for a caller that
        asked a replay for none and reads the log or the chart after all)."""
        if self.history is not None:
            return self
        game = Game(self.ruleset, self.header, history=True)
        for entry in self.entries:
            game.record(entry)
        return game

    def void_back_to(self, recorded: int) -> int | None:
        """How many of the latest effective entries a void takes back to bring the table to what it was after the
        first ``recorded`` entries (0: it is that already); None when the entries since took back some of those
        (a void reaching behind them): no void of the latest entries brings it back then."""
        then: list[int] = []
        for index, entry in enumerate(self.entries[:recorded]):
            if entry.type == "void":
                del then[len(then) - (entry.count or 0):]
            else:
                then.append(index)
        if self.effective[:len(then)] != then:
            return None
        return len(self.effective) - len(then)

    def effective_entries(self) -> list[Entry]:
        return [self.entries[i] for i in self.effective]

    def to_lines(self) -> list[str]:
        lines = [json.dumps(self.header.to_dict(), ensure_ascii=False)]
        for seq, entry in enumerate(self.entries, start=1):
            lines.append(json.dumps({"seq": seq, **entry.to_dict()}, ensure_ascii=False))
        return lines


def replay(ruleset: Ruleset, header: Header, entries: list[tuple[int, Entry, dict[str, Any]]],
           on_events: Callable[[tuple[Event, ...]], None] | None = None, history: bool = False) -> Game:
    """Fold a parsed record; :class:`RecordError` naming the line at the first illegal entry.  The fold runs in
    place (unless it keeps the ``history`` of each entry); the game returned makes a new state for each entry
    recorded on it from then on."""
    game = Game(ruleset, header, in_place=not history, history=history)
    for line, entry, raw in entries:
        try:
            outcome = game.record(entry)
        except IllegalEntry as exc:
            raise RecordError(line, exc.message, code=exc.code, clause=exc.clause, entry=raw, refusal=exc) from None
        if on_events is not None:
            on_events(outcome.events)
    game.in_place = False
    return game
