"""Backups the app takes while it serves: while any game is in play, one every ``BACKUP_MINUTES`` (5 by default),
the last ``BACKUPS_KEPT`` (12) kept, in ``BACKUP_DIR`` (by default where ``referee backup`` writes them:
instance/backups).  Each is made as ``referee backup`` makes one (SQLite's online backup, or pg_dump), named
``referee-YYYYmmdd-HHMMSS-auto.sqlite`` (``.dump``): only those are ever removed, never a backup taken by hand
nor one kept before a restore.

A backup never takes the last of its disk's room: when the room left on the backups' disk is less than the
database's size and the room a disk keeps (``LOW_DISK_MB``, ``services/storage.py``), the interval's backup is
skipped, said in the log and on the director's page (with the room there was and the room it needed) until one is
made again.  The director's page also warns while the disk holding the database or the backups is low on room.

No thread runs forever: a request that ends after the process's next check is due starts one short thread, which
asks the database whether a backup is due and, if so, takes it.  One backup per interval whatever the number of
worker processes: the interval is claimed by one conditional update of the one ``scheduled_backups`` row (on
SQLite and PostgreSQL alike), and only the worker whose update changed the row takes the backup.  What went wrong
is kept in that row and shown on the director's page; a backup begun and never finished (its process killed) is
shown too.
"""
from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, NamedTuple

from flask import current_app
from sqlalchemy import Text, bindparam, cast, exists, false, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..store import backup
from ..cache import kept_in, STATEMENTS
from ..store.db import db, read_once, read_plain
from ..store.models import EntryRow, GameRow, ScheduledBackupRow
from . import storage
from .clocks import naive_utc, utcnow
from ..engine import NotWhole, whole_number

ROW = 1
LABEL = "-auto"  # the scheduled backups' files: referee-YYYYmmdd-HHMMSS-auto.sqlite
DEFAULT_MINUTES = 5
DEFAULT_KEPT = 12
CHECK_SECONDS = 30.0  # a process asks the database whether a backup is due at most this often
UNFINISHED_AFTER = timedelta(minutes=10)  # a backup begun this long ago and neither made nor failed: shown
NO_ROOM = "no room:"  # a skipped backup, as its row keeps it: "no room:FREE:NEEDED" (bytes); see NoRoom.kept
ROOM_BYTES = 2**63 - 1  # the most bytes a skip's row is read back with: a disk's size counted in 64 bits


class BadSetting(ValueError):
    """A backup setting in instance/config.py that cannot be used; its message names the setting."""


class NoRoom(backup.BackupError):
    """The backups' disk has less room than a backup needs (the database's size and the room a disk keeps): the
    backup is skipped, nothing written."""

    def __init__(self, free: int, needed: int) -> None:
        super().__init__(f"skipped: {free:,} bytes free on the backups' disk, {needed:,} needed (the database's size "
                         f"and the room LOW_DISK_MB keeps)")
        self.free, self.needed = free, needed

    @property
    def kept(self) -> str:
        """As the backups' row keeps it (its ``failure``), for :func:`status` to read back."""
        return f"{NO_ROOM}{self.free}:{self.needed}"

    @classmethod
    def read(cls, failure: str) -> "NoRoom | None":
        """The skip a row's ``failure`` keeps, or None for a failure of another kind."""
        if not failure.startswith(NO_ROOM):
            return None
        free, _, needed = failure[len(NO_ROOM):].partition(":")
        try:
            return cls(whole_number("free", free, 0, ROOM_BYTES), whole_number("needed", needed, 0, ROOM_BYTES))
        except NotWhole:
            return None


@dataclass(frozen=True)
class Settings:
    minutes: float  # 0: no scheduled backups
    kept: int
    directory: Path  # BACKUP_DIR, by default where `referee backup` writes (the instance folder's backups/)
    low_mb: float = storage.DEFAULT_LOW_DISK_MB  # LOW_DISK_MB: the room a disk keeps (0: none, and no warning)

    @property
    def every(self) -> timedelta:
        return timedelta(minutes=self.minutes)


def settings(config, instance: str | Path | None = None) -> Settings:
    """The schedule from the app's configuration, checked: BACKUP_MINUTES a number from 0 (off) to 1440, BACKUPS_KEPT
    a whole number from 1 to 1000, BACKUP_DIR a folder (or unset: the instance folder's backups/; a relative one is
    in the instance folder), LOW_DISK_MB a number of MB from 0 (no room kept, no warning) to 1,000,000."""
    minutes = config.get("BACKUP_MINUTES", 0)
    kept = config.get("BACKUPS_KEPT", DEFAULT_KEPT)
    folder = config.get("BACKUP_DIR")
    low_mb = config.get("LOW_DISK_MB", storage.DEFAULT_LOW_DISK_MB)
    if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 0 <= minutes <= 1440:
        raise BadSetting(f"BACKUP_MINUTES in instance/config.py must be a number of minutes from 0 (no scheduled "
                         f"backups) to 1440, not {minutes!r}")
    if isinstance(kept, bool) or not isinstance(kept, int) or not 1 <= kept <= 1000:
        raise BadSetting(f"BACKUPS_KEPT in instance/config.py must be a whole number from 1 to 1000, not {kept!r}")
    if folder is not None and not isinstance(folder, (str, Path)):
        raise BadSetting(f"BACKUP_DIR in instance/config.py must be a folder's path, not {folder!r}")
    if isinstance(low_mb, bool) or not isinstance(low_mb, (int, float)) or not 0 <= low_mb <= 1_000_000:
        raise BadSetting(f"LOW_DISK_MB in instance/config.py must be a number of MB from 0 (no room kept free) to "
                         f"1000000, not {low_mb!r}")
    home = Path(instance) if instance is not None else backup.INSTANCE
    directory = Path(folder) if folder else backup.backup_dir(home)
    if not directory.is_absolute():
        directory = home / directory
    return Settings(float(minutes), kept, directory, float(low_mb))


@dataclass(frozen=True)
class Status:
    """What the director's page says of the scheduled backups."""

    minutes: float
    kept: int
    last_at: datetime | None  # the last backup made (UTC)
    last_path: str
    last_size: int | None
    failed_at: datetime | None  # the last failure (UTC), if later than the last backup made
    failure: str
    unfinished_since: datetime | None  # a backup begun long ago, neither made nor failed
    no_room: NoRoom | None = None  # the last backup was skipped for lack of room (failed_at is when), if so

    @property
    def failing(self) -> bool:
        return self.failed_at is not None

    @property
    def file_name(self) -> str:
        return Path(self.last_path).name if self.last_path else ""


def _moment(value: datetime | None) -> datetime | None:
    return naive_utc(value) if value is not None else None


class Shown(NamedTuple):
    """The scheduled backups' row as the director's page reads it."""

    started_at: datetime | None
    finished_at: datetime | None
    path: str
    size: int | None
    failed_at: datetime | None
    failure: str


@kept_in(STATEMENTS)
def _shown_statement():
    """The row's columns the director's page reads: one statement, built once."""
    return select(ScheduledBackupRow.started_at, ScheduledBackupRow.finished_at, ScheduledBackupRow.path,
                  ScheduledBackupRow.size, ScheduledBackupRow.failed_at, ScheduledBackupRow.failure).where(
        ScheduledBackupRow.id == bindparam("row"))


def _shown() -> Shown | None:
    """The scheduled backups' row as the director's page reads it (None: no backup begun yet), read once per unit
    of work past the ORM (its poll asks for the version's stamp, then for what the page says)."""
    read = read_once("scheduled backups")
    if ROW not in read:
        rows = read_plain(_shown_statement(), {"row": ROW})
        read[ROW] = Shown(*rows[0]) if rows else None
    return read[ROW]


def status(config, now: datetime | None = None) -> Status | None:
    """The scheduled backups as the director's page shows them; None when they are off (BACKUP_MINUTES 0)."""
    plan = settings(config)
    if not plan.minutes:
        return None
    row = _shown()
    if row is None:
        return Status(plan.minutes, plan.kept, None, "", None, None, "", None)
    last, failed, started = _moment(row.finished_at), _moment(row.failed_at), _moment(row.started_at)
    if failed is not None and last is not None and last >= failed:
        failed = None  # a backup made since: the failure is over
    no_room = NoRoom.read(row.failure) if failed is not None else None
    unfinished = None
    done = max((m for m in (last, _moment(row.failed_at)) if m is not None), default=None)
    if started is not None and (done is None or done < started) and (now or utcnow()) - started > UNFINISHED_AFTER:
        unfinished = started
    return Status(plan.minutes, plan.kept, last, row.path, row.size, failed,
                  row.failure if failed and no_room is None else "", unfinished, no_room)


def status_stamp() -> str:
    """What changes on the director's page when a backup is made or fails, or a disk it names runs low on room (its
    live region compares it): the room left on a low disk as the page shows it (to the tenth of a MB)."""
    row = _shown()
    text = f"{row.finished_at}|{row.failed_at}|{row.started_at}" if row is not None else "0"
    text += "".join(f"|{low.holds}:{low.free * 10 // storage.MB}" for low in low_disks(current_app))
    return hashlib.blake2b(text.encode(), digest_size=4).hexdigest()


def low_disks(app) -> list[storage.LowDisk]:
    """The disks of the app's database (a SQLite file's) and of its scheduled backups (while they are taken) that
    are low on room, for the director's page."""
    scheduler = scheduler_of(app)
    plan = scheduler.plan
    return storage.low_disks(scheduler.database_folder, scheduler.backups_folder if plan.minutes else None,
                             plan.low_mb)


def any_game_in_play() -> bool:
    """A game under way: at least one entry recorded, no result yet, not archived."""
    played = exists().where(EntryRow.game_id == GameRow.id)
    going_on = or_(GameRow.result.is_(None), cast(GameRow.result, Text) == "null")  # JSON's null: no result yet
    return db.session.execute(select(exists().where(going_on, GameRow.archived == false(), played))).scalar_one()


def _the_row() -> None:
    if db.session.get(ScheduledBackupRow, ROW) is None:
        db.session.add(ScheduledBackupRow(id=ROW))
        try:
            db.session.commit()
        except IntegrityError:  # another worker made it first
            db.session.rollback()


def claim(now: datetime, every: timedelta) -> bool:
    """Take this interval's backup for this process: true for one caller per interval, whatever the number of
    processes asking at once (one conditional update of the one row)."""
    _the_row()
    done = db.session.execute(
        update(ScheduledBackupRow)
        .where(ScheduledBackupRow.id == ROW,
               (ScheduledBackupRow.started_at.is_(None)) | (ScheduledBackupRow.started_at <= now - every))
        .values(started_at=now).execution_options(synchronize_session=False))
    db.session.commit()
    return done.rowcount == 1  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult (SQLAlchemy types it as a Result)


def _local_name(now: datetime) -> datetime:
    """The file's name reads the server's clock, as `referee backup` names its files."""
    return now.replace(tzinfo=timezone.utc).astimezone().replace(tzinfo=None)


def room_for_a_backup(url: str, plan: Settings) -> None:
    """Raise :class:`NoRoom` when the backups' disk has less room than a backup of the database at ``url`` takes
    (its size) and the room the disk keeps after it (LOW_DISK_MB, or 5% of a small disk)."""
    disk = storage.disk_of(plan.directory.resolve())
    needed = storage.database_size(url) + disk.kept(plan.low_mb)
    if disk.free < needed:
        raise NoRoom(disk.free, needed)


def take(url: str, plan: Settings, now: datetime) -> backup.BackupResult:
    """One scheduled backup of the database at ``url`` (unless its disk has no room for it: :class:`NoRoom`), then
    the oldest scheduled ones past BACKUPS_KEPT removed."""
    directory = plan.directory
    room_for_a_backup(url, plan)
    result = backup.backup(url, backup.default_backup_path(url, directory, now=_local_name(now), label=LABEL))
    prune(directory, plan.kept, result.path.suffix)
    return result


def scheduled_files(directory: Path, suffix: str) -> list[Path]:
    """The scheduled backups in ``directory``, oldest first."""
    files = [p for p in directory.glob(f"referee-*{LABEL}*{suffix}") if p.is_file()
             and p.name.rsplit(LABEL, 1)[-1].lstrip("-0123456789") == suffix]
    return sorted(files, key=lambda p: (p.stat().st_mtime, p.name))


def prune(directory: Path, kept: int, suffix: str) -> list[Path]:
    """Remove the oldest scheduled backups past the last ``kept``; the removed files."""
    files = scheduled_files(directory, suffix)
    gone = files[:max(0, len(files) - kept)]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def record_made(result: backup.BackupResult, now: datetime) -> None:
    db.session.execute(update(ScheduledBackupRow).where(ScheduledBackupRow.id == ROW).values(
        finished_at=now, path=str(result.path), size=result.size))
    db.session.commit()


def record_failure(reason: str, now: datetime) -> None:
    db.session.rollback()
    _the_row()
    db.session.execute(update(ScheduledBackupRow).where(ScheduledBackupRow.id == ROW).values(
        failed_at=now, failure=reason[:2000]))
    db.session.commit()


def run_due(url: str, plan: Settings, now: datetime) -> backup.BackupResult | None:
    """Take the interval's backup if a game is in play and no process has taken it yet; the backup made, or
    None (what goes wrong is raised: the scheduler keeps it as the last failure)."""
    if not plan.minutes or not any_game_in_play() or not claim(now, plan.every):
        return None
    result = take(url, plan, now)
    record_made(result, now)
    return result


def one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class Scheduler:
    """One per app: started from the end of a request when the process's next check is due, in a short thread of
    its own (never in the request's way).  ``clock`` gives the time (UTC, naive); tests replace it."""

    def __init__(self, app) -> None:
        self.app = app
        self.clock: Callable[[], datetime] = utcnow
        self.plan = settings(app.config, app.instance_path)
        # the folder of the app's SQLite file (None: PostgreSQL), worked out once (a URL parsed and a path resolved
        # took 50 us, and the director's page asks twice a second)
        self.database_folder = storage.database_folder(app.config["SQLALCHEMY_DATABASE_URI"])
        self.backups_folder = self.plan.directory.resolve()  # (its ``..`` through a folder not made yet, once)
        self._next = 0.0  # the clock's timestamp of this process's next check
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def poke(self) -> None:
        """Called as each request ends: start a check if this process's next one is due and none is running."""
        if not self.plan.minutes:
            return
        tick = self.clock().timestamp()
        wait = min(CHECK_SECONDS, self.plan.every.total_seconds())
        if 0 < self._next - tick <= wait:  # not due yet (a clock set back by more starts afresh)
            return
        with self._lock:
            if 0 < self._next - tick <= wait or (self._thread is not None and self._thread.is_alive()):
                return
            self._next = tick + wait
            self._thread = threading.Thread(target=self._run, name="referee-backup", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        with self.app.app_context():
            now = self.clock()
            try:
                run_due(self.app.config["SQLALCHEMY_DATABASE_URI"], self.plan, now)
            except NoRoom as skipped:  # kept for the director's page, and in the app's log
                self.app.logger.warning("the scheduled backup was %s", skipped)
                try:
                    record_failure(skipped.kept, now)
                except Exception:
                    self.app.logger.exception("the scheduled backup's skip could not be recorded")
            except Exception as exc:  # kept for the director's page, and in the app's log
                self.app.logger.exception("the scheduled backup could not be made")
                try:
                    record_failure(one_line(exc), now)
                except Exception:
                    self.app.logger.exception("the scheduled backup's failure could not be recorded")
            finally:
                db.session.remove()

    def wait(self, timeout: float = 30.0) -> None:
        """Until the check under way (if any) has finished."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)


def init_app(app) -> None:
    """Schedule the backups (BACKUP_MINUTES; a test app takes none unless told)."""
    scheduler = Scheduler(app)
    app.extensions["referee_backups"] = scheduler

    @app.teardown_request
    def _backup_if_due(_exc) -> None:
        scheduler.poke()


def scheduler_of(app) -> Scheduler:
    return app.extensions["referee_backups"]
