"""Which result stands at a tournament's finished table: the director's correction in force (the last one not
withdrawn: :func:`referee.tournament.corrections.in_force`), else the game's own.  Read by the tournaments, the
results and the players' sign-offs (a sign-off names the corrected result it was given on), below all three; and
a tournament's seating as the live pages read it (its rounds, their tables and the tables' corrections: values
read in one statement, :func:`seating`), which those corrections are read with."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol, Sequence, TypeVar

from sqlalchemy import bindparam, select

from ..cache import kept_in, SEATINGS, STATEMENTS
from ..store.db import db, read_once, read_plain
from ..store.models import ResultCorrection, RoundRow, TableRow
from ..tournament.corrections import Kept, in_force


class Correcting(Protocol):
    """A correction of a table's result as the rules read it: its row (:class:`ResultCorrection`) or its values
    as the live pages read them (:class:`CorrectionRead`)."""

    @property
    def id(self) -> int: ...

    @property
    def withdraws_id(self) -> int | None: ...

    @property
    def reason(self) -> str: ...

    @property
    def result(self) -> dict | None: ...


class Corrections(Protocol):
    """A tournament's table with its corrections, oldest first: its row (:class:`TableRow`) or its values
    (:class:`TableSeating`)."""

    @property
    def corrections(self) -> Sequence[Correcting]: ...


C = TypeVar("C", bound=Correcting)


@dataclass(frozen=True)
class CorrectionRead:
    """A correction (or its withdrawal) of a table's result, as the live pages read it: its row's values."""

    id: int
    withdraws_id: int | None
    reason: str
    result: dict | None


@dataclass(frozen=True)
class TableSeating:
    """A tournament's table as the live pages read it: its row's values and its corrections, oldest first."""

    id: int
    number: int
    game_id: int
    pin: str | None
    corrections: tuple[CorrectionRead, ...]


@dataclass(frozen=True)
class RoundSeating:
    """A tournament's round as the live pages read it: its row's values and its tables, by number."""

    number: int
    stage: str | None
    final: bool
    tables: tuple[TableSeating, ...]


def seating(tournament_id: int) -> tuple[RoundSeating, ...]:
    """The tournament's rounds, by number, with their tables and the tables' corrections, as values read in one
    statement of plain rows, once per unit of work (the director's page and the room's display read them at every
    changed poll: 64 tables made as objects of the session took 1.3 ms, their rows read as values 0.3 ms)."""
    read = read_once("seating")
    if tournament_id in read:
        return read[tournament_id]
    rows = tuple(map(tuple, read_plain(_seating_statement(), {"tournament": tournament_id})))
    try:  # the same rows read again (the live pages' next poll): the values made from them then (a function of the
        # rows alone, whatever the database), 640 tables of five rounds made afresh taking 1-2 ms at each poll
        read[tournament_id] = SEATINGS.get_or_make(rows, lambda: _seating_of(rows))
    except TypeError:  # a correction's result (a mapping) among them: made afresh
        read[tournament_id] = _seating_of(rows)
    return read[tournament_id]


def _seating_of(rows: tuple[tuple, ...]) -> tuple[RoundSeating, ...]:
    """The rounds, tables and corrections :func:`seating` reads, made from its statement's rows."""
    rounds: dict[int, tuple[str | None, bool, dict[int, tuple[int, int, str | None, list[CorrectionRead]]]]] = {}
    for (number, stage, final, table_id, table, game_id, pin, correction, withdraws, reason, result) in rows:
        tables = rounds.setdefault(number, (stage, bool(final), {}))[2]
        if table_id is None:
            continue
        corrections = tables.setdefault(table_id, (table, game_id, pin, []))[3]
        if correction is not None:
            corrections.append(CorrectionRead(correction, withdraws, reason, result))
    return tuple(
        RoundSeating(number, stage, final, tuple(TableSeating(table_id, table, game_id, pin, tuple(corrections))
                                                 for table_id, (table, game_id, pin, corrections) in tables.items()))
        for number, (stage, final, tables) in rounds.items())


@kept_in(STATEMENTS)
def _seating_statement():
    """:func:`seating`'s statement, built once: the rounds, their tables and the tables' corrections, in order."""
    return (select(RoundRow.number, RoundRow.stage, RoundRow.final, TableRow.id, TableRow.number, TableRow.game_id,
                   TableRow.pin, ResultCorrection.id, ResultCorrection.withdraws_id, ResultCorrection.reason,
                   ResultCorrection.result)
            .outerjoin(TableRow, TableRow.round_id == RoundRow.id)
            .outerjoin(ResultCorrection, ResultCorrection.table_id == TableRow.id)
            .where(RoundRow.tournament_id == bindparam("tournament"))
            .order_by(RoundRow.number, TableRow.number, ResultCorrection.id))


def corrections_key(t: Corrections) -> tuple:
    """A table's corrections as a key: what they say, not their numbers alone (a database made anew numbers its rows
    from 1 again)."""
    return tuple((c.id, c.withdraws_id, c.reason, json.dumps(c.result, sort_keys=True, default=str))
                 for c in t.corrections)


def _kept(rows: Sequence[Correcting]) -> list[Kept]:
    return [Kept(c.id, c.withdraws_id) for c in rows]


def kept_rows(t: Corrections) -> list[Kept]:
    """A table's corrections and withdrawals, oldest first, as the correction rules read them."""
    return _kept(t.corrections)


def _standing(rows: Sequence[C]) -> C | None:
    found = in_force(_kept(rows))
    return next(c for c in rows if c.id == found) if found is not None else None


def standing_correction(t: Corrections) -> Correcting | None:
    """The table's correction in force: the last one not withdrawn (None: the game's own result stands)."""
    return _standing(t.corrections)


def standing_of_game(game_id: int) -> ResultCorrection | None:
    """The correction in force at the tournament's table that plays the game ``game_id`` (None: the game's own
    result stands, or no tournament seated it): its table's corrections in one statement."""
    return _standing(db.session.scalars(select(ResultCorrection).join(TableRow, TableRow.id == ResultCorrection.table_id)
                                        .where(TableRow.game_id == game_id).order_by(ResultCorrection.id)).all())
