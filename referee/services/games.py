"""A game's record: create it, check its PIN, record an entry, redo, export and import, archive and delete.

Every recorded entry is checked by the engine against the state its tablet saw (``expected_seq``: how many
entries the table had), then written as one committed row; a (game, seq) pair can be written once only, so a
double tap, a second tablet or a retried request can never record a fact twice.  The key a screen's form carries
(``services.entry_keys``) tells a form sent again that its entries were recorded, once.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ..engine import chain
from . import rulesets
from ..store.db import db, insert_rows
from ..engine import (MAX_NAME, MAX_PLAYERS, MAX_TITLE, Game, GameState, Outcome, RecordError, RefereeError,
                      RulesetError, json_whole, LARGEST, NotWhole, parse_entry, new_header, resolve, stake_refusal,
                      text_problem, whole_field, whole_number)
from ..store.models import EntryRow, GameRow, RoundRow, TableRow, TournamentRow
from . import archive, entry_keys, record_file, rulings, signoffs
from .clocks import naive_utc, pause, utcnow
from .errors import BadGameSetup, GameNotFound, NotDeletable, NothingToRedo, RecordAltered, StaleEntry
from .folds import Fold, LoadedGame, forget, game_lock, head_values, keep_recorded, load, result_of
from .pins import matches, pin_hash

# The limits a game record holds its texts to are the engine's: the forms check a title and the names against
# them before a game is made (the record refuses them all the same), asking this service, as the web asks no rules;
# so are the numbers a form or an address carries, their length bounded before they are read.
__all__ = ["MAX_NAME", "MAX_PLAYERS", "MAX_TITLE", "Applied", "check", "check_pin", "create_game", "delete_game", "export_record",
           "import_record", "json_whole", "list_games", "new_game", "record", "record_run", "record_taps", "redo",
           "set_game_archived", "table_of_game", "text_problem", "tournament_of_game", "whole_field",
           "LARGEST", "NotWhole", "whole_number"]


def new_game(title: str, ruleset_id: str, players: list[str], seating: str, pin: str,
              time_limit_minutes: int | None = None, options: dict | None = None,
              pin_kept_in_plain: bool = False) -> GameRow:
    """A new game's row, added to the session and not committed (a round seats all its tables or none);
    ``pin_kept_in_plain``: its PIN is a tournament table's own, kept on its table's row (:func:`pins.pin_hash`)."""
    try:
        header = new_header(ruleset_id, players, seating, title, options)
        ruleset = rulesets.for_header(header)
    except (RecordError, RulesetError) as exc:
        raise BadGameSetup(str(exc).removeprefix("line 1: ")) from None
    stake = stake_refusal(ruleset, header.players)  # a finite bank that cannot pay everyone's start money
    if stake is not None:
        pattern = stake.pattern  # the engine's (extracted where the engine makes it)
        raise BadGameSetup.of(pattern, stake.params, stake.state, code=stake.code, rule=stake.rule)
    row = GameRow(title=title, header=header.to_dict(), pin_hash=pin_hash(pin, kept_in_plain=pin_kept_in_plain),
                  time_limit_minutes=time_limit_minutes)
    db.session.add(row)
    db.session.flush()
    forget(row.id)  # a database made anew may reuse a game id
    return row


def create_game(title: str, ruleset_id: str, players: list[str], seating: str, pin: str,
                time_limit_minutes: int | None = None, options: dict | None = None) -> int:
    """A new game; :class:`BadGameSetup` naming what is wrong."""
    row = new_game(title, ruleset_id, players, seating, pin, time_limit_minutes, options)
    db.session.commit()
    return row.id


def check_pin(game_id: int, pin: str) -> bool:
    """The game's own referee PIN."""
    row = db.session.get(GameRow, game_id)
    return row is not None and matches(row.pin_hash, pin)


def list_games(archived: bool | None = None) -> list[GameRow]:
    """Games, newest first: all of them, or only those archived (True) or not (False)."""
    query = select(GameRow).order_by(GameRow.id.desc())
    if archived is not None:
        query = query.where(GameRow.archived == archived)
    return list(db.session.scalars(query))


def tournament_of_game(game_id: int) -> int | None:
    """The tournament that seated the game, if any."""
    return db.session.execute(select(RoundRow.tournament_id).join(TableRow, TableRow.round_id == RoundRow.id)
                              .where(TableRow.game_id == game_id)).scalar()


def table_of_game(game_id: int) -> tuple[str, int, int] | None:
    """(tournament name, round number, table number) of a game seated by a tournament, else None."""
    found = db.session.execute(
        select(TournamentRow.name, RoundRow.number, TableRow.number)
        .join(RoundRow, RoundRow.tournament_id == TournamentRow.id)
        .join(TableRow, TableRow.round_id == RoundRow.id)
        .where(TableRow.game_id == game_id)).first()
    return None if found is None else (found[0], found[1], found[2])


def set_game_archived(game_id: int, archived: bool) -> None:
    """Archive a game (off the games list; every page and its record stay) or bring it back."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound.of("no game {game}", {"game": game_id})
    if tournament_of_game(game_id) is not None:
        raise NotDeletable.of("a tournament's table is archived or deleted with its tournament")
    row.archived = archived
    db.session.commit()


def delete_game(game_id: int) -> Path:
    """Delete a game and its entries, after writing its whole record to ``RECORDS_DIR``/deleted/ (no recorded
    fact is lost); the file's path."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound.of("no game {game}", {"game": game_id})
    if tournament_of_game(game_id) is not None:
        raise NotDeletable.of("a tournament's table is archived or deleted with its tournament")
    records = archive.current()
    folder = records.deleted_folder()  # refused before anything is written when no records folder is kept
    path = records.write(folder, f"game-{game_id}-{utcnow():%Y%m%d-%H%M%S}.jsonl", export_record(game_id))
    db.session.delete(row)
    db.session.commit()
    forget(game_id)
    return path


@dataclass(frozen=True)
class Applied:
    """What an act of the referee did to a table: each entry's outcome, the game (its fold, after the entries
    when they were recorded), the state the first entry was judged on, and how many entries the table had before
    them.  The screen that tells the referee what happened reads this and loads nothing again."""

    outcomes: list[Outcome]
    game: Game
    before: GameState
    seq: int
    # the table as the recorded entries left it (its row, their fold, its seat), which a screen is drawn from; None
    # for an act that stored nothing (a check)
    after: LoadedGame | None = None

    @property
    def outcome(self) -> Outcome:
        return self.outcomes[-1]


def record(game_id: int, data: dict, expected_seq: int, key: str | None = None) -> Applied:
    """Check an entry and write it, or raise (:class:`StaleEntry`, :class:`MalformedEntry`,
    :class:`IllegalEntry`) and change nothing.  ``key``: the key of the screen's form (``entry_keys``), kept with
    the entry; the same key sent again raises :class:`entry_keys.AlreadyRecorded` (or :class:`KeyReused`)."""
    entry = parse_entry(data)
    return _record_all(game_id, expected_seq, lambda _: [entry], key, [entry.to_dict()])


def record_run(game_id: int, data: list[dict], expected_seq: int, key: str | None = None) -> Applied:
    """Record entries one after the other as one act of the referee (a decline and the auction's opening bid):
    each is checked against the table the one before leaves, and either all are written or none."""
    entries = [parse_entry(d) for d in data]
    return _record_all(game_id, expected_seq, lambda _: entries, key, [e.to_dict() for e in entries])


def record_taps(game_id: int, data: list[dict], keys: list[str], expected_seq: int,
                times: list[int | None] | None = None, afters: list[int] | None = None,
                also: Callable[[Game], object] | None = None) -> Applied:
    """Record taps made one after the other on a tablet (each its own form, with its own key: a table's tablet that
    kept them while the server could not be reached), in one commit: each checked against the table the one before
    leaves, and either all are written, each key kept with its entry as that tap's form would have kept it, or
    none.  The caller has found every key new (a key kept already raises :class:`StaleEntry` at the commit).
    ``times``: when each tap was made, by the tablet's clock (seconds since 1970, UTC; None: when it is stored);
    ``afters``: the number of entries each tap followed on the tablet, which its key is kept with (a run the server
    puts entries of its own in front of: the same run sent again is known by it), else where it is recorded.
    ``also(game)``: what is written in the same commit, the taps recorded in ``game`` (the referee's ruling on
    them)."""
    entries = [parse_entry(d) for d in data]
    each = [(key, entry_keys.body(afters[i] if afters else expected_seq + i, [entry.to_dict()]))
            for i, (key, entry) in enumerate(zip(keys, entries, strict=True))]
    return _record_all(game_id, expected_seq, lambda _: entries, keys_each=each, times=times, also=also)


def tablet_time(at: int | None, earliest: datetime | None, now: datetime) -> datetime:
    """When an entry kept on a tablet was made, as it is stored: the tablet's clock (``at``, seconds since 1970,
    UTC), but never before the entry stored before it (``earliest``) nor after the moment it is stored (``now``):
    a tablet's clock may be wrong, and a record's times only go forward.  None: ``now``."""
    if at is None:
        return now
    moment = datetime.fromtimestamp(at, timezone.utc).replace(tzinfo=None)
    if earliest is not None and moment < earliest:
        moment = earliest
    return min(moment, now)


def _record_all(game_id: int, expected_seq: int, entries_of, key: str | None = None, asked: object = None,
                keys_each: list[tuple[str, str]] | None = None, times: list[int | None] | None = None,
                also: Callable[[Game], object] | None = None) -> Applied:
    """Write the entries ``entries_of(table)`` names, in turn, on the table this screen showed (``expected_seq``):
    all of them, or none (the first refusal is raised and the fold read again).  A form's ``key`` already kept
    with entries of the game raises before anything else is looked at (a form sent again is stale by then);
    a new one is kept with these entries, in their commit.  ``asked``: what the form asks, as its digest.
    ``keys_each``: a key and its digest for each entry instead (taps kept on a tablet, each its own form);
    ``times``: when each was made on the tablet (:func:`tablet_time`); ``also(game)``: what else the commit
    writes, the entries recorded in ``game``."""
    digest = entry_keys.body(expected_seq, asked) if key is not None else ""
    with game_lock(game_id):
        if key is not None:
            entry_keys.repeat(game_id, key, digest)
        loaded = load(game_id)
        if expected_seq != loaded.seq:
            raise StaleEntry.behind(expected_seq, loaded.seq)
        if loaded.altered is not None:
            raise RecordAltered.of("the record was altered at entry {n}: nothing more is recorded in this game "
                                   "(export it: the good entries can be imported as a new game)",
                                   {"n": loaded.altered.at})
        entries = entries_of(loaded)
        outcomes: list[Outcome] = []
        before = loaded.game.state  # a service's fold makes a new state for each entry: this one stays as it is
        game = loaded.game.copy()  # the kept fold stays as it is, for every reader, until these entries are stored
        head = loaded.fold.head
        now = utcnow()
        # the row as the commit leaves it: as read (a clock another tablet starts meanwhile is the next poll's news)
        row_after = loaded.row
        written: GameRow | None = None  # the session's object of the row, read where this record writes to it, once
        earliest = _naive(db.session.scalar(select(func.max(EntryRow.recorded_at)).where(
            EntryRow.game_id == game_id))) if times else None
        try:
            rows = []
            for n, entry in enumerate(entries):
                outcomes.append(game.record(entry))  # raises before changing anything
                data = json.dumps(entry.to_dict(), ensure_ascii=False)
                head = chain.link(head, len(game.entries), data)
                moment = tablet_time(times[n] if times else None, earliest, now)
                earliest = moment if times and times[n] is not None else earliest  # the server's own: no bound
                rows.append({"game_id": game_id, "seq": len(game.entries), "data": data, "hash": head,
                             "recorded_at": moment})
                stops = outcomes[-1].state.over or outcomes[-1].state.time_called  # the game clock stops with them
                if stops and row_after.clock_started_at is not None:  # (a clock stopped already: nothing written)
                    written = written or _written(game_id)
                    pause(written, utcnow())
                    row_after = head_values(written)  # the clock as this record stops it
            # written as rows, not objects: nothing reads them back as objects in this unit of work (the fold is the
            # game), and the ORM's unit of work was a fifth of a record's server time
            insert_rows(EntryRow, rows)
            if key is not None:
                entry_keys.keep(game_id, key, digest, expected_seq + 1, len(entries))
            for n, (each_key, each_digest) in enumerate(keys_each or (), start=expected_seq + 1):
                entry_keys.keep(game_id, each_key, each_digest, n, 1)
            ended = game.state.over
            if ended or before.over:  # kept when it ends (again); taken away when a void takes back its end
                written = written or _written(game_id)
                written.result = result_of(game, head) if ended else None
            if also is not None:
                also(game)
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            forget(game_id)  # another process stored entries: the next read carries the fold forward over them
            if key is not None:  # another process took the same form's key at the same moment: it recorded it
                entry_keys.repeat(game_id, key, digest)
            raise StaleEntry.of("another tablet recorded an entry at the same moment: nothing was recorded; look at "
                                "the table again") from None
        except BaseException:
            db.session.rollback()
            raise
        stored = Fold(game, head, loaded.fold.stored + len(entries), None, loaded.fold.created)
        keep_recorded(game_id, stored)
        if ended:
            archive.current().keep_finished(game_id, lambda: export_record(game_id))
    return Applied(outcomes, game, before, expected_seq, LoadedGame(row_after, stored, loaded.seat))


def _written(game_id: int) -> GameRow:
    """The session's object of the game's row, which what a record changes in it is written through (the row was
    read, under the game's lock, as values: :func:`folds.load`)."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound.of("no game {game}", {"game": game_id})
    return row


def check(game_id: int, data: dict, expected_seq: int) -> Applied:
    """What an entry would bring about now, without recording it (the trade builder's check)."""
    entry = parse_entry(data)
    loaded = load(game_id)
    if expected_seq != loaded.seq:
        raise StaleEntry.of("this screen showed the table after entry {seen}, but it is now at entry {now}: look at "
                            "the table again", {"seen": expected_seq, "now": loaded.seq})
    return Applied([resolve(loaded.game.state, entry)], loaded.game, loaded.game.state, expected_seq)


def redo(game_id: int, expected_seq: int, key: str | None = None) -> Applied:
    """Record again, as new entries, the run of entries the latest entry (a void) took back: each is checked
    against the table as it now is, and either all are written or none (:class:`IllegalEntry` naming the first
    that no longer stands)."""
    def voided(loaded: LoadedGame) -> list:
        entries = loaded.game.redoable()
        if not entries:
            raise NothingToRedo.of("there is nothing to redo: only the run of entries taken back by the latest "
                                   "entry, a void, can be recorded again")
        return entries

    return _record_all(game_id, expected_seq, voided, key, "redo")


def recorded_times(game_id: int, n: int) -> tuple[datetime | None, datetime | None]:
    """When entry ``n`` of the game and the one before it were stored (UTC, naive as the rows keep them; None for
    one not stored): what the dispute view can say of the time, the game clock's starts and pauses not being kept
    with the entries."""
    times = {seq: at for seq, at in db.session.execute(select(EntryRow.seq, EntryRow.recorded_at).where(
        EntryRow.game_id == game_id, EntryRow.seq.in_((n - 1, n))))}
    return _naive(times.get(n)), _naive(times.get(n - 1))


def _naive(moment: datetime | None) -> datetime | None:
    return None if moment is None else naive_utc(moment)


def export_record(game_id: int) -> str:
    """The record file: the header, every stored entry, then the game's rulings.  The chain is checked on a fresh read; of a record
    altered at entry N, the entries from N on follow as they are stored (nothing stored is left out), so a replay
    of the file stops there too."""
    forget(game_id)
    loaded = load(game_id)
    lines = loaded.game.to_lines()
    if loaded.altered is not None:
        for seq, data in db.session.execute(select(EntryRow.seq, EntryRow.data).where(
                EntryRow.game_id == game_id, EntryRow.seq >= loaded.altered.at).order_by(EntryRow.seq)):
            try:
                lines.append(json.dumps({"seq": seq, **json.loads(data)}, ensure_ascii=False))
            except (ValueError, TypeError, RecursionError):
                lines.append(data.replace("\n", " "))
    # after the entries: a replay reads past them (record_file.split)
    lines += rulings.export_lines(game_id) + signoffs.export_lines(loaded)
    return "\n".join(lines) + "\n"


HEADER_SAME = ("ruleset", "options", "players", "seating", "position")  # what makes a record's game (its title aside)


def continue_from_file(game_id: int, text: str) -> int:
    """A record file's entries after the game's own, recorded in the game in one commit (the hash chain continued),
    each checked as a tap is: the file a tablet saved while the table's server could not be reached, or a game
    refereed on a tablet alone for this table.  The file is read whole first (every entry replayed, its chain line
    checked); its game must be this one (the same ruleset, options, players in seat order, order of play and set-up
    position: its title aside), and its first entries this game's.  How many entries were recorded; a
    :class:`RecordError` naming the line that is not this game's, and nothing recorded."""
    try:
        found = record_file.read(text)
    except RulesetError as exc:
        raise RecordError(1, str(exc), code="bad_header") from None
    loaded = load(game_id)
    if loaded.altered is not None:
        raise RecordAltered.of("the record was altered at entry {n}: nothing more is recorded in this game",
                               {"n": loaded.altered.at})
    ours, theirs = loaded.game.header.to_dict(), found.header.to_dict()
    for field in HEADER_SAME:
        if ours.get(field) != theirs.get(field):
            raise _not_this_game(1, RefereeError.of(
                "the file's game is not this table's: its {field} is {theirs}, this table's is {ours}",
                {"field": field, "theirs": _header_value(theirs.get(field)), "ours": _header_value(ours.get(field))}))
    stored = [entry.to_dict() for entry in loaded.game.entries]
    filed = [entry.to_dict() for entry in found.game.entries]
    for n, (mine, other) in enumerate(zip(stored, filed), start=1):
        if mine != other:
            raise _not_this_game(n + 1, RefereeError.of(
                "the file's entry {n} is not this table's entry {n}: the file is of another game, or of this one "
                "before a correction", {"n": n}))
    if len(filed) < len(stored):
        raise _not_this_game(len(filed) + 1, RefereeError.of(
            "the file has {count} entries, this table {stored}: the table has gone on since the file was saved; "
            "nothing is recorded from it", {"count": len(filed), "stored": len(stored)}))
    rest = filed[len(stored):]
    if rest:
        record_run(game_id, rest, len(stored))
    return len(rest)


def _header_value(value: object) -> str:
    """A header's value in a message: as JSON, shortened."""
    return json.dumps(value, ensure_ascii=False)[:120]


def _not_this_game(line: int, why: RefereeError) -> RecordError:
    return RecordError(line, why.message, code="not_this_game", refusal=why)


def import_record(text: str, pin: str) -> int:
    """A new game from a record file (every entry is checked by replaying it)."""
    try:
        found = record_file.read(text)
    except RulesetError as exc:
        raise BadGameSetup(str(exc)) from None
    header, game = found.header, found.game
    title = header.meta.get("title", "")
    row = GameRow(title=(title if isinstance(title, str) else "")[:MAX_TITLE], header=header.to_dict(),
                  pin_hash=pin_hash(pin))
    db.session.add(row)
    db.session.flush()
    texts = record_file.entry_texts(game)
    heads = chain.heads(row.header, texts)
    for seq, (data, hash_) in enumerate(zip(texts, heads), start=1):
        db.session.add(EntryRow(game_id=row.id, seq=seq, data=data, hash=hash_))
    try:
        rulings.import_rulings(row.id, found.sides.rulings, game.ruleset.clauses, len(game.entries))
        signoffs.import_sign_offs(row.id, found.sides.signoffs, row.header, heads,
                                  [p.name for p in game.state.players], record_file.over_after(game))
    except RecordError:
        db.session.rollback()
        raise
    head = heads[-1] if heads else chain.genesis(row.header)
    row.result = result_of(game, head) if game.state.over else None
    db.session.commit()
    if game.state.over:
        archive.current().keep_finished(row.id, lambda: export_record(row.id))
    forget(row.id)
    return row.id
