"""The one place that touches both the database and the engine.

Every recorded entry is checked by the engine against the state its tablet
saw (``expected_seq``: how many entries the table had), then written as one
committed row; a (game, seq) pair can be written once only, so a double tap,
a second tablet or a retried request can never record a fact twice.
"""
from __future__ import annotations

import functools
import json
import random
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import undefer
from werkzeug.security import check_password_hash, generate_password_hash

from . import chain, rulesets
from .db import db
from .engine import (Game, IllegalEntry, MalformedEntry, MAX_NAME, MAX_TITLE, Outcome, RecordError, RefereeError,
                     RulesetError, SeatingRoll, describe_pending, parse_entry, parse_header, parse_record, render,
                     replay, resolve, text_problem, with_options)
from .models import EntryRow, GameRow, ResultCorrection, RoundRow, TableRow, TournamentPlayer, TournamentRow
from .tournament import formats
from .tournament import seating as seeding

CACHE_SIZE = 64
PIN_MIN = 6  # a PIN or password typed for a game or a tournament: guessing is throttled, and 6 characters
# leave 10**6 digit PINs against at most a few hundred tries a day (access.PIN_FAILURES_PER_TARGET)
MAX_TOURNAMENT_PLAYERS = 512
TABLE_PIN_DIGITS = 6  # a tournament table's own PIN, drawn at seating


class StaleEntry(RefereeError):
    """The entry was made against an older state of the table (another tablet, a double tap, a retry)."""

    code = "stale"


class ClockStopped(RefereeError):
    """The clock of a game that is over, or on which time has been called, cannot be started again."""

    code = "clock_stopped"


class NothingToRedo(RefereeError):
    code = "nothing_to_redo"


class GameNotFound(RefereeError):
    code = "not_found"


class BadGameSetup(RefereeError):
    code = "bad_setup"


class RecordAltered(RefereeError):
    """The stored record is not the one that was written (its hash chain breaks), or no longer replays."""

    code = "record_altered"


@dataclass(frozen=True)
class Altered:
    """Where a stored record stops being trustworthy: entry ``at`` (from 1) and why — "changed", "missing",
    "inserted" (the hash chain breaks there) or "unplayable" (the chain holds but the rules refuse the entry:
    ``detail`` says why)."""

    at: int
    reason: str
    detail: str = ""


@dataclass
class _Fold:
    """A game's fold as the cache keeps it: the engine's game over the good entries, the chain hash they end on,
    the stored rows it was read from, and where the record was found altered (if it was)."""

    game: Game
    head: str
    stored: int
    altered: Altered | None = None


@dataclass(frozen=True)
class Table:
    row: GameRow
    fold: _Fold
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


_cache: "OrderedDict[tuple[str, int], _Fold]" = OrderedDict()  # (database, game id) -> its fold
_lock = threading.Lock()
_game_locks: dict[tuple[str, int], threading.Lock] = {}


def _key(game_id: int) -> tuple[str, int]:
    return (str(db.engine.url), game_id)


def _game_lock(game_id: int) -> threading.Lock:
    """One writer at a time per game in this process (other processes are kept apart by the (game, seq) key)."""
    with _lock:
        return _game_locks.setdefault(_key(game_id), threading.Lock())


def _forget(game_id: int) -> None:
    with _lock:
        _cache.pop(_key(game_id), None)


ruleset_for = rulesets.for_header


def _pin_hash(pin: str, error=None) -> str:
    if len(pin) < PIN_MIN:
        raise (error or BadGameSetup).of("the PIN must have at least {n} characters", {"n": PIN_MIN})
    return generate_password_hash(pin)


def _new_game(title: str, ruleset_id: str, players: list[str], seating: str, pin: str,
              time_limit_minutes: int | None = None, options: dict | None = None) -> GameRow:
    """A new game's row, added to the session and not committed (a round seats all its tables or none)."""
    data = {"format": "referee-game-record", "version": 1, "ruleset": ruleset_id, "options": options or {},
            "players": players, "seating": seating, "meta": {"title": title} if title else {}}
    try:
        header = parse_header(data)
        ruleset_for(header)
    except (RecordError, RulesetError) as exc:
        raise BadGameSetup(str(exc).removeprefix("line 1: ")) from None
    row = GameRow(title=title, header=header.to_dict(), pin_hash=_pin_hash(pin),
                  time_limit_minutes=time_limit_minutes)
    db.session.add(row)
    db.session.flush()
    _forget(row.id)  # a database made anew may reuse a game id
    return row


def create_game(title: str, ruleset_id: str, players: list[str], seating: str, pin: str,
                time_limit_minutes: int | None = None, options: dict | None = None) -> int:
    """A new game; :class:`BadGameSetup` naming what is wrong."""
    row = _new_game(title, ruleset_id, players, seating, pin, time_limit_minutes, options)
    db.session.commit()
    return row.id


def check_pin(game_id: int, pin: str) -> bool:
    """The game's own referee PIN."""
    row = db.session.get(GameRow, game_id)
    return row is not None and check_password_hash(row.pin_hash, pin)


def check_table_pin(game_id: int, pin: str) -> bool:
    """The PIN opens this table: the game's own, or the director's of the tournament that seated it."""
    if check_pin(game_id, pin):
        return True
    tournament = tournament_of_game(game_id)
    return tournament is not None and check_director_pin(tournament, pin)


def list_games(archived: bool | None = None) -> list[GameRow]:
    """Games, newest first: all of them, or only those archived (True) or not (False)."""
    query = select(GameRow).order_by(GameRow.id.desc())
    if archived is not None:
        query = query.where(GameRow.archived == archived)
    return list(db.session.scalars(query))


class NotDeletable(RefereeError):
    code = "not_deletable"


def _records_dir() -> Path | None:
    from flask import current_app

    folder = current_app.config.get("RECORDS_DIR")
    return Path(folder) if folder else None


def _write_record(game_id: int, folder: Path, name: str) -> Path:
    """The game's record file, written whole or not at all (a temporary file renamed over)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    partial = path.with_name(path.name + ".partial")
    partial.write_text(export_record(game_id), encoding="utf-8")
    partial.replace(path)
    return path


def _keep_finished_record(game_id: int) -> None:
    """A game that has ended also goes to ``RECORDS_DIR`` (instance/records/) as its record file."""
    folder = _records_dir()
    if folder is None:
        return
    try:
        _write_record(game_id, folder, f"game-{game_id}.jsonl")
    except OSError as exc:  # the entry is recorded in the database either way; the file is a copy
        from flask import current_app

        current_app.logger.warning("could not write the record of game %s to %s: %s", game_id, folder, exc)


def set_game_archived(game_id: int, archived: bool) -> None:
    """Archive a game (off the games list; every page and its record stay) or bring it back."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound(f"no game {game_id}")
    if tournament_of_game(game_id) is not None:
        raise NotDeletable.of("a tournament's table is archived or deleted with its tournament")
    row.archived = archived
    db.session.commit()


def delete_game(game_id: int) -> Path:
    """Delete a game and its entries, after writing its whole record to ``RECORDS_DIR``/deleted/ (no recorded
    fact is lost); the file's path."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound(f"no game {game_id}")
    if tournament_of_game(game_id) is not None:
        raise NotDeletable.of("a tournament's table is archived or deleted with its tournament")
    folder = _records_dir()
    if folder is None:
        raise NotDeletable.of("no records folder is set (RECORDS_DIR): a game is deleted only once its record is "
                              "kept there")
    path = _write_record(game_id, folder / "deleted", f"game-{game_id}-{_utcnow():%Y%m%d-%H%M%S}.jsonl")
    db.session.delete(row)
    db.session.commit()
    _forget(game_id)
    return path


def load(game_id: int) -> Table:
    """The game row and the engine's fold of its entries.  A fold is read from the database, its hash chain
    checked entry by entry, and kept in a small cache; the cache is used while the stored rows' last number and
    hash are still the ones it was read at (an altered entry is noticed at the next full read: a restart, the
    cache's turn, ``referee verify``, an export).  Where the chain breaks, or an entry no longer replays, the game
    is the good entries before it and :attr:`Table.altered` says where."""
    tables = load_many([game_id])
    if not tables:
        raise GameNotFound(f"no game {game_id}")
    return tables[0]


def load_many(game_ids: list[int]) -> list[Table]:
    """:func:`load` for several games in one query (a director's page of 16 tables), in the order given; games
    that do not exist are left out.  Each comes with its seat in a tournament (:attr:`Table.seat`)."""
    rows = _rows_with_tails(game_ids)
    out = []
    for game_id in game_ids:
        if game_id not in rows:
            continue
        row, stored, last, seat = rows[game_id]
        key = _key(game_id)
        with _lock:
            fold = _cache.get(key)
            if fold is not None and fold.stored == stored and (fold.altered is not None or fold.head == last):
                _cache.move_to_end(key)
                out.append(Table(row, fold, seat))
                continue
        fold = _read_fold(row)
        with _lock:
            _cache[key] = fold
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
        out.append(Table(row, fold, seat))
    return out


@functools.cache
def _rows_statement():
    """The games asked for (``ids``), each with its last stored entry's number and hash and the seat a tournament
    gave it: one statement, built once.  The last entry is found through the (game, seq) index, one step per game
    however long the record is."""
    def last(column):
        return (select(column).where(EntryRow.game_id == GameRow.id).order_by(EntryRow.seq.desc()).limit(1)
                .correlate(GameRow).scalar_subquery())

    return (select(GameRow, last(EntryRow.seq), last(EntryRow.hash), TournamentRow.name, RoundRow.number,
                   TableRow.number)
            .outerjoin(TableRow, TableRow.game_id == GameRow.id)
            .outerjoin(RoundRow, RoundRow.id == TableRow.round_id)
            .outerjoin(TournamentRow, TournamentRow.id == RoundRow.tournament_id)
            .where(GameRow.id.in_(bindparam("ids", expanding=True))))


def _rows_with_tails(game_ids: list[int], results: bool = False
                     ) -> dict[int, tuple[GameRow, int, str | None, tuple[str, int, int] | None]]:
    """Each game's row with its last stored entry's number (the count of a record as written; 0 for none), that
    entry's hash and the game's seat in a tournament (None for a game of its own), in one query; ``results``:
    with each finished game's kept result read in the same query (it is read when asked for otherwise, one query
    a game)."""
    if not game_ids:
        return {}
    statement = _rows_statement().options(undefer(GameRow.result)) if results else _rows_statement()
    found = db.session.execute(statement, {"ids": list(game_ids)})
    return {row.id: (row, seq or 0, hash_, None if table is None else (tournament, round_, table))
            for row, seq, hash_, tournament, round_, table in found}


def _result(game: Game, head: str) -> dict:
    """A finished game's result as it is kept (:attr:`GameRow.result`): its ranking and net worth over the game,
    with the chain hash of the record it was computed from."""
    from .tournament.charts import net_worth_series
    from .tournament.results import final_result

    names, points = net_worth_series(game)
    return {"head": head, "names": names, "points": points, **final_result(game.state)}


def kept_result(table: Table) -> dict | None:
    """The finished game's kept result, if it was computed from exactly the record the fold holds."""
    kept = table.row.result
    if kept and table.altered is None and table.game.state.over and kept.get("head") == table.fold.head:
        return kept
    return None


def verify_all() -> tuple[int, list[tuple[GameRow, Altered]]]:
    """Every game read afresh from the database, its hash chain checked and its entries replayed: how many
    games there are, and each one whose record is altered (a header that no longer reads counts as entry 0)."""
    broken = []
    rows = list(db.session.scalars(select(GameRow).order_by(GameRow.id)))
    for row in rows:
        try:
            fold = _read_fold(row)
        except RecordAltered as exc:
            broken.append((row, Altered(0, "header", exc.message)))
            continue
        if fold.altered is not None:
            broken.append((row, fold.altered))
    return len(rows), broken


def _read_fold(row: GameRow) -> _Fold:
    """A game folded from its stored rows, the chain checked (``RecordAltered`` if the header itself is not a
    header any more)."""
    try:
        header = parse_header(row.header)
        ruleset = ruleset_for(header)
    except (RecordError, RulesetError) as exc:
        raise RecordAltered.of("the record's header cannot be read: {reason}", {"reason": str(exc)}) from None
    rows = db.session.execute(select(EntryRow.seq, EntryRow.data, EntryRow.hash)
                              .where(EntryRow.game_id == row.id).order_by(EntryRow.seq)).all()
    good, head, broken = chain.verify(row.header, rows)
    game = Game(ruleset, header)
    altered = Altered(broken.at, broken.reason) if broken else None
    heads = [chain.genesis(row.header)] + [r.hash for r in rows[:len(good)]]
    for n, data in enumerate(good, start=1):
        try:
            game.record(parse_entry(json.loads(data)))
        except (RefereeError, ValueError, TypeError, RecursionError) as exc:
            detail = exc.message if isinstance(exc, RefereeError) else str(exc)
            altered, head = Altered(n, "unplayable", detail), heads[n - 1]
            break
    return _Fold(game, head, rows[-1].seq if rows else 0, altered)


def record(game_id: int, data: dict, expected_seq: int) -> Outcome:
    """Check an entry and write it, or raise (:class:`StaleEntry`, :class:`MalformedEntry`,
    :class:`IllegalEntry`) and change nothing."""
    entry = parse_entry(data)
    return _record_all(game_id, expected_seq, lambda _: [entry])[0]


def record_run(game_id: int, data: list[dict], expected_seq: int) -> list[Outcome]:
    """Record entries one after the other as one act of the referee (a decline and the auction's opening bid):
    each is checked against the table the one before leaves, and either all are written or none."""
    entries = [parse_entry(d) for d in data]
    return _record_all(game_id, expected_seq, lambda _: entries)


def _record_all(game_id: int, expected_seq: int, entries_of) -> list[Outcome]:
    """Write the entries ``entries_of(table)`` names, in turn, on the table this screen showed (``expected_seq``):
    all of them, or none (the first refusal is raised and the fold read again)."""
    with _game_lock(game_id):
        table = load(game_id)
        if expected_seq != table.seq:
            raise StaleEntry.of("this screen showed the table after entry {seen}, but it is now at entry {now}: "
                                "nothing was recorded; look at the table again",
                                {"seen": expected_seq, "now": table.seq})
        if table.altered is not None:
            raise RecordAltered.of("the record was altered at entry {n}: nothing more is recorded in this game "
                                   "(export it: the good entries can be imported as a new game)",
                                   {"n": table.altered.at})
        entries = entries_of(table)
        outcomes = []
        head = table.fold.head
        try:
            for entry in entries:
                outcomes.append(table.game.record(entry))  # raises before changing anything
                data = json.dumps(entry.to_dict(), ensure_ascii=False)
                head = chain.link(head, table.seq, data)
                db.session.add(EntryRow(game_id=game_id, seq=table.seq, data=data, hash=head))
                if outcomes[-1].state.over or outcomes[-1].state.time_called:  # the game clock stops with the game
                    _pause(table.row, _utcnow())
            ended = table.game.state.over
            table.row.result = _result(table.game, head) if ended else None
            db.session.commit()
            table.fold.head, table.fold.stored = head, table.fold.stored + len(entries)
            if ended:
                _keep_finished_record(game_id)
        except IntegrityError:
            db.session.rollback()
            _forget(game_id)
            raise StaleEntry.of("another tablet recorded an entry at the same moment: nothing was recorded; look at "
                                "the table again") from None
        except BaseException:
            db.session.rollback()
            if outcomes:
                _forget(game_id)  # the fold took some of the entries: read it again from the database
            raise
    return outcomes


def check(game_id: int, data: dict, expected_seq: int) -> Outcome:
    """What an entry would bring about now, without recording it (the trade builder's check)."""
    entry = parse_entry(data)
    table = load(game_id)
    if expected_seq != table.seq:
        raise StaleEntry.of("this screen showed the table after entry {seen}, but it is now at entry {now}: look at "
                            "the table again", {"seen": expected_seq, "now": table.seq})
    return resolve(table.game.state, entry)


def _utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


@dataclass(frozen=True)
class Clock:
    limit_seconds: int | None
    elapsed_seconds: float
    running: bool

    @property
    def remaining_seconds(self) -> float | None:
        return None if self.limit_seconds is None else self.limit_seconds - self.elapsed_seconds

    @property
    def time_up(self) -> bool:
        return self.limit_seconds is not None and self.elapsed_seconds >= self.limit_seconds


def clock(row: GameRow, now: datetime | None = None) -> Clock:
    """The game clock of a table (the engine has none: time is called by the referee's entry)."""
    elapsed = row.clock_elapsed_seconds
    if row.clock_started_at is not None:
        elapsed += ((now or _utcnow()) - row.clock_started_at).total_seconds()
    limit = row.time_limit_minutes * 60 if row.time_limit_minutes else None
    return Clock(limit, elapsed, row.clock_started_at is not None)


def set_clock(game_id: int, running: bool) -> Clock:
    """Start or pause the game clock (starting a running clock, or pausing a stopped one, changes nothing)."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound(f"no game {game_id}")
    now = _utcnow()
    if running and row.clock_started_at is None:
        state = load(game_id).game.state
        if state.over or state.time_called:
            raise (ClockStopped.of("the game is over: its clock stays stopped") if state.over else
                   ClockStopped.of("time has been called: the game clock stays stopped"))
        row.clock_started_at = now
    elif not running:
        _pause(row, now)
    db.session.commit()
    return clock(row, now)


def _pause(row: GameRow, now: datetime) -> None:
    if row.clock_started_at is not None:
        row.clock_elapsed_seconds += (now - row.clock_started_at).total_seconds()
        row.clock_started_at = None


def version(table: Table) -> str:
    """A short token that changes whenever what a screen of this game shows may change: an entry recorded (or
    taken back), the clock started or paused.  A live screen is sent again only when it differs."""
    import hashlib

    row = table.row
    text = f"{row.id}:{table.seq}:{row.clock_started_at}:{row.clock_elapsed_seconds}:{row.time_limit_minutes}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def redo(game_id: int, expected_seq: int) -> list[Outcome]:
    """Record again, as new entries, the run of entries the latest entry (a void) took back: each is checked
    against the table as it now is, and either all are written or none (:class:`IllegalEntry` naming the first
    that no longer stands)."""
    def voided(table: Table) -> list:
        entries = table.game.redoable()
        if not entries:
            raise NothingToRedo.of("there is nothing to redo: only the run of entries taken back by the latest "
                                   "entry, a void, can be recorded again")
        return entries

    return _record_all(game_id, expected_seq, voided)


def export_record(game_id: int) -> str:
    """The record file: the header and every stored entry.  The chain is checked on a fresh read; of a record
    altered at entry N, the entries from N on follow as they are stored (nothing stored is left out), so a replay
    of the file stops there too."""
    _forget(game_id)
    table = load(game_id)
    lines = table.game.to_lines()
    if table.altered is not None:
        for seq, data in db.session.execute(select(EntryRow.seq, EntryRow.data).where(
                EntryRow.game_id == game_id, EntryRow.seq >= table.altered.at).order_by(EntryRow.seq)):
            try:
                lines.append(json.dumps({"seq": seq, **json.loads(data)}, ensure_ascii=False))
            except (ValueError, TypeError, RecursionError):
                lines.append(data.replace("\n", " "))
    return "\n".join(lines) + "\n"


def import_record(text: str, pin: str) -> int:
    """A new game from a record file (every entry is checked by replaying it)."""
    try:
        header, entries = parse_record(text.splitlines())
        game = replay(ruleset_for(header), header, entries)
    except RulesetError as exc:
        raise BadGameSetup(str(exc)) from None
    title = header.meta.get("title", "")
    row = GameRow(title=(title if isinstance(title, str) else "")[:MAX_TITLE], header=header.to_dict(),
                  pin_hash=_pin_hash(pin))
    db.session.add(row)
    db.session.flush()
    head = chain.genesis(row.header)
    for seq, entry in enumerate(game.entries, start=1):
        data = json.dumps(entry.to_dict(), ensure_ascii=False)
        head = chain.link(head, seq, data)
        db.session.add(EntryRow(game_id=row.id, seq=seq, data=data, hash=head))
    row.result = _result(game, head) if game.state.over else None
    db.session.commit()
    if game.state.over:
        _keep_finished_record(row.id)
    _forget(row.id)
    return row.id


__all__ = ["BadGameSetup", "ClockStopped", "GameNotFound", "NothingToRedo", "IllegalEntry", "MalformedEntry", "RecordError", "StaleEntry",
           "Clock", "Table", "check_pin", "check_table_pin", "clock", "create_game", "set_clock", "export_record", "import_record", "list_games", "load", "record", "redo", "version"]


# --- tournaments ------------------------------------------------------------


class BadTournament(RefereeError):
    code = "bad_tournament"


@dataclass(frozen=True)
class TableView:
    """One table of a round as the director sees it."""

    number: int
    game_id: int
    players: list[tuple[str, int, bool]]  # name, cash, bankrupt: in seat order, or in finishing order once over
    pending: str
    turn: int
    over: bool
    clock: Clock
    seating: bool = False  # still in the seating roll-off
    time_called: bool = False
    currency: "Money | str" = "$"  # the ruleset's money (its symbol and where it goes)
    pin: str | None = None  # the table's own referee PIN (None: seated before tables had one)
    altered: Altered | None = None  # its stored record was altered: nothing more is recorded there
    corrected: str | None = None  # the reason of the director's last correction of its result, if any
    division: str = ""  # the division whose table it is ("" without divisions)

    @property
    def started(self) -> bool:
        """Play has begun: the seating roll-off is over and the clock has run (a table without a time limit
        needs no clock)."""
        if self.seating:
            return False
        return self.clock.limit_seconds is None or self.clock.running or self.clock.elapsed_seconds > 0

    @property
    def callable(self) -> bool:
        """Calling time on the round records 'time called' here (not before the seating roll-off is over, nor on
        an altered record)."""
        return not (self.over or self.time_called or self.seating or self.altered)


def create_tournament(name: str, scheme: str, ruleset_id: str, players: list[str], pin: str,
                      round_minutes: list[int] | None = None, options: dict | None = None,
                      format_id: str = rulesets.DEFAULT_FORMAT, alternates: list[str] | None = None,
                      check_in: bool = False) -> int:
    """A new tournament: its players (each checked in at once, or, with ``check_in``, only when the director
    says they are there) and its ordered alternates."""
    try:
        rulesets.load_scheme(scheme)
        options = {**rulesets.load_format(format_id).options, **(options or {})}  # the director's come last
        with_options(rulesets.load(ruleset_id), options)
    except RulesetError as exc:
        raise BadTournament(str(exc)) from None
    try:
        entered = [formats.player_line(p) for p in players if p.strip()]
        reserve = [formats.player_line(p) for p in alternates or [] if p.strip()]
    except ValueError as exc:
        raise bad_player_line(exc) from None
    spelled: dict[str, str] = {}  # a division as first written: "junior" and "Junior" are one division
    entered = [(n, spelled.setdefault(d.casefold(), d), i) for n, d, i in entered]
    reserve = [(n, spelled.setdefault(d.casefold(), d), i) for n, d, i in reserve]
    names = [name for name, _, _ in entered]
    waiting = [name for name, _, _ in reserve]
    small = [d for d in dict.fromkeys(d for _, d, _ in entered) if sum(1 for _, e, _ in entered if e == d) < 2]
    if small and len(spelled) > 1:
        raise BadTournament.of("each division needs at least 2 players: {divisions} has fewer",
                               {"divisions": ", ".join(small)[:200]})
    if len(names) < 2:
        raise BadTournament.of("a tournament needs at least 2 players, got {names}", {"names": ", ".join(names) or "-"})
    everyone = names + waiting
    folded = [n.casefold() for n in everyone]  # "Ann" and "ann" are one player on a score sheet
    twice = sorted({n for n in everyone if folded.count(n.casefold()) > 1})
    if twice:
        raise BadTournament.of("each player is listed once: {names} listed more than once",
                               {"names": ", ".join(twice)[:200]})
    if len(everyone) > MAX_TOURNAMENT_PLAYERS:
        raise BadTournament.of("a tournament has at most {n} players", {"n": MAX_TOURNAMENT_PLAYERS})
    for text, maximum in [(name, MAX_TITLE)] + [(n, MAX_NAME) for n in everyone] + [
            (d, MAX_NAME) for _, d, _ in entered + reserve if d]:
        _check_text(repr(text[:40]), text, maximum)
    fmt = rulesets.load_format(format_id)
    seeds = [s for s in fmt.stages if s.invited]
    least = formats.least_players(fmt)
    if len(names) < least:
        raise BadTournament.of("the format {format} needs at least {n} players (a stage takes the best {n}); "
                               "{count} are entered", {"format": format_id, "n": least, "count": len(names)})
    if any(invited for _, _, invited in entered) and not seeds:
        raise BadTournament.of("the format {format} has no stage that takes invited seeds", {"format": format_id})
    if any(not isinstance(m, int) or not 1 <= m <= 600 for m in round_minutes or []):
        raise BadTournament.of("round minutes must be whole numbers from 1 to 600, got {minutes}",
                               {"minutes": " ".join(map(str, round_minutes))[:80]})
    row = TournamentRow(name=name, scheme=scheme, format=format_id, ruleset=ruleset_id, options=options or {},
                        round_minutes=list(round_minutes or []), pin_hash=_pin_hash(pin, BadTournament),
                        players=[TournamentPlayer(name=n, checked_in=not check_in, division=d,
                                                  invited_stage=seeds[0].id if invited else None)
                                 for n, d, invited in entered]
                        + [TournamentPlayer(name=n, alternate=k, division=d)
                           for k, (n, d, _) in enumerate(reserve, start=1)])
    db.session.add(row)
    db.session.commit()
    return row.id


# --- players between rounds: check-in, drops, late entries, alternates ------------------------------------

@dataclass(frozen=True)
class Done:
    """What a director's change did, in words: an English pattern and its values, put in the device's language
    by the view as a refusal is (``detail``)."""

    pattern: str
    params: dict

    @classmethod
    def of(cls, pattern: str, params: dict) -> "Done":
        return cls(pattern, params)

    def detail(self, _=lambda text: text, lang: str = "en") -> str:
        return render(self.pattern, self.params, None, _, lang)


@dataclass(frozen=True)
class PlayerView:
    """A tournament player as the director's players list shows them."""

    name: str
    status: str  # playing, not_checked_in, dropped, alternate
    checked_in: bool
    alternate: int | None
    joined_round: int | None
    dropped_round: int | None
    note: str
    division: str = ""
    invited_stage: str | None = None


def _status(p: TournamentPlayer) -> str:
    if p.dropped_round is not None:
        return "dropped"
    if p.alternate is not None:
        return "alternate"
    return "playing" if p.checked_in else "not_checked_in"


def tournament_players(tournament_id: int) -> list[PlayerView]:
    """Every player: those in first (as entered), then the alternates in their order, then those who dropped."""
    row = get_tournament(tournament_id)
    waiting = sorted((p for p in row.players if _status(p) == "alternate"), key=lambda p: p.alternate)
    position = {p.name: k for k, p in enumerate(waiting, start=1)}  # the next to step in is alternate 1
    views = [PlayerView(p.name, _status(p), p.checked_in, position.get(p.name), p.joined_round, p.dropped_round,
                        p.note, p.division, p.invited_stage) for p in row.players]
    order = {"playing": 0, "not_checked_in": 0, "alternate": 1, "dropped": 2}
    return sorted(views, key=lambda v: (order[v.status], v.alternate or 0))


def active_players(row: TournamentRow) -> list[str]:
    """Who may be seated in the next round: checked in, not an alternate waiting, not dropped."""
    return [p.name for p in row.players if p.checked_in and p.alternate is None and p.dropped_round is None]


def _player(row: TournamentRow, name: str) -> TournamentPlayer:
    found = next((p for p in row.players if p.name == name), None)
    if found is None:
        raise BadTournament.of("no player {name} in this tournament", {"name": str(name)[:60]})
    return found


def _between_rounds(row: TournamentRow, expected: int | None) -> int:
    """The number of rounds seated, checked against what the director's screen showed (a stale screen changes
    nothing)."""
    seated = len(row.rounds)
    if expected is not None and expected != seated:
        raise BadTournament.of("round {round} has been seated since this screen was drawn: nothing was changed",
                               {"round": seated})
    return seated


def change_player(tournament_id: int, name: str, action: str, expected: int | None = None) -> "Done":
    """One change to a player between rounds; what was done, in words to flash.  ``action``: check_in,
    check_out (not checked in after all), drop (seated no more from the next round: a game in progress is
    finished), drop_for_alternate (drop, and the first alternate steps in for them), reinstate (undo a drop while
    no round has been seated since), step_in (the alternate plays from the next round)."""
    row = get_tournament(tournament_id)
    seated = _between_rounds(row, expected)
    p = _player(row, name)
    params = {"name": p.name, "round": seated + 1}
    if action in ("check_in", "check_out"):
        if p.dropped_round is not None or p.alternate is not None:
            raise BadTournament.of("{name} is not on the list of players to seat: check-in is for them only", params)
        p.checked_in = action == "check_in"
        done = (Done.of("{name} is checked in: seated from round {round}", params) if p.checked_in else
                Done.of("{name} is not checked in: not seated until checked in", params))
    elif action in ("drop", "drop_for_alternate"):
        if p.dropped_round is not None:
            raise BadTournament.of("{name} has already dropped", params)
        if p.alternate is not None:
            raise BadTournament.of("{name} is an alternate: taken off the list by dropping is not needed; they are "
                                   "never seated unless they step in", params)
        p.dropped_round = seated
        done = Done.of("{name} has dropped: not seated from round {round} (their results stand)", params)
        if action == "drop_for_alternate":
            first = min((q for q in row.players if q.alternate is not None and q.dropped_round is None
                         and q.division == p.division), key=lambda q: q.alternate, default=None)
            if first is None:
                raise BadTournament.of("no alternate is waiting to step in for {name}", params)
            _step_in(first, seated, p.name)
            done = Done.of("{name} has dropped; {alternate} steps in for them from round {round}",
                           params | {"alternate": first.name})
    elif action == "reinstate":
        if p.dropped_round is None:
            raise BadTournament.of("{name} has not dropped", params)
        if p.dropped_round != seated:
            raise BadTournament.of("{name} dropped before a round that has been seated since: they may enter "
                                   "again as a late entry only", params)
        p.dropped_round = None
        done = Done.of("{name} is back: seated from round {round}", params)
    elif action == "step_in":
        if p.alternate is None or p.dropped_round is not None:
            raise BadTournament.of("{name} is not an alternate waiting to step in", params)
        first = min((q for q in row.players if q.alternate is not None and q.dropped_round is None
                     and q.division == p.division), key=lambda q: q.alternate)
        if first is not p:
            raise BadTournament.of("alternates step in in their order: {first} comes before {name}",
                                   params | {"first": first.name})
        _step_in(p, seated, "")
        done = Done.of("{name} steps in: seated from round {round}", params)
    else:
        raise BadTournament.of("unknown change to a player: {action}", {"action": str(action)[:40]})
    db.session.commit()
    return done


def _step_in(p: TournamentPlayer, seated: int, replaces: str) -> None:
    """The alternate is seated from the next round (in place of ``replaces``, when they step in for a player)."""
    p.alternate = None
    p.checked_in = True
    p.joined_round = seated + 1
    p.note = replaces[:300]


def add_player(tournament_id: int, name: str, alternate: bool, expected: int | None = None,
               division: str = "", replaces: str = "") -> "Done":
    """A late entry (seated from the next round, with no points before it) or an alternate, last in order; in
    ``division`` when the tournament has divisions.  A late entry may take the place of a player (``replaces``),
    who drops: the director's replacement of a player between rounds."""
    row = get_tournament(tournament_id)
    seated = _between_rounds(row, expected)
    name = (name or "").strip()
    if not name:
        raise BadTournament.of("a player needs a name", {})
    _check_text("name", name, MAX_NAME)
    if any(p.name.casefold() == name.casefold() for p in row.players):
        raise BadTournament.of("{name} is already in this tournament", {"name": name})
    division = (division or "").strip()
    _check_text("division", division, MAX_NAME)
    if division not in divisions_of(row):
        raise BadTournament.of("no division {division} in this tournament (it has {divisions})",
                               {"division": division or "-", "divisions": ", ".join(divisions_of(row))[:200]})
    if len(row.players) >= MAX_TOURNAMENT_PLAYERS:
        raise BadTournament.of("a tournament has at most {n} players", {"n": MAX_TOURNAMENT_PLAYERS})
    order = max((p.alternate for p in row.players if p.alternate is not None), default=0) + 1
    out = None
    if replaces:
        out = _player(row, replaces)
        if alternate or _status(out) not in ("playing", "not_checked_in"):
            raise BadTournament.of("{name} can take the place of a player still in, as a late entry", {"name": name})
        out.dropped_round = seated
        division = out.division
    row.players.append(TournamentPlayer(name=name, alternate=order if alternate else None, division=division,
                                        joined_round=None if alternate else seated + 1,
                                        note=out.name if out else ""))
    db.session.commit()
    if out is not None:
        return Done.of("{name} takes the place of {player} from round {round}; {player} has dropped",
                       {"name": name, "player": out.name, "round": seated + 1})
    if alternate:
        return Done.of("{name} is alternate {n}", {"name": name, "n": order})
    return Done.of("{name} enters late: seated from round {round}", {"name": name, "round": seated + 1})


def bad_player_line(exc: ValueError) -> BadTournament:
    """The refusal of a players line that :func:`formats.player_line` cannot read."""
    kind, line = exc.args
    if kind == "no_name":
        return BadTournament.of("a player needs a name: {line}", {"line": line})
    return BadTournament.of("after the name and the division only \"invited\" may follow: {line}", {"line": line})


def _check_text(field: str, value: str, maximum: int) -> None:
    """A name or reason typed by the director: refused (naming the limit) when too long or not plain text."""
    problem = text_problem(field, value, maximum)
    if problem:
        pattern = problem.pattern
        raise BadTournament.of(pattern, problem.params)


def get_tournament(tournament_id: int) -> TournamentRow:
    row = db.session.get(TournamentRow, tournament_id)
    if row is None:
        raise GameNotFound.of("no tournament {tournament}", {"tournament": tournament_id})
    return row


def check_director_pin(tournament_id: int, pin: str) -> bool:
    row = db.session.get(TournamentRow, tournament_id)
    return row is not None and check_password_hash(row.pin_hash, pin)


def list_tournaments(archived: bool | None = None) -> list[TournamentRow]:
    query = select(TournamentRow).order_by(TournamentRow.id.desc())
    if archived is not None:
        query = query.where(TournamentRow.archived == archived)
    return list(db.session.scalars(query))


def set_tournament_archived(tournament_id: int, archived: bool) -> None:
    row = get_tournament(tournament_id)
    row.archived = archived
    db.session.commit()


def delete_tournament(tournament_id: int) -> list[Path]:
    """Delete a tournament, its rounds and every game it seated, after writing each game's record to
    ``RECORDS_DIR``/deleted/; all of it or nothing."""
    row = get_tournament(tournament_id)
    folder = _records_dir()
    if folder is None:
        raise NotDeletable.of("no records folder is set (RECORDS_DIR): a game is deleted only once its record is "
                              "kept there")
    game_ids = [t.game_id for r in row.rounds for t in r.tables]
    stamp = f"{_utcnow():%Y%m%d-%H%M%S}"
    paths = [_write_record(g, folder / "deleted", f"tournament-{tournament_id}-game-{g}-{stamp}.jsonl")
             for g in game_ids]
    try:
        db.session.delete(row)
        db.session.flush()  # its rounds and tables first: they point at the games
        for game_id in game_ids:
            db.session.delete(db.session.get(GameRow, game_id))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    for game_id in game_ids:
        _forget(game_id)
    return paths


def _round_tables(row: TournamentRow) -> list[list[list[str]]]:
    return [[parse_header(db.session.get(GameRow, t.game_id).header).players for t in r.tables] for r in row.rounds]


def table_pin() -> str:
    """A table's own referee PIN: digits, as easy to type on a tablet as to read off the slip."""
    return f"{secrets.randbelow(10 ** TABLE_PIN_DIGITS):0{TABLE_PIN_DIGITS}d}"


@dataclass(frozen=True)
class DivisionProgress:
    """One division's share (the only one, named "", when the tournament has no divisions): its rounds and games
    (its own tables), each stage's standings in its final order, and its places."""

    name: str
    members: frozenset
    seated: list[formats.SeatedRound]
    games: list
    orders: list[tuple[formats.Stage, list]]
    places: list  # Standing rows, rank = place within the division


@dataclass(frozen=True)
class Progress:
    """Where a tournament stands in its format: the rounds seated (each with its stage), the stages the next
    round may belong to, and each division's standings and places."""

    format: formats.Format
    seated: list[formats.SeatedRound]
    next_stages: list[formats.Stage]
    divisions: list[DivisionProgress]
    playing: bool  # a round's games are still being played

    @property
    def stage(self) -> formats.Stage:
        return formats.current_stage(self.format, self.seated)

    @property
    def places(self) -> list:
        """Every division's places, one division after the other (each ranked from 1)."""
        return [st for d in self.divisions for st in d.places]

    @property
    def champions(self) -> list[tuple[str, str]]:
        """(division, champion) for each division, once every stage is seated and played."""
        if self.next_stages or self.playing:
            return []
        return [(d.name, d.places[0].player) for d in self.divisions if d.places]

    @property
    def champion(self) -> str | None:
        """The champion of a tournament without divisions, once every stage is seated and played."""
        return self.champions[0][1] if len(self.divisions) == 1 and self.champions else None


def _seated_rounds(row: TournamentRow) -> list[formats.SeatedRound]:
    tables = _round_tables(row)
    return [formats.SeatedRound(r.number, r.stage or ("final" if r.final else "rounds"), tuple(map(tuple, t)))
            for r, t in zip(row.rounds, tables)]


def _scheme_of(row: TournamentRow):
    return lambda stage: rulesets.load_scheme(stage.scoring or row.scheme)


def divisions_of(row: TournamentRow) -> list[str]:
    """The tournament's divisions in the order their first player was entered ([""]: none)."""
    return list(dict.fromkeys(p.division for p in row.players)) or [""]


def tournament_progress(tournament_id: int) -> Progress:
    row = get_tournament(tournament_id)
    fmt = rulesets.load_format(row.format)
    seated = _seated_rounds(row)
    results = tournament_results(tournament_id)
    divisions = []
    for name in divisions_of(row):
        members = frozenset(p.name for p in row.players if p.division == name)
        mine, games = formats.division_view(seated, results, members)
        try:
            orders = formats.stage_orders(fmt, _scheme_of(row), mine, games)
        except RulesetError as exc:  # a table the scheme cannot score (seated before sizes were checked)
            raise BadTournament.of("the standings cannot be worked out: {problem}", {"problem": str(exc)[:200]}) from None
        divisions.append(DivisionProgress(name, members, mine, games, orders, formats.places(orders, name, mine)))
    playing = bool(row.rounds) and not all(
        t.game.state.over or t.altered is not None for t in load_many([t.game_id for t in row.rounds[-1].tables]))
    return Progress(fmt, seated, formats.next_stages(fmt, seated), divisions, playing)


@dataclass(frozen=True)
class Cut:
    """Who goes on to a stage that not everyone plays, in one division: ``going`` in order, and ``tied``, those
    left out although equal in the standings with the last one going on (the standings' order decided)."""

    division: str
    going: list[str]
    tied: list[str]


def stage_cuts(tournament_id: int, stage_id: str, progress: Progress | None = None) -> list[Cut]:
    """For the director before seating: who would play the next round of ``stage_id``, division by division
    (``progress``: the tournament's, when the caller has already worked it out)."""
    row = get_tournament(tournament_id)
    progress = progress or tournament_progress(tournament_id)
    fmt = progress.format
    chosen = fmt.stage(stage_id)
    out = []
    for division in progress.divisions:
        going, previous = _division_entrants(row, fmt, chosen, division)
        last_rank = {st.player: st.rank for st in previous}
        cut = last_rank.get(going[-1]) if going else None
        tied = [st.player for st in previous if cut is not None and st.rank == cut and st.player not in going]
        out.append(Cut(division.name, going, tied))
    return out


def _division_entrants(row: TournamentRow, fmt: formats.Format, chosen: formats.Stage, division: DivisionProgress
                       ) -> tuple[list[str], list]:
    """One division's players for the next round of ``chosen`` (the seeds invited to the stage first, then in the
    standings' order where the stage seats by it), and the stage before's standings they were chosen from."""
    members = {p.name: p for p in row.players if p.division == division.name}
    active = [n for n in active_players(row) if n in members and members[n].invited_stage is None]
    invited = [n for n in active_players(row) if n in members and members[n].invited_stage == chosen.id]
    before = fmt.stages[fmt.index(chosen.id) - 1] if fmt.index(chosen.id) else None
    previous = next((order for st, order in division.orders if before is not None and st.id == before.id), [])
    current = next((order for st, order in division.orders if st.id == chosen.id), previous)
    ranked = [st.player for st in (current if chosen.seating != "draw" else previous)]
    players = formats.entrants(fmt, chosen, active, division.seated, [st.player for st in previous],
                               division.games, invited)
    # snake seeding and ranked boards go by the standings: the invited seeds first, then the standings' order;
    # players with no result yet come last, as listed
    ordered = invited + [p for p in ranked if p in players and p not in invited] + [
        p for p in players if p not in ranked and p not in invited]
    return ordered, previous


def _division_tables(row: TournamentRow, fmt: formats.Format, chosen: formats.Stage, division: DivisionProgress,
                     rng: random.Random) -> list[list[str]]:
    """One division's tables for the next round of ``chosen``: its entrants (with the seeds invited to the stage)
    seated as the stage says; none when no one of the division plays the stage."""
    players, _ = _division_entrants(row, fmt, chosen, division)
    if not players:
        return []
    if len(players) < 2:
        raise BadTournament.of("the stage {stage} has {n} players: a round needs at least 2",
                               {"stage": chosen.id if not division.name else f"{chosen.id} ({division.name})",
                                "n": len(players)})
    met = seeding.met_counts([list(map(list, r.tables)) for r in division.seated])
    scheme = rulesets.load_scheme(chosen.scoring or row.scheme)
    allowed = frozenset(scheme.placement) if scheme.kind == "placement" else None
    try:
        return formats.seat(chosen, players, met, rng, allowed)
    except ValueError:
        raise BadTournament.of("{n} players cannot be seated at tables the scoring scores (of {sizes} players): "
                               "check a player in, enter one late or let one drop, then seat the round",
                               {"n": len(players), "sizes": ", ".join(map(str, sorted(allowed or ())))}) from None


def seat_round(tournament_id: int, expected: int | None = None, stage: str | None = None) -> int:
    """Seat the next round of the tournament's format: of ``stage`` (the current one, or the next when the
    current is complete or the director closes it; by default the first the format allows), its players and
    tables as that stage says (a draw avoiding repeat opponents, snake seeding, ranked boards), each division at
    tables of its own.  Every table gets a game with a PIN of its own and the round's time limit; the round is
    seated whole or not at all.  ``expected`` is the round number the director's screen offered to seat (a stale
    screen, or a second tap, seats nothing)."""
    row = get_tournament(tournament_id)
    number = len(row.rounds) + 1
    if expected is not None and expected != number:
        raise BadTournament.of("round {round} is already seated (this screen was out of date): nothing was "
                               "seated", {"round": expected})
    progress = tournament_progress(tournament_id)
    if progress.playing:
        raise BadTournament.of("round {round} is still being played", {"round": number - 1})
    if not progress.next_stages:
        raise BadTournament.of("every round of the format {format} is seated: the tournament is over",
                               {"format": progress.format.id})
    chosen = progress.next_stages[0] if stage is None else next(
        (s for s in progress.next_stages if s.id == stage), None)
    if chosen is None:
        raise BadTournament.of("the next round cannot be of the stage {stage} (it may be of {stages})",
                               {"stage": str(stage)[:40], "stages": ", ".join(s.id for s in progress.next_stages)})
    fmt, seated = progress.format, progress.seated
    rng = random.Random(f"{tournament_id}-{number}")
    tables = [t for d in progress.divisions for t in _division_tables(row, fmt, chosen, d, rng)]
    if not tables:
        raise BadTournament.of("no one to seat for {stage}: check the players in (Players between rounds) first",
                               {"stage": chosen.name.get("en", chosen.id)})
    # the director's minutes for the round, else the stage's own (the format's), else no time limit
    minutes = (row.round_minutes[min(number, len(row.round_minutes)) - 1] if row.round_minutes else
               formats.round_minutes(chosen, len(formats.rounds_of(chosen, seated))))
    last = len(fmt.stages) > 1 and chosen.id == fmt.stages[-1].id
    try:
        round_row = RoundRow(tournament_id=tournament_id, number=number, final=last, stage=chosen.id)
        row.rounds.append(round_row)
        for k, seats in enumerate(tables, start=1):
            pin = table_pin()
            game = _new_game(f"{row.name}: round {number}, table {k}", row.ruleset, seats, "roll", pin, minutes,
                             row.options)
            round_row.tables.append(TableRow(number=k, game_id=game.id, pin=pin))
        db.session.commit()
    except IntegrityError:  # another tap seated this round at the same moment: one round stands
        db.session.rollback()
        raise BadTournament.of("round {round} is already seated (this screen was out of date): nothing was "
                               "seated", {"round": number}) from None
    except Exception:
        db.session.rollback()
        raise
    return number


def tournament_of_game(game_id: int) -> int | None:
    """The tournament that seated the game, if any."""
    return db.session.execute(select(RoundRow.tournament_id).join(TableRow, TableRow.round_id == RoundRow.id)
                              .where(TableRow.game_id == game_id)).scalar()


def round_overview(tournament_id: int, number: int, describe=None) -> list[TableView]:
    """Every table of a round; ``describe`` puts the pending decision in words (the web passes its
    translated one)."""

    describe = describe or describe_pending
    row = get_tournament(tournament_id)
    round_row = next((r for r in row.rounds if r.number == number), None)
    if round_row is None:
        raise GameNotFound.of("tournament {tournament} has no round {round}", {"tournament": tournament_id,
                                                                              "round": number})
    out = []
    division = {p.name: p.division for p in row.players}
    for t, table in zip(round_row.tables, load_many([t.game_id for t in round_row.tables])):
        state = table.game.state
        seats = [(p.name, p.cash, p.bankrupt) for p in state.players]
        if t.corrections:  # a corrected table lists its players in the places the director gave
            place = {p["name"]: k for k, p in enumerate(t.corrections[-1].result["ranking"])}
            seats.sort(key=lambda seat: place.get(seat[0], len(place)))
        elif state.over and state.pending.order:  # a finished table lists its players as they finished
            seats = [seats[i] for i in state.pending.order]
        out.append(TableView(t.number, t.game_id, seats,
                             describe(state), state.turn, state.over, clock(table.row),
                             seating=isinstance(state.pending, SeatingRoll), time_called=bool(state.time_called),
                             currency=state.ruleset.money, pin=t.pin, altered=table.altered,
                             corrected=t.corrections[-1].reason if t.corrections else None,
                             division=division.get(state.players[0].name, "")))
    return out


def table_of_game(game_id: int) -> tuple[str, int, int] | None:
    """(tournament name, round number, table number) of a game seated by a tournament, else None."""
    found = db.session.execute(
        select(TournamentRow.name, RoundRow.number, TableRow.number)
        .join(RoundRow, RoundRow.tournament_id == TournamentRow.id)
        .join(TableRow, TableRow.round_id == RoundRow.id)
        .where(TableRow.game_id == game_id)).first()
    return None if found is None else (found[0], found[1], found[2])


def tournament_version(tournament_id: int) -> str:
    """A short token that changes whenever anything the director's page shows may have changed: a round
    seated, an entry recorded (or taken out of the log) on any table, a table's clock started or paused.
    One query; the live page compares it with the token it was drawn with and is sent again only if it differs."""
    import hashlib

    games = select(TableRow.game_id).join(RoundRow, RoundRow.id == TableRow.round_id).where(
        RoundRow.tournament_id == tournament_id)
    entries = (select(EntryRow.game_id, func.count().label("n"), func.max(EntryRow.id).label("last"))
               .where(EntryRow.game_id.in_(games)).group_by(EntryRow.game_id).subquery())
    rows = db.session.execute(
        select(RoundRow.number, RoundRow.final, TableRow.number, TableRow.game_id, GameRow.clock_started_at,
               GameRow.clock_elapsed_seconds, GameRow.time_limit_minutes, entries.c.n, entries.c.last)
        .join(TableRow, TableRow.round_id == RoundRow.id)
        .join(GameRow, GameRow.id == TableRow.game_id)
        .outerjoin(entries, entries.c.game_id == GameRow.id)
        .where(RoundRow.tournament_id == tournament_id)
        .order_by(RoundRow.number, TableRow.number)).all()
    fixed = db.session.execute(  # the director's corrections change the standings
        select(func.count(ResultCorrection.id), func.max(ResultCorrection.id))
        .join(TableRow, TableRow.id == ResultCorrection.table_id).join(RoundRow, RoundRow.id == TableRow.round_id)
        .where(RoundRow.tournament_id == tournament_id)).one()
    text = "|".join(",".join("" if v is None else str(v) for v in r) for r in [*rows, tuple(fixed)])
    return hashlib.blake2b(f"{tournament_id}:{text}".encode(), digest_size=8).hexdigest()


def call_time_on_round(tournament_id: int, number: int) -> int:
    """Record 'time called' on every table of the round still playing (not on a table still in its seating
    roll-off); how many tables it was recorded on."""
    called = 0
    for view in round_overview(tournament_id, number):
        if not view.callable:
            continue
        table = load(view.game_id)
        record(view.game_id, {"type": "time_called", "note": "called by the tournament director"}, table.seq)
        called += 1
    return called


def tournament_results(tournament_id: int):
    """Every finished table's result: the one kept when its game ended while the stored record still ends on the
    hash it was kept at (no replay), else from the game's fold."""
    from .tournament.results import game_result, kept_result

    row = get_tournament(tournament_id)
    corrected = [(r.number, t) for r in row.rounds for t in r.tables if t.corrections]
    seats = [(r.number, t) for r in row.rounds for t in r.tables if not t.corrections]
    ids = [t.game_id for _, t in seats]
    games = _rows_with_tails(ids, results=True)
    results, unkept = [], []
    for number, t in seats:
        row, _, last, _ = games[t.game_id]
        kept = row.result
        if kept and kept.get("head") == last:
            results.append(kept_result(kept, number, str(t.number)))
        else:
            unkept.append((number, t))
    for (number, t), table in zip(unkept, load_many([t.game_id for _, t in unkept])):
        if table.game.state.over:
            results.append(game_result(table.game.state, number, str(t.number)))
    results += [kept_result(t.corrections[-1].result, number, str(t.number)) for number, t in corrected]
    return sorted(results, key=lambda g: (g.round, int(g.table)))


def tournament_standings(tournament_id: int):
    """The tournament's places as its format ranks them (each row that of the last stage the player played)."""
    return tournament_progress(tournament_id).places


# --- the director's corrections ---------------------------------------------------------------------------

MAX_REASON = 300
MAX_ASSETS = 10 ** 9


def _tournament_table(tournament_id: int, game_id: int) -> tuple[TournamentRow, RoundRow, TableRow]:
    row = get_tournament(tournament_id)
    for r in row.rounds:
        for t in r.tables:
            if t.game_id == game_id:
                return row, r, t
    raise GameNotFound.of("game {game} is not a table of this tournament", {"game": game_id})


def table_result(tournament_id: int, game_id: int) -> dict | None:
    """The result that stands at a finished table (the last correction, else the game's), None while it plays."""
    _, _, t = _tournament_table(tournament_id, game_id)
    from .tournament.results import final_result

    if t.corrections:
        return t.corrections[-1].result
    state = load(game_id).game.state
    return final_result(state) if state.over else None


def correct_result(tournament_id: int, game_id: int, places: dict[str, int], assets: dict[str, int],
                   monopoly: bool, reason: str, expected: int) -> Done:
    """The director's correction of a finished table's result: each player's place (1 is first; equal places
    allowed) and assets, whether it was a monopoly win, and why.  Kept with the others (the last stands, every one
    is shown) and the standings follow it; the game's own record is not changed.  ``expected`` is how many
    corrections the director's screen showed (a stale screen or a second tap changes nothing)."""
    row, round_row, t = _tournament_table(tournament_id, game_id)
    if expected != len(t.corrections):
        raise BadTournament.of("this table's result was corrected since this screen was drawn: nothing was changed",
                               {})
    table = load(game_id)
    state = table.game.state
    if not state.over:
        raise BadTournament.of("table {table} is still playing: a result is corrected after its game",
                               {"table": t.number})
    names = [p.name for p in state.players]
    if sorted(places) != sorted(names) or sorted(assets) != sorted(names):
        raise BadTournament.of("a correction gives a place and assets for each player of the table, and no one "
                               "else", {})
    for name in names:
        place, total = places[name], assets[name]
        if not isinstance(place, int) or isinstance(place, bool) or not 1 <= place <= len(names):
            raise BadTournament.of("{name}'s place must be from 1 to {n}", {"name": name, "n": len(names)})
        if not isinstance(total, int) or isinstance(total, bool) or not 0 <= total <= MAX_ASSETS:
            raise BadTournament.of("{name}'s assets must be a whole amount from 0 to {max}",
                                   {"name": name, "max": MAX_ASSETS})
    for name in names:  # a place is taken by as many as share it: 1, 1, 3, 4 but not 1, 1, 2, 4
        if sum(1 for n in names if places[n] < places[name]) != places[name] - 1:
            raise BadTournament.of("the places do not make a ranking: {name} is {place}, with {ahead} ahead",
                                   {"name": name, "place": places[name],
                                    "ahead": sum(1 for n in names if places[n] < places[name])})
    reason = (reason or "").strip()
    if not reason:
        raise BadTournament.of("a correction needs its reason, for the record", {})
    _check_text("reason", reason, MAX_REASON)
    if monopoly and sorted(places.values()).count(1) != 1:
        raise BadTournament.of("a monopoly win has one winner", {})
    ranking = sorted(names, key=lambda n: (places[n], -assets[n]))
    result = {"reason": "monopoly" if monopoly else "corrected", "ranking": [
        {"rank": places[n], "name": n, "total": assets[n], "bankrupt_order": None} for n in ranking]}
    t.corrections.append(ResultCorrection(result=result, reason=reason))
    db.session.commit()
    later = next((r for r in row.rounds if r.number > round_row.number and r.stage != round_row.stage), None)
    if later is not None:  # the cut was made from the standings as they stood: a director decides what follows
        return Done.of("round {round}, table {table}: result corrected ({reason}); the standings follow it, but "
                       "round {later} was seated from the standings before this correction and stays as seated",
                       {"round": round_row.number, "table": t.number, "reason": reason, "later": later.number})
    return Done.of("round {round}, table {table}: result corrected ({reason}); the standings follow it",
                   {"round": round_row.number, "table": t.number, "reason": reason})


@dataclass(frozen=True)
class CorrectionView:
    round: int
    table: int
    game_id: int
    reason: str
    at: datetime
    ranking: list  # (place, name, assets)


def corrections(tournament_id: int) -> list[CorrectionView]:
    """Every correction of the tournament, oldest first (a later one for the same table replaces it)."""
    row = get_tournament(tournament_id)
    out = [CorrectionView(r.number, t.number, t.game_id, c.reason, c.created_at,
                          [(p["rank"], p["name"], p["total"]) for p in c.result["ranking"]])
           for r in row.rounds for t in r.tables for c in t.corrections]
    return sorted(out, key=lambda c: c.at)
