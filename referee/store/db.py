"""The database extensions, bound to the app in create_app."""
import threading
from collections.abc import Sequence
from pathlib import Path

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event, insert
from sqlalchemy.engine import Engine, Row
from sqlalchemy.orm import Session

from ..cache import STATEMENTS, kept_in
from .backup import owner_only

db = SQLAlchemy()
migrate = Migrate()
READ_ONCE = "referee.read_once"
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


def read_once(name: str) -> dict:
    """What the session's unit of work has read under ``name`` (a live poll asks for a tournament's roster four
    times, for its games' rows twice): kept with the session until it writes anything, commits or rolls back, so
    a value found here is the one the database would give now, as far as this session can see."""
    if db.session.new or db.session.dirty or db.session.deleted:  # changes not yet written: read afresh
        db.session.info.pop(READ_ONCE, None)
    return db.session.info.setdefault(READ_ONCE, {}).setdefault(name, {})


def insert_rows(model: type, rows: list[dict] | dict) -> None:
    """Write ``rows`` (columns by name) of ``model``'s table in the session's transaction as rows, past the ORM's unit
    of work (committed with the session; nothing in it reads them back as objects): what was read once is let go, as
    a flush lets it go.  A row a unique key refuses raises the database's IntegrityError here."""
    if not rows:  # (an INSERT of no rows would write one of its defaults)
        return
    db.session.info.pop(READ_ONCE, None)
    db.session.connection().execute(_insert_of(model.__table__), rows)  # type: ignore[attr-defined]


def read_rows(statement, values: dict) -> Sequence[Row]:
    """The rows of a statement of plain columns (no objects of the session), read through the session's connection
    past the ORM's handling of a statement: a live poll's reads of a round's tables and a roster of 512 players take
    a third less (the roster 0.48 ms where 0.75).  Changes not yet written are written first, as the session's own
    queries write them."""
    if db.session.new or db.session.dirty or db.session.deleted:
        db.session.flush()
    return db.session.connection().execute(statement, values).all()


@kept_in(STATEMENTS)
def _insert_of(table):
    """The INSERT of ``table``'s columns (those a row gives; the rest take their defaults): built once."""
    return insert(table)


@event.listens_for(Session, "after_flush")
@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_soft_rollback")
def _forget_what_was_read(session: Session, *_) -> None:
    session.info.pop(READ_ONCE, None)


@event.listens_for(Session, "do_orm_execute")
def _forget_before_a_write(state) -> None:
    """An UPDATE or DELETE sent through the session (a revoke, a clean-up) changes what was read, as a flush does."""
    if state.is_update or state.is_delete or state.is_insert:
        state.session.info.pop(READ_ONCE, None)


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
