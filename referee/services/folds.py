"""The engine's fold of each stored record: read from the database, its hash chain checked entry by entry, and
kept in a small cache per process (one writer at a time per game, by a lock of its own).

A kept fold is a value: nothing changes it once it is kept.  The entries recorded on a table are folded on a copy of
its game, and the fold they make is kept only after their commit (:func:`keep_recorded`), so every reader, in any
thread, gets a whole fold of entries the database holds; a reader that finds the database ahead of the kept fold
(another process recorded) carries a copy forward and keeps that."""
from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.engine import Engine

from ..engine import chain
from . import rulesets
from ..cache import FOLDS, kept_in, RECORD_ENDS, STATEMENTS
from ..store.db import db, read_once, read_plain
from ..engine import Entry, Game, RecordError, RefereeError, RulesetError, parse_entry, parse_header
from ..store.models import EntryRow, GameRow, RoundRow, TableRow, TournamentRow
from ..tournament.charts import net_worth_series
from ..tournament.results import final_result
from .errors import GameNotFound, RecordAltered

# folds kept per process: every game of a national final's tournament (64 tables, several rounds), whose director's
# page reads every table of every round each second (a fold is some 0.1-0.5 MB)


@dataclass(frozen=True)
class Altered:
    """Where a stored record stops being trustworthy: entry ``at`` (from 1) and why — "changed", "missing",
    "inserted" (the hash chain breaks there) or "unplayable" (the chain holds but the rules refuse the entry:
    ``detail`` says why)."""

    at: int
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class Fold:
    """A game's fold as the cache keeps it: the engine's game over the good entries, the chain hash they end on,
    the stored rows it was read from, and where the record was found altered (if it was).  Its game is never
    recorded on once it is in a fold: the next entries go on :meth:`Game.copy`."""

    game: Game
    head: str
    stored: int
    altered: Altered | None = None
    created: object = None  # when the game's row was made: a game of no entries is its header alone, and a game
    # made later under the same number (a deleted game's number reused) is another game


@dataclass(frozen=True)
class RecordEnd:
    """What a live page needs of a game's fold but its game: how far it holds the record and the hash it ends on,
    where the record was found altered, when the game's row was made, whether the game is over and who sits first
    (whose division is the table's).  Kept apart from the fold (:func:`ends_at`), by the point of the stored record it
    was read at, so that a page listing every finished table of every round needs none of their folds kept."""

    stored: int
    head: str
    altered: Altered | None
    created: object
    over: bool
    first: str

    @classmethod
    def from_fold(cls, fold: Fold) -> RecordEnd:
        state = fold.game.state
        return cls(fold.stored, fold.head, fold.altered, fold.created, state.over, state.players[0].name)


@dataclass(frozen=True)
class GameHead:
    """A game's row as its screens and its record's writer read it: values, read with its record's end in one
    statement straight through the database driver (:func:`rows_with_tails`).  An object of the ORM's session took
    two and a half times as long to read (182 us against 70, in one thread), and once a record's commit had let it
    go, 120 us more to read back for the screen the record leads to (benchmarks/NOTES.md).  What is written to the
    row is written through the session's own object of it (``db.session.get(GameRow, id)``; :func:`head_values`).
    Its record's header is read when asked for (:func:`stored_header`), and a finished game's kept result too
    (:func:`kept_result`), but where it was read with the row (``result_read``: ``rows_with_tails(...,
    results=True)``)."""

    id: int
    title: str
    pin_hash: str
    time_limit_minutes: int | None
    clock_elapsed_seconds: float
    clock_started_at: datetime | None
    created_at: datetime
    archived: bool
    result: dict | None = None
    result_read: bool = False


HEAD_COLUMNS = (GameRow.id, GameRow.title, GameRow.pin_hash, GameRow.time_limit_minutes, GameRow.clock_elapsed_seconds,
                GameRow.clock_started_at, GameRow.created_at, GameRow.archived)


@dataclass(frozen=True)
class LoadedGame:
    row: GameHead
    fold: Fold
    seat: tuple[str, int, int] | None = None  # (tournament, round, table) of a game a tournament seated

    @property
    def game(self) -> Game:
        return self.fold.game

    @property
    def altered(self) -> Altered | None:
        return self.fold.altered

    @property
    def seq(self) -> int:
        return len(self.game.entries)


_lock = threading.Lock()
# (database, game id) -> the lock of its writers, kept while a writer holds it or waits for it (then let go: as many
# locks as games being written at once, not as games ever written)
_game_locks: "weakref.WeakValueDictionary[tuple[str, int], threading.RLock]" = weakref.WeakValueDictionary()


_urls: "weakref.WeakKeyDictionary[Engine, str]" = weakref.WeakKeyDictionary()  # each engine's database, as the
# cache names it (its URL rendered once, not at every game of every poll)


def database_key() -> str:
    """The database the app is on, as the process's caches name it (its URL, rendered once per engine)."""
    engine = db.engine
    url = _urls.get(engine)
    if url is None:
        url = _urls.setdefault(engine, str(engine.url))
    return url


def _key(game_id: int) -> tuple[str, int]:
    return (database_key(), game_id)


def game_lock(game_id: int) -> threading.RLock:
    """One writer at a time per game in this process (other processes are kept apart by the (game, seq) key); a
    writer holding it may load the game (which may carry its kept fold forward)."""
    key = _key(game_id)
    with _lock:
        lock = _game_locks.get(key)
        if lock is None:
            lock = _game_locks[key] = threading.RLock()
        return lock


def keep_recorded(game_id: int, fold: Fold) -> None:
    """Keep the fold that entries just committed make (its writer holds :func:`game_lock`): from now on every
    reader of the game gets it."""
    FOLDS.keep(_key(game_id), fold)


def forget(game_id: int) -> None:
    FOLDS.forget(_key(game_id))


def load(game_id: int) -> LoadedGame:
    """The game row and the engine's fold of its entries.  A fold is read from the database, its hash chain
    checked entry by entry, and kept in a small cache; the cache is used while the stored rows' last number and
    hash are still the ones it was read at (an altered entry is noticed at the next full read: a restart, the
    cache's turn, ``referee verify``, an export; the live pages' kept ends follow it once it is found,
    :func:`ends_at`, :func:`alterations_found`).  Where the chain breaks, or an entry no longer replays, the game
    is the good entries before it and :attr:`LoadedGame.altered` says where."""
    found = load_many([game_id])
    if not found:
        raise GameNotFound.of("no game {game}", {"game": game_id})
    return found[0]


def load_many(game_ids: list[int]) -> list[LoadedGame]:
    """:func:`load` for several games in one query (a director's page of 16 tables), in the order given; games
    that do not exist are left out.  Each comes with its seat in a tournament (:attr:`LoadedGame.seat`).  The rows are
    read once per unit of work (the director's poll asks for every table's game twice); the entries other
    processes stored after the kept folds are read in one statement for all the games (:func:`_entries_after`)."""
    read = read_once("games")
    missing = [g for g in game_ids if g not in read]
    if missing:
        found = rows_with_tails(missing)
        read.update((g, found.get(g)) for g in missing)
    rows = {g: read[g] for g in game_ids if read[g] is not None}
    kept: dict[int, Fold] = {}
    for game_id, (row, stored, last, seat) in rows.items():
        fold = FOLDS.get(_key(game_id))
        if fold is not None and _holds(fold, stored, last, row.created_at):
            kept[game_id] = fold
            continue
        if fold is not None and fold.altered is None and fold.stored > stored:
            # the rows were read just before another thread of this process committed entries and moved the kept
            # fold on: read the rows' end again (one statement), rather than the whole record
            again = read[game_id] = rows[game_id] = rows_with_tails([game_id]).get(game_id)
            if again is not None and again[1] == fold.stored and again[2] == fold.head:
                kept[game_id] = fold
                continue
        if fold is not None and fold.altered is None and rows[game_id] is not None and fold.stored < rows[game_id][1]:
            kept[game_id] = fold  # carried forward below over the entries added, else read whole
    behind = {g: f.stored for g, f in kept.items() if f.stored < rows[g][1]}
    added = _entries_after(behind)
    out = []
    for game_id in game_ids:
        if rows.get(game_id) is None:
            continue
        row, stored, last, seat = rows[game_id]
        fold = kept.get(game_id)
        if fold is not None and game_id in behind:
            with game_lock(game_id):
                current = FOLDS.get(_key(game_id))
                if current is not None and current.altered is None and (
                        current.stored > stored or current.stored == stored and current.head == last):
                    fold = current  # another thread recorded, or carried it forward, meanwhile: committed entries
                else:
                    fold = _carried_forward(fold, stored, last, added.get(game_id, []))
                    if fold is not None:
                        FOLDS.keep(_key(game_id), fold)
        if fold is None:
            fold = FOLDS.keep(_key(game_id), read_fold(game_id, stored_header(game_id), row.created_at))
        out.append(LoadedGame(row, fold, seat))
    return out


def _holds(fold: Fold, stored: int, last: str | None, created: object) -> bool:
    """The kept ``fold`` is the game whose stored rows number ``stored`` and end on the hash ``last`` (a game of no
    entries: the row made at ``created``); an altered record's fold, by the rows it was read from."""
    return fold.stored == stored and (fold.altered is not None or fold.head == last
                                      or stored == 0 and fold.created == created)


class RecordPoint(Protocol):
    """A game's stored record as a statement read it: how many rows, the hash of the last, when the game's row was
    made (a game of no entries is its header alone, and a game made later under the same number is another)."""

    @property
    def stored(self) -> int: ...

    @property
    def last(self) -> str | None: ...

    @property
    def created(self) -> object: ...


def kept_at(game_id: int, point: RecordPoint, database: str | None = None) -> Fold | None:
    """The game's kept fold if it holds the stored record at ``point`` (as a statement read it: a live poll's), nothing
    read; None: the caller loads the game (:func:`load`).  ``database``: :func:`database_key`, when the caller asks
    for many games."""
    fold = FOLDS.get((database or database_key(), game_id))
    return fold if fold is not None and _holds(fold, point.stored, point.last, point.created) else None


def ends_at(points: Mapping[int, RecordPoint]) -> dict[int, tuple[RecordEnd, Fold | None]]:
    """Each game's end at the point of its stored record a statement read (``points``, by game), with its fold if
    that is kept there, nothing read; a game of which neither is kept at that point is left out (the caller loads
    it: :func:`load_many`).  Ends are kept by that point (:data:`RECORD_ENDS`, thousands of them, each a few values):
    at a national final's fifth round the director's page lists 640 tables, more than the folds kept, and a
    finished table's end, once read, is found here at every poll after, its fold let go."""
    database = database_key()  # (named once: it is looked up through the app at each call)
    found: dict[int, tuple[RecordEnd, Fold | None]] = {}
    for game_id, point in points.items():
        key = (database, game_id, point.stored, point.last, point.created)
        fold = kept_at(game_id, point, database)
        end = RECORD_ENDS.get(key)
        if fold is not None and (end is None or (end.stored, end.head, end.altered) != (fold.stored, fold.head,
                                                                                        fold.altered)):
            end = RECORD_ENDS.keep(key, RecordEnd.from_fold(fold))  # (a fold read whole again may have found an
            # alteration the one kept before had not)
        if end is not None:
            found[game_id] = (end, fold)
    return found


def _entries_after(behind: dict[int, int]) -> dict[int, list[tuple[int, str, str | None]]]:
    """The entries stored after each game's kept fold (``behind``: game -> the entries the fold holds), (number,
    text, hash) in order, in one statement however many games moved on (each game one step down the (game, seq)
    index): under several workers a director's poll finds most of a round's folds some entries behind."""
    found: dict[int, list[tuple[int, str, str | None]]] = {}
    items = sorted(behind.items())
    for start in range(0, len(items), _ENTRIES_AFTER_CHUNK):
        chunk = items[start:start + _ENTRIES_AFTER_CHUNK]
        statement = select(EntryRow.game_id, EntryRow.seq, EntryRow.data, EntryRow.hash).where(
            or_(*(and_(EntryRow.game_id == g, EntryRow.seq > n) for g, n in chunk))).order_by(EntryRow.game_id,
                                                                                               EntryRow.seq)
        for game_id, seq, data, hash_ in db.session.execute(statement):
            found.setdefault(game_id, []).append((seq, data, hash_))
    return found


_ENTRIES_AFTER_CHUNK = 100  # games asked for in one statement (each two bound values; SQLite allows 32,766)


def _carried_forward(fold: Fold, stored: int, last: str | None, rows: list[tuple[int, str, str | None]]) -> Fold | None:
    """The kept fold carried forward over the entries stored after it (``rows``: those read after it; another
    process recorded them: under several workers each keeps its own folds), as a new fold on a copy of its game,
    its chain checked from the fold's head on: the cost grows with the entries added, not with the record.  None
    when the rows do not follow from it (an entry changed or taken out, a game imported again): the caller reads
    the record whole, which says where."""
    if fold.stored >= stored:
        return None
    rows = [r for r in rows if r[0] > fold.stored]
    head, entries = fold.head, list[Entry]()
    for seq, data, hash_ in rows:
        if seq != fold.stored + len(entries) + 1 or hash_ != chain.link(head, seq, data):
            return None
        try:
            entries.append(parse_entry(json.loads(data)))
        except (RefereeError, ValueError, TypeError, RecursionError):
            return None
        head = hash_
    if fold.stored + len(entries) != stored or head != last:
        return None
    game = fold.game.copy()
    for entry in entries:
        try:
            game.record(entry)  # raises before changing anything
        except (RefereeError, ValueError, TypeError, RecursionError):
            return None
    return Fold(game, head, stored, None, fold.created)


def last_entry(column):
    """``column`` of the last stored entry of the game of the query's row (``GameRow``): a correlated subquery
    that takes one step down the (game, seq) index, however long the record is."""
    return (select(column).where(EntryRow.game_id == GameRow.id).order_by(EntryRow.seq.desc()).limit(1)
            .correlate(GameRow).scalar_subquery())


@kept_in(STATEMENTS)
def _rows_statement(one: bool = False, results: bool = False):
    """The games asked for (``ids``; ``one``: the game ``id``), each row's columns (:class:`GameHead`; ``results``:
    and its kept result) with its last stored entry's number and hash and the seat a tournament gave it: one
    statement, built once.  The last entry is found through the (game, seq) index, one step per game however long
    the record is."""
    columns = (*HEAD_COLUMNS, GameRow.result) if results else HEAD_COLUMNS
    return (select(*columns, last_entry(EntryRow.seq), last_entry(EntryRow.hash), TournamentRow.name, RoundRow.number,
                   TableRow.number)
            .outerjoin(TableRow, TableRow.game_id == GameRow.id)
            .outerjoin(RoundRow, RoundRow.id == TableRow.round_id)
            .outerjoin(TournamentRow, TournamentRow.id == RoundRow.tournament_id)
            .where(GameRow.id == bindparam("id") if one else GameRow.id.in_(bindparam("ids", expanding=True))))


def rows_with_tails(game_ids: list[int], results: bool = False
                     ) -> dict[int, tuple[GameHead, int, str | None, tuple[str, int, int] | None]]:
    """Each game's row (:class:`GameHead`) with its last stored entry's number (the count of a record as written; 0
    for none), that entry's hash and the game's seat in a tournament (None for a game of its own), in one query;
    ``results``: with each finished game's kept result read in the same query (it is read when asked for otherwise,
    one query a game).  One game's (a table's record, its screen) is read straight through the driver."""
    if not game_ids:
        return {}
    one = len(game_ids) == 1
    found = read_plain(_rows_statement(one, results), {"id": game_ids[0]} if one else {"ids": list(game_ids)})
    out = {}
    for values in found:
        head = GameHead(*values[:len(HEAD_COLUMNS)])
        if results:
            head = replace(head, result=values[len(HEAD_COLUMNS)], result_read=True)
        seq, hash_, tournament, round_, table = values[len(HEAD_COLUMNS) + results:]
        out[head.id] = (head, seq or 0, hash_, None if table is None else (tournament, round_, table))
    return out


def head_values(row: GameRow) -> GameHead:
    """The values of the session's object of a game's row, as its changes not yet committed leave them."""
    return GameHead(*(getattr(row, column.key) for column in HEAD_COLUMNS))


@kept_in(STATEMENTS)
def _column_statement(name: str):
    """The column ``name`` of the game ``id``'s row: one statement, built once."""
    return select(getattr(GameRow, name)).where(GameRow.id == bindparam("id"))


def stored_header(game_id: int) -> dict:
    """The game's record header as it is stored (its chain's first link is made from it)."""
    return _stored("header", game_id)


def _stored(column: str, game_id: int):
    """The column ``column`` of the game's row as it is stored (:class:`GameNotFound`: the game was deleted)."""
    found = read_plain(_column_statement(column), {"id": game_id})
    if not found:
        raise GameNotFound.of("no game {game}", {"game": game_id})
    return found[0][0]


def result_of(game: Game, head: str) -> dict:
    """A finished game's result as it is kept (:attr:`GameRow.result`): its ranking and net worth over the game,
    with the chain hash of the record it was computed from."""
    names, points = net_worth_series(game)
    return {"head": head, "names": names, "points": points, **final_result(game.state)}


def kept_result(loaded: LoadedGame) -> dict | None:
    """The finished game's kept result, if it was computed from exactly the record the fold holds."""
    if loaded.altered is not None or not loaded.game.state.over:
        return None  # (nothing read: a game in play keeps none)
    kept = loaded.row.result if loaded.row.result_read else _stored("result", loaded.row.id)
    return kept if kept and kept.get("head") == loaded.fold.head else None


def verify_all() -> tuple[int, list[tuple[GameRow, Altered]]]:
    """Every game read afresh from the database, its hash chain checked and its entries replayed: how many
    games there are, and each one whose record is altered (a header that no longer reads counts as entry 0)."""
    broken = []
    rows = list(db.session.scalars(select(GameRow).order_by(GameRow.id)))
    for row in rows:
        try:
            fold = read_fold(row.id, row.header, row.created_at)
        except RecordAltered as exc:
            broken.append((row, Altered(0, "header", exc.message)))
            continue
        if fold.altered is not None:
            broken.append((row, fold.altered))
    return len(rows), broken


def read_fold(game_id: int, stored: dict, created: datetime) -> Fold:
    """A game folded from its stored rows, the chain checked from its stored header (``stored``; ``RecordAltered``
    if it is not a header any more); ``created``: when its row was made."""
    try:
        header = parse_header(stored)
        ruleset = rulesets.for_header(header)
    except (RecordError, RulesetError) as exc:
        raise RecordAltered.of("the record's header cannot be read: {reason}", {"reason": str(exc)}) from None
    rows = db.session.execute(select(EntryRow.seq, EntryRow.data, EntryRow.hash)
                              .where(EntryRow.game_id == game_id).order_by(EntryRow.seq)).all()
    good, head, broken = chain.verify(stored, rows)
    game = Game(ruleset, header, history=True)  # each entry's events and projections, read by the screens
    altered = Altered(broken.at, broken.reason) if broken else None
    heads = [chain.genesis(stored)] + [r.hash for r in rows[:len(good)]]
    for n, data in enumerate(good, start=1):
        try:
            game.record(parse_entry(json.loads(data)))
        except (RefereeError, ValueError, TypeError, RecursionError) as exc:
            detail = exc.message if isinstance(exc, RefereeError) else str(exc)
            altered, head = Altered(n, "unplayable", detail), heads[n - 1]
            break
    if altered is not None:
        _found_altered()
    return Fold(game, head, rows[-1].seq if rows else 0, altered, created)


_altered_found = 0  # how many times this process has read a record whole and found it altered


def _found_altered() -> None:
    global _altered_found
    with _lock:
        _altered_found += 1


def alterations_found() -> int:
    """How many times this process has read a game's record whole and found it altered: a value kept by the points
    of many games' records (a finished round's, :mod:`referee.services.tournaments`) is kept under this count too,
    so that an alteration found at a point already read (the chain broken in the middle, the last entry as it was)
    is shown at the next poll, as a single game's end shows it (:func:`ends_at`)."""
    return _altered_found


def version(loaded: LoadedGame) -> str:
    """A short token that changes whenever what a screen of this game shows may change: an entry recorded (or
    taken back), the clock started or paused.  A live screen is sent again only when it differs."""
    row = loaded.row
    return version_of(row.id, loaded.fold.stored, row.clock_started_at, row.clock_elapsed_seconds,
                      row.time_limit_minutes)


def version_of(game_id: int, stored: int, clock_started_at: object, clock_elapsed_seconds: object,
               time_limit_minutes: object) -> str:
    """:func:`version` from the values it is made of: the game's stored entries (the rows, as written: an altered
    record's too) and its clock, as a poll reads them in one statement without loading the game."""
    text = f"{game_id}:{stored}:{clock_started_at}:{clock_elapsed_seconds}:{time_limit_minutes}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
