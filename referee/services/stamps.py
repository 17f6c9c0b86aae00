"""The version a table's live screens are drawn at (:class:`Stamp`): the record's version (the game as stored and
its clock, :func:`referee.services.folds.version`) with the counts a screen also follows: the rulings, the calls for
a judge made and open, the players' sign-offs and the director's corrections of the result.  Each device at a table
asks for it every second: :func:`stamp` for a loaded game, :func:`poll_version` in one statement without loading it,
:func:`poll_stamp_and_grants` with the device's grants as well, through a plain connection (:func:`polling`) for a
poll answered before the app's request."""
from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from flask import current_app
from sqlalchemy import Connection, Engine, bindparam, create_engine, func, select

from ..cache import kept_in, STATEMENTS
from ..store.db import db, read_plain
from ..store.models import EntryRow, GameRow, JudgeCallRow, ResultCorrection, RulingRow, SignOffRow, TableRow
from . import grants
from .clocks import utcnow
from .folds import LoadedGame, last_entry, version as record_version, version_of


def _counts(game: object) -> tuple[object, ...]:
    """The counts a table's stamp is made of, as scalar subqueries for the game ``game``: its rulings, its calls for
    a judge made and still open, its sign-offs and the director's corrections of its result (and their
    withdrawals)."""

    def count(column, *where) -> object:
        return select(func.count(column)).where(*where).scalar_subquery()

    return (count(RulingRow.id, RulingRow.game_id == game), count(JudgeCallRow.id, JudgeCallRow.game_id == game),
            count(JudgeCallRow.id, JudgeCallRow.open_game_id == game),
            count(SignOffRow.id, SignOffRow.game_id == game),
            count(ResultCorrection.id, ResultCorrection.table_id.in_(
                select(TableRow.id).where(TableRow.game_id == game).scalar_subquery())))


@kept_in(STATEMENTS)
def _stamp_statement():
    """The counts of :func:`stamp` for the game ``game``: one statement, built once."""
    return select(*_counts(bindparam("game")))


@kept_in(STATEMENTS)
def _poll_statement():
    """All a poll's version is made of, for the game ``game``: its clock, its last stored entry's number (through
    the (game, seq) index) and the counts of :func:`stamp`; with the last entry's hash and when the game's row was
    made, the point of its record (:class:`TablePoint`) at which a kept fold holds it; one statement, built once, no
    game loaded."""
    game = bindparam("game")
    return select(GameRow.clock_started_at, GameRow.clock_elapsed_seconds, GameRow.time_limit_minutes,
                  last_entry(EntryRow.seq), last_entry(EntryRow.hash), GameRow.created_at, *_counts(game)
                  ).where(GameRow.id == game)


@dataclass(frozen=True)
class TablePoint:
    """What a poll read of a table's game besides its counts: its clock (:func:`referee.services.clocks.clock` reads
    it) and the point of its stored record (:func:`referee.services.folds.kept_at` finds the fold kept there)."""

    clock_started_at: datetime | None
    clock_elapsed_seconds: float
    time_limit_minutes: int | None
    stored: int
    last: str | None
    created: object


@dataclass(frozen=True)
class Stamp:
    """What a table's live screens compare (:attr:`version`), with the counts it was made from that the screen
    shows: the rulings stored and whether a call for a judge is open (a screen reads those only when there are
    some)."""

    version: str
    counts: tuple[int, ...]  # the counts of :func:`_counts` it was made of
    point: TablePoint | None = field(default=None, compare=False)  # the game as a poll read it (None: loaded)

    @property
    def rulings(self) -> int:
        return self.counts[0]

    @property
    def call_open(self) -> bool:
        return bool(self.counts[2])


def stamp(loaded: LoadedGame, counts: tuple[int, ...] | None = None) -> Stamp:
    """:func:`referee.services.folds.version`, changing also with each call for a judge made or answered, each
    ruling, each sign-off and each correction of the table's result by the director, or its withdrawal (the other
    tablets at the table follow a judge call, the rulings' count and the game-over card, which shows the ranking
    that stands), and while a call is open with each minute it has waited.  Every device at a table asks for it
    every second: one query, each count read through its table's game index.  ``counts``: the counts read for
    this request already (a poll's, with its version: :func:`poll_stamp_and_grants`), not read again."""
    if counts is None:
        counts = tuple(read_plain(_stamp_statement(), {"game": loaded.row.id})[0])
    return _stamped(record_version(loaded), counts)


@contextmanager
def polling() -> Iterator[Connection]:
    """A plain connection, past the session's steps, for :func:`poll_version` (and the grants) of a live poll
    answered before the app's request (``referee.web.polls``): the app's engine's, except where the app pings each
    connection before use (a database server, which may have closed a pooled connection: ``pool_pre_ping``).  There
    a poll's connection comes from an engine of its own that does not, since a poll is one statement: a connection
    the server closed fails it, the poll goes on to the views (whose connections are pinged) and the dead connection
    is let go, where a ping took a round trip to the server on every poll (two in three of a room's requests)."""
    with poll_engine().connect() as connection:
        yield connection


_POLL_ENGINE = "referee.poll_engine"  # the app's extension: the engine polls read through, unpinged


def poll_engine() -> Engine:
    """The engine a poll reads through (:func:`polling`): made once per app, on the same database with the same
    options as the app's but no ping."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the app itself: its extensions
    found = app.extensions.get(_POLL_ENGINE)
    if found is None:
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        if not options.pop("pool_pre_ping", False):
            found = db.engine  # nothing pinged: the app's own
        else:
            found = create_engine(db.engine.url, **options)
        found = app.extensions.setdefault(_POLL_ENGINE, found)
    return found


def poll_version(game_id: int, connection: Connection | None = None) -> str | None:
    """The :attr:`Stamp.version` a table's screens would be drawn at now, read in one statement without loading
    the game (None: no such game): a poll that names it is answered "nothing new" at the cost of that statement.
    ``connection``: the one to read through (else the session's)."""
    found = read_plain(_poll_statement(), {"game": game_id}, connection)
    return _poll_version(game_id, found[0]) if found else None


def poll_stamp_and_grants(game_id: int, tokens: list[str], connection: Connection
                          ) -> tuple[Stamp | None, list[grants.Grant]]:
    """The :class:`Stamp` of :func:`poll_version`, and the grants these tokens name
    (:func:`referee.services.grants.look_up`), read together in one statement
    (:func:`referee.services.grants.look_up_with`): a table's tablet's poll (None: no such game)."""
    found, named = grants.look_up_with(_poll_statement(), {"game": game_id}, tokens, connection)
    return (None if found is None else _poll_stamp(game_id, found)), named


def _poll_version(game_id: int, found: Sequence) -> str:
    """The version of the game ``game_id`` from the row :func:`_poll_statement` read."""
    return _poll_stamp(game_id, found).version


def _poll_stamp(game_id: int, found: Sequence) -> Stamp:
    """The stamp of the game ``game_id`` from the row :func:`_poll_statement` read."""
    started, elapsed, limit, stored, last, created, *counts = found
    return _stamped(version_of(game_id, stored or 0, started, elapsed, limit), tuple(counts),
                    TablePoint(started, elapsed, limit, stored or 0, last, created))


def _stamped(record: str, counts: tuple, point: TablePoint | None = None) -> Stamp:
    """The stamp of a record's version and the counts of :func:`_counts`."""
    minute = utcnow().strftime("%H:%M") if counts[2] else ""  # "waited 3 min" moves on
    text = f"{record}:{':'.join(map(str, counts))}:{minute}"
    return Stamp(hashlib.blake2b(text.encode(), digest_size=8).hexdigest(), counts, point)
