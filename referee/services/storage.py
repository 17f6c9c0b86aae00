"""The database as a store: what a database that could not answer a request means for the device that sent it, and
the room left on the disks the app writes to (the database's, the backups').

A request the database could not answer (a SQLite disk full, its file locked past its timeout or not opened, a
PostgreSQL server refused, gone or out of room) has its session rolled back and is told why in one word, which the
screens put in the device's language (``screens/storage.py``): ``full`` (the disk is full: nothing more can be
written until it has room), ``busy`` (the database stayed busy past its timeout: the next tap may go through) or
``unreachable`` (the database cannot be reached).  Integrity, programming and data errors are not the store failing:
they are left to propagate as before.

A disk is *low* when the room left on it is under ``LOW_DISK_MB`` (200 MB by default), or under 5% of the disk on
a disk smaller than 4 GB (a USB stick of 128 MB is low under 6.4 MB): the director's page warns then, and a
scheduled backup that would leave less is skipped (``services/backups.py``)."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import exc as sa
from sqlalchemy import text

from ..store import backup
from ..store.db import db

MB = 1024 * 1024
DEFAULT_LOW_DISK_MB = 200
LOW_DISK_SHARE = 0.05  # on a small disk (a USB stick) the room kept is this share of it, if less than LOW_DISK_MB

FULL, BUSY, UNREACHABLE = "full", "busy", "unreachable"
# what the drivers say (SQLite's messages; PostgreSQL's, and their SQLSTATE codes, psycopg's ``sqlstate``)
FULL_WORDS = ("database or disk is full", "no space left on device", "could not extend file", "disk full",
              "disk quota exceeded")
BUSY_WORDS = ("database is locked", "database table is locked", "lock timeout", "deadlock detected",
              "canceling statement due to statement timeout", "too many clients")
FULL_STATES = ("53100",)  # disk_full
BUSY_STATES = ("55P03", "40P01", "57014", "53300")  # lock_not_available, deadlock, query_canceled, too_many_connections
NOT_THE_STORE = (sa.IntegrityError, sa.ProgrammingError, sa.DataError, sa.NotSupportedError)
STORE_ERRORS = (sa.DBAPIError, sa.TimeoutError)  # what a failing store raises (and NOT_THE_STORE among them)


def is_store_failure(error: BaseException) -> bool:
    """Whether ``error`` is the database failing to answer (as opposed to a statement it refused)."""
    if isinstance(error, sa.TimeoutError):  # no connection of the pool came free in time
        return True
    return isinstance(error, sa.DBAPIError) and not isinstance(error, NOT_THE_STORE)


def failure_kind(error: BaseException) -> str:
    """Why the database could not answer, in one word: :data:`FULL`, :data:`BUSY` or :data:`UNREACHABLE`."""
    if isinstance(error, sa.TimeoutError):
        return BUSY
    cause = getattr(error, "orig", None)
    said = str(cause if cause is not None else error).lower()
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if state in FULL_STATES or any(words in said for words in FULL_WORDS):
        return FULL
    if state in BUSY_STATES or any(words in said for words in BUSY_WORDS):
        return BUSY
    return UNREACHABLE


def rolled_back() -> None:
    """The request's unit of work abandoned after the database failed it: nothing of it is written.  A connection
    that cannot even roll back (the server is gone) is let go with it."""
    try:
        db.session.rollback()
    except Exception:  # the connection is dead: the pool replaces it
        db.session.close()


# --- room on the disks ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Disk:
    """The disk a folder is on: its size and the room left on it (for this process's user), in bytes."""

    device: int
    total: int
    free: int

    def kept(self, low_mb: float) -> int:
        """The room a disk must keep: ``low_mb`` MB, or 5% of a small disk."""
        return int(min(low_mb * MB, LOW_DISK_SHARE * self.total))

    def low(self, low_mb: float) -> bool:
        return low_mb > 0 and self.free < self.kept(low_mb)


def disk_of(folder: Path) -> Disk:
    """The disk ``folder`` is on (or would be: its nearest folder that exists).  ``folder`` as resolved (a ``..``
    after a folder not made yet is not undone by the walk up; :class:`referee.services.backups.Scheduler` resolves
    its folders once, where the director's page asks twice a second); a link in it is followed by the system's
    calls."""
    place = Path(folder)
    while not place.exists() and place != place.parent:
        place = place.parent
    usage = shutil.disk_usage(place)
    return Disk(os.stat(place).st_dev, usage.total, usage.free)


def database_folder(url: str) -> Path | None:
    """The folder of the app's SQLite file; None for PostgreSQL (its disk is the server's) or a database in memory."""
    try:
        path = backup.sqlite_path(url) if backup.kind_of(url) == "sqlite" else None
    except backup.BackupError:
        return None
    return path.parent if path is not None else None


def database_size(url: str) -> int:
    """The database's size in bytes, as a backup of it takes room: a SQLite file with its write-ahead log, or what
    PostgreSQL reports of the database."""
    if backup.kind_of(url) == "sqlite":
        path = backup.sqlite_file(url)
        return sum(f.stat().st_size for f in (path, path.with_name(path.name + "-wal")) if f.exists())
    return int(db.session.execute(text("SELECT pg_database_size(current_database())")).scalar_one())


@dataclass(frozen=True)
class LowDisk:
    """A disk low on room, as the director's page names it: what it holds (``database``, ``backups`` or ``both``)
    and the room left on it, in bytes."""

    holds: str
    free: int


def low_disks(database: Path | None, backups_folder: Path | None, low_mb: float) -> list[LowDisk]:
    """The disks holding the database (``database``: a SQLite file's folder, :func:`database_folder`; None for
    PostgreSQL) and ``backups_folder`` (None: no backups are taken) that are low on room; one disk holding both is
    named once."""
    found: dict[int, tuple[list[str], Disk]] = {}
    for holds, folder in (("database", database), ("backups", backups_folder)):
        if folder is None:
            continue
        disk = disk_of(folder)
        found.setdefault(disk.device, ([], disk))[0].append(holds)
    return [LowDisk("both" if len(holds) > 1 else holds[0], disk.free)
            for holds, disk in found.values() if disk.low(low_mb)]
