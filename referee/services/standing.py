"""Which result stands at a tournament's finished table: the director's correction in force (the last one not
withdrawn: :func:`referee.tournament.corrections.in_force`), else the game's own.  Read by the tournaments, the
results and the players' sign-offs (a sign-off names the corrected result it was given on), below all three."""
from __future__ import annotations

from typing import Sequence

from sqlalchemy import select

from ..store.db import db
from ..store.models import ResultCorrection, TableRow
from ..tournament.corrections import Kept, in_force


def _kept(rows: Sequence[ResultCorrection]) -> list[Kept]:
    return [Kept(c.id, c.withdraws_id) for c in rows]


def kept_rows(t: TableRow) -> list[Kept]:
    """A table's corrections and withdrawals, oldest first, as the correction rules read them."""
    return _kept(t.corrections)


def _standing(rows: Sequence[ResultCorrection]) -> ResultCorrection | None:
    found = in_force(_kept(rows))
    return next(c for c in rows if c.id == found) if found is not None else None


def standing_correction(t: TableRow) -> ResultCorrection | None:
    """The table's correction in force: the last one not withdrawn (None: the game's own result stands)."""
    return _standing(t.corrections)


def standing_of_game(game_id: int) -> ResultCorrection | None:
    """The correction in force at the tournament's table that plays the game ``game_id`` (None: the game's own
    result stands, or no tournament seated it): its table's corrections in one statement."""
    return _standing(db.session.scalars(select(ResultCorrection).join(TableRow, TableRow.id == ResultCorrection.table_id)
                                        .where(TableRow.game_id == game_id).order_by(ResultCorrection.id)).all())
