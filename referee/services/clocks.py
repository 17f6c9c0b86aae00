"""A table's game clock (the engine has none: time is called by the referee's entry).  The clock runs on the
server's time: a game row keeps the seconds run before its last pause and when it was last started."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Protocol

from ..engine import Clock
from ..store.db import db
from ..store.models import GameRow
from .errors import ClockStopped, GameNotFound
from .folds import load


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def naive_utc(moment: datetime) -> datetime:
    """A stored moment as UTC without its zone, as the app keeps them (SQLite gives it back naive, PostgreSQL with
    its zone)."""
    return moment if moment.tzinfo is None else moment.astimezone(timezone.utc).replace(tzinfo=None)


class ClockValues(Protocol):
    """What a table's clock is read from: its game's row, or those of its columns a statement read."""

    @property
    def clock_started_at(self) -> datetime | None: ...

    @property
    def clock_elapsed_seconds(self) -> float: ...

    @property
    def time_limit_minutes(self) -> int | None: ...


def clock(row: ClockValues, now: datetime | None = None) -> Clock:
    """The game clock of a table (the engine has none: time is called by the referee's entry)."""
    elapsed = row.clock_elapsed_seconds
    if row.clock_started_at is not None:
        elapsed += ((now or utcnow()) - row.clock_started_at).total_seconds()
    limit = row.time_limit_minutes * 60 if row.time_limit_minutes else None
    return Clock(limit, elapsed, row.clock_started_at is not None)


def pause(row: GameRow, now: datetime) -> None:
    """Stop a running clock (a stopped one is left as it is), keeping the seconds it ran."""
    if row.clock_started_at is not None:
        row.clock_elapsed_seconds += (now - row.clock_started_at).total_seconds()
        row.clock_started_at = None


def set_clock(game_id: int, running: bool) -> Clock:
    """Start or pause the game clock (starting a running clock, or pausing a stopped one, changes nothing)."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound.of("no game {game}", {"game": game_id})
    now = utcnow()
    if running and row.clock_started_at is None:
        state = load(game_id).game.state
        if state.over or state.time_called:
            raise (ClockStopped.of("the game is over: its clock stays stopped") if state.over else
                   ClockStopped.of("time has been called: the game clock stays stopped"))
        row.clock_started_at = now
    elif not running:
        pause(row, now)
    db.session.commit()
    return clock(row, now)
