"""The database extensions, bound to the app in create_app."""
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Connection, event, insert
from sqlalchemy import exc as sqlalchemy_exc
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.orm import Session

from ..cache import PLAIN_STATEMENTS, STATEMENTS, kept_in
from .backup import owner_only

db = SQLAlchemy()
migrate = Migrate()
READ_ONCE = "referee.read_once"
WROTE = "referee.wrote"  # the session's unit of work has written rows not yet committed
COMMITS_AT_BEGIN = "referee.commits_at_begin"
_commits = 0  # the commits made by this process's sessions so far (a count only ever raised)
_counting = threading.Lock()  # (two threads' commits are two counts)


def commits() -> int:
    """How many commits this process's sessions have made: a value read while it stays the same was read with
    nothing changed by this process since (a write of another process is not counted)."""
    return _commits


def commits_before_reading() -> int:
    """The count of :func:`commits` when the session's unit of work began (its first statement): what it reads is
    as new as that count at least, and may miss a commit counted after it (on SQLite a unit of work reads the
    database as it was at its first statement)."""
    return db.session.info.get(COMMITS_AT_BEGIN, _commits)


@event.listens_for(Session, "after_begin")
def _count_at_begin(session: Session, *_) -> None:
    session.info[COMMITS_AT_BEGIN] = _commits


@event.listens_for(Session, "after_commit")
def _counted(session: Session) -> None:
    """Counted once the database holds the commit (a reader that sees the new count reads what it wrote)."""
    global _commits
    with _counting:
        _commits += 1


def unwritten() -> bool:
    """Whether the session's unit of work holds changes not yet written (objects added, changed or deleted)."""
    return bool(db.session.new or db.session.dirty or db.session.deleted)


def uncommitted() -> bool:
    """Whether the session's unit of work holds changes not yet committed: changes not yet written, or rows written
    (a flush, or an INSERT, UPDATE or DELETE sent through it) not yet committed.  What it reads then may be rolled
    back: a value read is not kept under what names it in the database's committed state."""
    return unwritten() or bool(db.session.info.get(WROTE))


def read_once(name: str) -> dict:
    """What the session's unit of work has read under ``name`` (a live poll asks for a tournament's roster four
    times, for its games' rows twice): kept with the session until it writes anything, commits or rolls back, so
    a value found here is the one the database would give now, as far as this session can see."""
    if unwritten():  # read afresh
        db.session.info.pop(READ_ONCE, None)
    return db.session.info.setdefault(READ_ONCE, {}).setdefault(name, {})


def insert_rows(model: type, rows: list[dict] | dict) -> None:
    """Write ``rows`` (columns by name) of ``model``'s table in the session's transaction as rows, past the ORM's unit
    of work (committed with the session; nothing in it reads them back as objects): what was read once is let go, as
    a flush lets it go.  A row a unique key refuses raises the database's IntegrityError here."""
    if not rows:  # (an INSERT of no rows would write one of its defaults)
        return
    db.session.connection().execute(_insert_of(model.__table__), rows)  # type: ignore[attr-defined]
    _wrote(db.session)


def _written_first() -> Connection:
    """The session's connection, the changes not yet written written first, as the session's own queries write
    them (a read past the ORM sees what this unit of work changed)."""
    if unwritten():
        db.session.flush()
    return db.session.connection()


def read_plain(statement, values: dict, connection: Connection | None = None) -> Sequence[Sequence[Any]]:
    """The rows of ``statement``, a kept statement of plain columns (built once: ``kept_in(STATEMENTS)``) whose values
    are all given, read straight through the database driver's cursor on ``connection`` (else the session's): its
    SQL compiled once for each kind of database, each value and column converted as SQLAlchemy converts them
    (a time kept as text by SQLite read as a datetime).  The hottest reads (a device's grants on every request, a
    poll's one statement) spent two thirds of their time in SQLAlchemy's steps around the driver (46 us against the
    driver's 13 in one thread: benchmarks/NOTES.md).

    Read the usual way, through ``connection.execute``: a statement this cannot send as it is (a list expanded into
    it at each execution, a name the driver cannot take), a connection whose statements something listens to (the
    tests that count them, the drills that fail them).  The driver's refusal is raised as SQLAlchemy raises it (its
    kind of error, the driver's error within), a connection the server closed let go as SQLAlchemy lets it go."""
    if connection is None:
        connection = _written_first()
    heard = (connection.dispatch.before_cursor_execute or connection.dispatch.after_cursor_execute
             or connection.dispatch.before_execute or connection.dialect.dispatch.handle_error)
    plain = None if heard else _plain(statement, connection.dialect)
    if plain is None:
        return connection.execute(statement, values).all()
    driver = connection.connection.dbapi_connection
    parameters = plain.parameters(values)
    cursor = driver.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(plain.sql, parameters)
        rows, description = cursor.fetchall(), cursor.description
    except connection.dialect.loaded_dbapi.Error as refused:
        gone = connection.dialect.is_disconnect(refused, driver, cursor)
        if gone:
            connection.invalidate(refused)  # (a connection the server closed is let go, as SQLAlchemy lets it go)
        raise sqlalchemy_exc.DBAPIError.instance(
            plain.sql, parameters, refused, connection.dialect.loaded_dbapi.Error, connection_invalidated=gone,
            dialect=connection.dialect) from refused
    finally:
        cursor.close()
    return plain.rows(rows, description)


@dataclass(frozen=True)
class _Plain:
    """A statement as its driver takes it (:func:`read_plain`)."""

    compiled: Any  # SQLAlchemy's compiled statement: its columns' types
    dialect: Dialect
    sql: str
    # each value the SQL takes: its name there, the name it is given by, its parameter (a fixed value's: a limit's)
    # and its conversion for the driver (None: as given)
    binds: tuple[tuple[str, str, Any, Callable[[Any], Any] | None], ...]
    order: tuple[str, ...] | None  # the values' names in the order the SQL takes them (None: by name)
    # the columns converted (where each is in a row, and its conversion; the others are as the driver reads them), by
    # the types the driver said it read (a driver's conversion may depend on them: PostgreSQL's numbers)
    results: dict[tuple, tuple[tuple[int, Callable[[Any], Any]], ...]] = field(default_factory=dict)

    def parameters(self, values: dict) -> tuple | dict:
        """The values for the driver: each given by its name, else the statement's own (a limit's), converted as
        SQLAlchemy converts them (its ``construct_params``, without its steps for statements cached by their shape:
        a third of a poll's statement's time in the driver)."""
        given = {}
        for name, key, bind, convert in self.binds:
            if key in values:
                value = values[key]
            elif bind.required:
                raise sqlalchemy_exc.InvalidRequestError(f"A value is required for bind parameter {key!r}")
            else:
                value = bind.effective_value if bind.callable else bind.value
            given[name] = value if convert is None else convert(value)
        return given if self.order is None else tuple(given[name] for name in self.order)

    def rows(self, rows: Sequence[Sequence[Any]], description: Sequence[Sequence[Any]]) -> Sequence[Sequence[Any]]:
        """The driver's rows, each column SQLAlchemy converts converted (a time SQLite keeps as text read as a
        datetime), the others left as the driver read them: only those columns are gone through (at 640 tables the
        version's rows are 11 columns of which 2 are converted; going through all of them, value by value, was a
        fifth of the director's changed poll, benchmarks/NOTES.md)."""
        said = tuple(column[1] for column in description)
        converted = self.results.get(said)
        if converted is None:
            converts = (column.type.dialect_impl(self.dialect).result_processor(self.dialect, code)
                        for column, code in zip(self.compiled.statement.selected_columns, said, strict=True))
            converted = self.results.setdefault(said, tuple(
                (at, convert) for at, convert in enumerate(converts) if convert is not None))
        if not converted:
            return rows
        out = []
        for row in rows:
            values = list(row)
            for at, convert in converted:
                value = values[at]
                if value is not None:
                    values[at] = convert(value)
            out.append(tuple(values))
        return out


def _plain(statement, dialect: Dialect) -> _Plain | None:
    """``statement`` compiled for ``dialect`` (kept: the statements given are kept themselves); None where it cannot
    be sent as it is."""
    key = (id(statement), type(dialect))
    found = PLAIN_STATEMENTS.get(key)
    if found is not None and found[0] is statement:
        return found[1]
    compiled = statement.compile(dialect=dialect)
    binds = tuple((name, bind.key, bind, bind.type.dialect_impl(dialect).bind_processor(dialect))
                  for bind, name in compiled.bind_names.items())
    sendable = not (compiled.literal_execute_params or compiled.post_compile_params or compiled.escaped_bind_names)
    plain = _Plain(compiled, dialect, str(compiled), binds,
                   tuple(compiled.positiontup) if compiled.positional else None) if sendable else None
    PLAIN_STATEMENTS.keep(key, (statement, plain))
    return plain


@kept_in(STATEMENTS)
def _insert_of(table):
    """The INSERT of ``table``'s columns (those a row gives; the rest take their defaults): built once."""
    return insert(table)


@event.listens_for(Session, "after_transaction_end")
def _nothing_written(session: Session, transaction) -> None:
    """The session's transaction ended (committed, rolled back or closed): the next has written and read nothing.
    Not a flush's own inner transaction, which ends inside it (after the flush has set what it wrote)."""
    if transaction.parent is None:
        session.info.pop(WROTE, None)
        session.info.pop(READ_ONCE, None)


@event.listens_for(Session, "after_flush")
def _wrote(session: Session, *_) -> None:
    """The session wrote rows (a flush, or a write sent past it: :func:`insert_rows`, :func:`_forget_before_a_write`):
    what was read once is let go, and what is read until the commit is read with them (:func:`uncommitted`)."""
    session.info.pop(READ_ONCE, None)
    session.info[WROTE] = True


@event.listens_for(Session, "do_orm_execute")
def _forget_before_a_write(state) -> None:
    """An INSERT, UPDATE or DELETE sent through the session (a revoke, a clean-up) writes as a flush does."""
    if state.is_update or state.is_delete or state.is_insert:
        _wrote(state.session)


SQLITE_MAP_BYTES = 256 * 1024 * 1024  # the most of a SQLite database file read through a memory map


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record) -> None:  # pragma: no cover - driver detail
    """SQLite: its files readable and writable by their owner only (they hold the PIN hashes and the tournament
    tables' PINs: made so before SQLite writes to them, and the write-ahead log and its index then made with the
    database file's mode); write-ahead log (readers never block the writer); every commit on the disk before it
    returns (synchronous=FULL: a recorded entry survives the power cut that follows it, which NORMAL does not
    promise in WAL mode); foreign keys on; its pages read through a memory map of the file (``mmap_size``, up to
    256 MB: a national final's records are a few tens of megabytes) rather than copied by a system call each: every
    commit (twenty a second in a room of 64 tables) has each other connection drop its page cache at its next read,
    and re-read the pages it needs; mapped, that costs some 7% less of the server's time a request under a room's
    load (benchmarks/NOTES.md).  SQLite writes through the file, never through the map, so a full disk is the
    refused write it always was; an I/O error while reading the map ends the worker process (SQLite cannot catch
    it), which ``referee serve`` starts again, every recorded entry being on the disk before its answer."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        for _, name, path in cursor.execute("PRAGMA database_list").fetchall():
            if name == "main" and path:  # "" for a database in memory
                owner_only(Path(path))
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA mmap_size={SQLITE_MAP_BYTES}")
        cursor.close()
