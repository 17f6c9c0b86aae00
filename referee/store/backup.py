"""Backups of the app's database, and restoring one.

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) copies the database in one read transaction,
so a backup taken while the app is serving is a consistent snapshot (write-ahead log: the backup never blocks the
tablets, and an entry not yet committed is not in it).  The copy is written beside its final name, checked
(``PRAGMA integrity_check``, the games and entries in it), made a single self-contained file (rollback journal),
then given its name.  Restoring runs the same API the other way, from the backup file into the live database,
as one write transaction: every other connection sees the database before or after, never in between.

PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore --clean --if-exists --single-transaction --no-owner``
(the PostgreSQL client tools), run on the libpq form of the app's SQLAlchemy URL (the password, if any, is passed
in ``PGPASSWORD``, never on the command line).

Every function takes a database URL (as in ``SQLALCHEMY_DATABASE_URI``) and paths, and returns a small result;
what goes wrong is a :class:`BackupError` whose message is one line, and a refused restore changes nothing.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy.engine import URL, make_url

INSTANCE = Path(__file__).resolve().parents[2] / "instance"  # the project's instance folder (referee/app)
NAMED_INSTANCE = "REFEREE_INSTANCE"  # the environment's name for another (each of several hosts keeps its own)


def instance_folder() -> Path:
    """The app's instance folder (its config.py, secret key, organiser's password, records, backups and SQLite file):
    the folder ``REFEREE_INSTANCE`` names, else the project's ``instance/``.  Read by the app, its backups and its
    commands alike, so that a host's commands work on that host's folder."""
    named = os.environ.get(NAMED_INSTANCE)
    return Path(named).expanduser().resolve() if named else INSTANCE
REQUIRED_TABLES = ("games", "entries")
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
TIMEOUT_SECONDS = 30.0  # how long a backup or a restore waits for a lock another connection holds
RESTORE_OPTIONS = ("--clean", "--if-exists", "--single-transaction", "--no-owner")
INSTALL_HINT = "install the PostgreSQL client tools (Debian: apt install postgresql-client) and run again"


class BackupError(Exception):
    """A backup or a restore that could not be done; its message is one line."""


class ToolMissing(BackupError):
    """pg_dump or pg_restore is not on PATH."""


class NotABackup(BackupError):
    """The file given to restore is not a backup of a referee database: nothing was changed."""


class Busy(BackupError):
    """Another connection held the database's lock for longer than the timeout: nothing was changed."""


@dataclass(frozen=True)
class Counts:
    games: int
    entries: int
    tournaments: int

    def __str__(self) -> str:
        def n(k: int, one: str, many: str) -> str:
            return f"{k:,} {one if k == 1 else many}"

        return (f"{n(self.games, 'game', 'games')}, {n(self.entries, 'entry', 'entries')}, "
                f"{n(self.tournaments, 'tournament', 'tournaments')}")


@dataclass(frozen=True)
class Check:
    """What a backup (or the database after a restore) was found to hold."""

    integrity: str  # "ok", or the first problem SQLite's integrity check found; for a dump, "ok" once it reads
    counts: Counts
    schema: str | None = None  # the Alembic revision in it

    @property
    def ok(self) -> bool:
        return self.integrity == "ok"

    def __str__(self) -> str:
        schema = f" (schema {self.schema})" if self.schema else ""
        return f"integrity {self.integrity}; {self.counts}{schema}"


@dataclass(frozen=True)
class BackupResult:
    kind: str  # "sqlite" or "postgresql"
    path: Path
    size: int
    check: Check


@dataclass(frozen=True)
class RestorePlan:
    """What a restore would do: the backup (checked) and what it would replace (None: no database there yet)."""

    kind: str
    source: Path
    target: str  # the database, as shown (no password)
    backup: Check
    current: Counts | None


@dataclass(frozen=True)
class RestoreResult:
    plan: RestorePlan
    kept: Path | None  # a backup of the database the restore replaced
    check: Check  # the database after the restore


# --- which database -----------------------------------------------------------------------------------------


def database_url(instance: Path | None = None) -> str:
    """The database the app uses when run without a test configuration (as create_app reads it): ``DATABASE_URL``
    in the environment, else ``SQLALCHEMY_DATABASE_URI`` in instance/config.py, else instance/referee.sqlite.
    Read without starting the app, so a backup is of the database as it is (starting the app migrates it)."""
    from flask import Config

    instance = instance or instance_folder()
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    config = Config(str(instance))
    config.from_pyfile("config.py", silent=True)
    return config.get("SQLALCHEMY_DATABASE_URI") or f"sqlite:///{instance / 'referee.sqlite'}"


def as_url(text: str) -> str:
    """A database URL, or a path to a SQLite file (as the command line's ``--database`` takes either)."""
    return text if "://" in text else f"sqlite:///{Path(text).resolve()}"


def kind_of(url: str) -> str:
    try:
        backend = make_url(url).get_backend_name()
    except Exception:  # sqlalchemy.exc.ArgumentError, ValueError: not a URL at all
        raise BackupError(f"{url!r} is not a database URL") from None
    if backend == "sqlite":
        sqlite_file(url)  # (BackupError for a database in memory)
        return "sqlite"
    if backend == "postgresql":
        return "postgresql"
    raise BackupError(f"backups of {backend} databases are not supported (SQLite and PostgreSQL are)")


def sqlite_path(url: str) -> Path | None:
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).resolve()


def sqlite_file(url: str) -> Path:
    """The file of a SQLite database's URL; BackupError for a database in memory (:func:`kind_of` refuses it)."""
    path = sqlite_path(url)
    if path is None:
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return path


def shown(url: str) -> str:
    """The URL as printed: never its password."""
    return make_url(url).render_as_string(hide_password=True)


def backup_dir(instance: Path | None = None) -> Path:
    """Where backups go unless told: the app's instance/backups (``instance``: another instance folder), whatever
    database they are of (a SQLite file kept elsewhere, ``DATABASE_URL=sqlite:////media/ssd/referee.sqlite``, or
    PostgreSQL), as the README says; the scheduled backups' ``BACKUP_DIR`` is this folder by default too, so every
    backup of the day is in one place."""
    return (instance or instance_folder()) / "backups"


def default_backup_path(url: str, directory: Path | None = None, now: datetime | None = None,
                        label: str = "") -> Path:
    """``referee-YYYYmmdd-HHMMSS.sqlite`` (``.dump`` for PostgreSQL) in ``directory``, never a file that exists."""
    suffix = ".sqlite" if kind_of(url) == "sqlite" else ".dump"
    directory = directory or backup_dir()
    stem = f"referee-{(now or datetime.now()).strftime('%Y%m%d-%H%M%S')}{label}"
    path, n = directory / f"{stem}{suffix}", 1
    while path.exists() or _partial(path).exists():
        n += 1
        path = directory / f"{stem}-{n}{suffix}"
    return path


SIDE_FILES = ("-wal", "-shm", "-journal")  # what SQLite keeps beside a database file while it is open


def owner_only(path: Path) -> None:
    """A database file (and the write-ahead log, its index and the journal SQLite keeps beside it) readable and
    writable by its owner only, as a backup is: each holds the PIN hashes and the tournament tables' PINs.  SQLite
    makes the files beside a database with the database file's own mode.  A file that is not there is left so."""
    for file in (path, *(path.with_name(path.name + side) for side in SIDE_FILES)):
        try:
            if file.stat().st_mode & 0o077:
                file.chmod(0o600)
        except FileNotFoundError:
            continue


def _new_owner_only(path: Path) -> None:
    """``path`` as an empty file only its owner may read, made so before anything is written to it."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    path.chmod(0o600)  # a file left by an earlier run keeps its mode through O_CREAT


def _partial(path: Path) -> Path:
    return path.with_name(path.name + ".partial")


def _target(url: str, out: Path | None) -> Path:
    if out is None or out.is_dir():
        path = default_backup_path(url, out)
    else:
        path = out
        if path.exists():
            raise BackupError(f"{path} already exists: a backup never overwrites a file; choose another --out")
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True)
    return path


# --- backup -------------------------------------------------------------------------------------------------


def backup(url: str, out: Path | None = None, timeout: float = TIMEOUT_SECONDS) -> BackupResult:
    """Back the database up to ``out`` (a file that does not exist yet, or a folder; default: backup_dir)."""
    if kind_of(url) == "sqlite":
        return backup_sqlite(sqlite_file(url), out, timeout)
    return backup_postgresql(url, out)


def backup_sqlite(live: Path, out: Path | None = None, timeout: float = TIMEOUT_SECONDS) -> BackupResult:
    if not live.is_file():
        raise BackupError(f"there is no database at {live}")
    _sqlite_check(live, "the database")  # not a SQLite file at all: say so rather than copy it
    path = _target(f"sqlite:///{live}", out)
    partial = _partial(path)
    try:
        _new_owner_only(partial)  # it holds the PIN hashes and the tournament tables' PINs: never readable by others
        with contextlib.closing(sqlite3.connect(live, timeout=min(timeout, 1.0))) as src, \
                contextlib.closing(sqlite3.connect(partial)) as dst:
            _copy(src, dst, timeout, f"the database {live}")
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, whatever the live one's mode
        check = _sqlite_check(partial, "the backup")
        if not check.ok:
            raise BackupError(f"the backup failed its integrity check: {check.integrity}")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return BackupResult("sqlite", path, path.stat().st_size, check)


def _copy(src: sqlite3.Connection, dst: sqlite3.Connection, timeout: float, what: str) -> None:
    """SQLite's online backup of ``src`` into ``dst``, all pages in one step (so one consistent snapshot), waiting
    up to ``timeout`` seconds while another connection holds a lock it needs."""
    deadline = time.monotonic() + timeout

    def progress(status: int, remaining: int, total: int) -> None:
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) and time.monotonic() > deadline:
            raise Busy(f"{what} stayed locked by another connection for {timeout:g} seconds: nothing was changed; "
                       "try again")

    try:
        src.backup(dst, pages=-1, progress=progress, sleep=0.1)
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite could not copy {what}: {exc}") from None


def _connect_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def _sqlite_check(path: Path, what: str) -> Check:
    """Check a SQLite file is a referee database: SQLite's header, the games and entries tables, the integrity
    check (returned, not raised, so the caller says what it failed); raise :class:`NotABackup` otherwise."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise NotABackup(f"cannot read {path}: {exc.strerror}") from None
    if head != SQLITE_MAGIC:
        hint = " (it is a pg_dump file: restore it into PostgreSQL)" if head.startswith(PG_DUMP_MAGIC) else ""
        raise NotABackup(f"{path} is not a SQLite database{hint}")
    try:
        with contextlib.closing(_connect_ro(path)) as conn:
            tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = [t for t in REQUIRED_TABLES if t not in tables]
            if missing:
                raise NotABackup(f"{path} is a SQLite database but not a referee one: no {' or '.join(missing)} "
                                 f"table in {what}")
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            counts = _sqlite_counts(conn, tables)
            schema = conn.execute("SELECT version_num FROM alembic_version").fetchone() \
                if "alembic_version" in tables else None
    except sqlite3.DatabaseError as exc:  # a damaged file: "database disk image is malformed", ...
        raise NotABackup(f"{path} is not a readable SQLite database: {exc}") from None
    integrity = "ok" if problems == ["ok"] else (problems[0] if problems else "no answer")
    return Check(integrity, counts, schema[0] if schema else None)


def _sqlite_counts(conn: sqlite3.Connection, tables: set[str]) -> Counts:
    def count(table: str) -> int:
        return conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] if table in tables else 0

    return Counts(count("games"), count("entries"), count("tournaments"))


def _live_sqlite_counts(live: Path) -> Counts | None:
    """The live database's games and entries (None: no referee database there yet)."""
    if not live.is_file():
        return None
    try:
        with contextlib.closing(sqlite3.connect(live, timeout=5)) as conn:
            tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not set(REQUIRED_TABLES) <= tables:
                return None
            return _sqlite_counts(conn, tables)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"the database {live} cannot be read ({exc}): nothing was changed; to restore over it, "
                          "move it aside first") from None


# --- restore ------------------------------------------------------------------------------------------------


def plan_restore(url: str, source: Path) -> RestorePlan:
    """Check ``source`` is a backup of a referee database of the URL's kind and count what it would replace;
    change nothing (:class:`NotABackup` if it is not one)."""
    if not source.is_file():
        raise NotABackup(f"there is no file {source}")
    if kind_of(url) == "postgresql":
        check = _dump_check(source)
        return RestorePlan("postgresql", source, shown(url), check, _live_postgresql_counts(url))
    live = sqlite_file(url)
    if live.exists() and live.samefile(source):
        raise NotABackup(f"{source} is the database itself, not a backup of it")
    check = _sqlite_check(source, "the backup")
    if not check.ok:
        raise NotABackup(f"{source} failed SQLite's integrity check: {check.integrity}")
    return RestorePlan("sqlite", source, str(live), check, _live_sqlite_counts(live))


def restore(url: str, source: Path, keep: bool = True, keep_dir: Path | None = None,
            timeout: float = TIMEOUT_SECONDS) -> RestoreResult:
    """Replace the database with the backup ``source`` (checked first: :class:`NotABackup` changes nothing).
    With ``keep``, the database it replaces is backed up first (``referee-...-before-restore``, in ``keep_dir``,
    by default backup_dir)."""
    plan = plan_restore(url, source)
    kept = None
    if keep and plan.current is not None:
        kept = backup(url, default_backup_path(url, keep_dir, label="-before-restore"), timeout).path
    if plan.kind == "postgresql":
        _pg_run("pg_restore", [*RESTORE_OPTIONS, "--dbname", libpq_dsn(url)[0], str(source)], url)
        counts = _live_postgresql_counts(url)
        check = Check("ok" if counts is not None else "no games or entries table after the restore",
                      counts or Counts(0, 0, 0), plan.backup.schema)
    else:
        live = sqlite_file(url)
        live.parent.mkdir(parents=True, exist_ok=True)
        if not live.exists():
            _new_owner_only(live)
        owner_only(live)
        with contextlib.closing(_connect_ro(source)) as src, \
                contextlib.closing(sqlite3.connect(live, timeout=min(timeout, 1.0))) as dst:
            _copy(src, dst, timeout, f"the database {live}")
        check = _sqlite_check(live, "the database")
    if not check.ok or check.counts != plan.backup.counts:
        raise BackupError(f"the database after the restore is not the backup ({check}; the backup: {plan.backup})"
                          + (f"; the database it replaced is in {kept}" if kept else ""))
    return RestoreResult(plan, kept, check)


# --- PostgreSQL ---------------------------------------------------------------------------------------------


def libpq_dsn(url: str) -> tuple[str, dict[str, str]]:
    """The libpq URI of a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://`` -> ``postgresql://``), without its
    password, and the environment that carries the password (PGPASSWORD) to pg_dump and pg_restore."""
    u = make_url(url)
    dsn = URL.create("postgresql", username=u.username, host=u.host, port=u.port, database=u.database,
                     query=u.query).render_as_string(hide_password=False)
    env = dict(os.environ)
    if u.password:
        env["PGPASSWORD"] = str(u.password)
    env.setdefault("PGOPTIONS", f"-c lock_timeout={int(TIMEOUT_SECONDS * 1000)}")  # a restore never waits forever
    return dsn, env


def pg_restore_command(url: str, source: Path | str) -> str:
    """The pg_restore command a restore runs, as printed (no password)."""
    return f"pg_restore {' '.join(RESTORE_OPTIONS)} -d '{libpq_dsn(url)[0]}' {source}"


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise ToolMissing(f"{name} is not installed: {INSTALL_HINT}")
    return path


def _pg_run(name: str, args: list[str], url: str | None = None) -> str:
    """Run a PostgreSQL client tool; its standard output, or :class:`BackupError` with the first line it
    complained with."""
    tool = _tool(name)
    env = libpq_dsn(url)[1] if url else None
    try:
        done = subprocess.run([tool, *args], env=env, capture_output=True, check=False)
    except OSError as exc:
        raise BackupError(f"{name} could not be run: {exc.strerror}") from None
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        raise BackupError(f"{name} failed: {lines[0] if lines else f'exit status {done.returncode}'}")
    return done.stdout.decode("utf-8", "replace")


def backup_postgresql(url: str, out: Path | None = None) -> BackupResult:
    _tool("pg_dump")
    _tool("pg_restore")  # the backup is checked by reading it back
    path = _target(url, out)
    partial = _partial(path)
    try:
        _new_owner_only(partial)
        _pg_run("pg_dump", ["--format=custom", "--file", str(partial), "--dbname", libpq_dsn(url)[0]], url)
        check = _dump_check(partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return BackupResult("postgresql", path, path.stat().st_size, check)


_COPY = re.compile(r"^COPY (?:[\w\"]+\.)?\"?(\w+)\"? \(")


def _dump_check(path: Path) -> Check:
    """Read a pg_dump custom-format file back: its table of contents must hold the games and entries tables;
    the counts are of the rows in its data."""
    with open(path, "rb") as fh:
        head = fh.read(len(SQLITE_MAGIC))
    if not head.startswith(PG_DUMP_MAGIC):
        hint = " (it is a SQLite database: restore it into SQLite)" if head == SQLITE_MAGIC else ""
        raise NotABackup(f"{path} is not a pg_dump custom-format file{hint}")
    try:
        toc = _pg_run("pg_restore", ["--list", str(path)])
    except ToolMissing:
        raise
    except BackupError as exc:  # a damaged or truncated dump
        raise NotABackup(f"{path} cannot be read by pg_restore: {exc}") from None
    tables = set(re.findall(r" TABLE DATA \S+ (\w+) ", toc))
    missing = [t for t in REQUIRED_TABLES if t not in tables]
    if missing:
        raise NotABackup(f"{path} is a pg_dump file but not of a referee database: no {' or '.join(missing)} table")
    rows: dict[str, int] = {}
    table = None
    schema = None
    for line in _pg_run("pg_restore", ["--data-only", "--file=-", str(path)]).splitlines():
        if table is None:
            m = _COPY.match(line)
            if m:
                table = m.group(1)
                rows[table] = 0
        elif line == "\\.":
            table = None
        else:
            rows[table] += 1  # COPY's text format escapes newlines: one line, one row
            if table == "alembic_version":
                schema = line.strip()
    return Check("ok", Counts(rows.get("games", 0), rows.get("entries", 0), rows.get("tournaments", 0)), schema)


def _live_postgresql_counts(url: str) -> Counts | None:
    import sqlalchemy
    from sqlalchemy.pool import NullPool

    engine = sqlalchemy.create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            tables = set(sqlalchemy.inspect(conn).get_table_names())
            if not set(REQUIRED_TABLES) <= tables:
                return None

            def count(table: str) -> int:
                return conn.execute(sqlalchemy.text(f'SELECT count(*) FROM "{table}"')).scalar_one() \
                    if table in tables else 0

            return Counts(count("games"), count("entries"), count("tournaments"))
    except sqlalchemy.exc.SQLAlchemyError as exc:
        detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise BackupError(f"cannot read the database {shown(url)}: {detail[0] if detail else type(exc).__name__}") \
            from None
    finally:
        engine.dispose()
