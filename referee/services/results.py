"""A finished table's result for the standings, and the director's corrections of it (the rules a correction
is checked by are :mod:`referee.tournament.corrections`)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Mapping

from ..store.db import db
from ..store.models import ResultCorrection, RoundRow, TableRow, TournamentRow
from ..tournament.corrections import (check_withdrawal, corrected_result, in_force, number_of, ranked_places,
                                      withdrawn)
from ..tournament.messages import BadTournament, Done
from ..tournament.results import final_result, game_result, kept_result
from ..tournament.scoring import GameResult
from .errors import GameNotFound
from .folds import load, load_many, rows_with_tails
from .standing import RoundSeating, kept_rows as _kept, seating, standing_correction
from .tournaments import get_tournament


def tournament_results(tournament_id: int, rounds: tuple[RoundSeating, ...] | None = None) -> list[GameResult]:
    """Every finished table's result: the one kept when its game ended while the stored record still ends on the
    hash it was kept at (no replay), else from the game's fold.  ``rounds``: the tournament's seating as the caller
    read it (where the tournament stands is worked out from one reading of it), else read here."""
    rounds = seating(tournament_id) if rounds is None else rounds
    standing = {t.id: standing_correction(t) for r in rounds for t in r.tables}
    corrected = [(r.number, t, c.result) for r in rounds for t in r.tables
                 if (c := standing[t.id]) and c.result is not None]
    seats = [(r.number, t) for r in rounds for t in r.tables if not standing[t.id]]
    ids = [t.game_id for _, t in seats]
    games = rows_with_tails(ids, results=True)
    results, unkept = [], []
    for number, t in seats:
        game_row, _, last, _ = games[t.game_id]
        kept = game_row.result
        if kept and kept.get("head") == last:
            results.append(kept_result(kept, number, str(t.number)))
        else:
            unkept.append((number, t))
    for (number, t), loaded in zip(unkept, load_many([t.game_id for _, t in unkept])):
        if loaded.game.state.over:
            results.append(game_result(loaded.game.state, number, str(t.number)))
    results += [kept_result(result, number, str(t.number)) for number, t, result in corrected]
    return sorted(results, key=lambda g: (g.round, int(g.table)))


def _tournament_table(tournament_id: int, game_id: int) -> tuple[TournamentRow, RoundRow, TableRow]:
    row = get_tournament(tournament_id)
    for r in row.rounds:
        for t in r.tables:
            if t.game_id == game_id:
                return row, r, t
    raise GameNotFound.of("game {game} is not a table of this tournament", {"game": game_id})


def table_result(tournament_id: int, game_id: int) -> dict | None:
    """The result that stands at a finished table (the correction in force, else the game's), None while it
    plays."""
    _, _, t = _tournament_table(tournament_id, game_id)
    standing = standing_correction(t)
    if standing is not None:
        return standing.result
    state = load(game_id).game.state
    return final_result(state) if state.over else None


def _fresh(tournament_id: int, game_id: int, expected: int) -> tuple[TournamentRow, RoundRow, TableRow]:
    """The table, refused when its corrections changed since the director's screen was drawn (``expected`` is how
    many rows it showed: a stale screen or a second tap changes nothing)."""
    row, round_row, t = _tournament_table(tournament_id, game_id)
    if expected != len(t.corrections):
        raise BadTournament.of("this table's result was corrected since this screen was drawn: nothing was changed",
                               {})
    return row, round_row, t


def _later(row: TournamentRow, round_row: RoundRow) -> int | None:
    """The number of a later stage's round already seated from the standings as they stood (a correction then
    leaves it as seated: a director decides what follows), else None."""
    return next((r.number for r in row.rounds if r.number > round_row.number and r.stage != round_row.stage), None)


def correct_result(tournament_id: int, game_id: int, places: Mapping[str, object], assets: Mapping[str, object],
                   bankrupt: set[str], monopoly: bool, reason: str, expected: int) -> Done:
    """The director's correction of a finished table's result: each player's place (1 is first, each place once),
    total assets and bankruptcy, whether it was a monopoly win, and why; refused where the places do not follow
    from the totals as the rules rank them.  Kept with the others (the last one not withdrawn stands, every one is
    shown) and the standings follow it; the game's own record is not changed.  ``expected`` is how many rows of
    corrections the director's screen showed."""
    row, round_row, t = _fresh(tournament_id, game_id, expected)
    loaded = load(game_id)
    state = loaded.game.state
    if not state.over:
        raise BadTournament.of("table {table} is still playing: a result is corrected after its game",
                               {"table": t.number})
    reason = (reason or "").strip()
    result = corrected_result([p.name for p in state.players], places, assets, bankrupt, monopoly, reason)
    t.corrections.append(ResultCorrection(result=result, reason=reason))
    db.session.commit()
    params = {"round": round_row.number, "table": t.number, "reason": reason}
    later = _later(row, round_row)
    if later is not None:
        return Done.of("round {round}, table {table}: result corrected ({reason}); the standings follow it, but "
                       "round {later} was seated from the standings before this correction and stays as seated",
                       params | {"later": later})
    return Done.of("round {round}, table {table}: result corrected ({reason}); the standings follow it", params)


def withdraw_correction(tournament_id: int, game_id: int, correction_id: int, reason: str, expected: int) -> Done:
    """The director's withdrawal of a mistaken correction, with why: a new row naming it (nothing is edited or
    removed); the table's result falls back to the correction before it still in force, else the game's own."""
    row, round_row, t = _fresh(tournament_id, game_id, expected)
    rows = _kept(t)
    reason = check_withdrawal(rows, correction_id, reason)
    number = number_of(rows, correction_id)
    t.corrections.append(ResultCorrection(result=None, reason=reason, withdraws_id=correction_id))
    db.session.commit()
    standing = in_force(_kept(t))
    params = {"round": round_row.number, "table": t.number, "reason": reason, "n": number}
    later = _later(row, round_row)
    if later is not None:
        return Done.of("round {round}, table {table}: correction {n} withdrawn ({reason}); the standings follow "
                       "the result that stands again, but round {later} was seated from the standings before this "
                       "withdrawal and stays as seated", params | {"later": later})
    if standing is None:
        return Done.of("round {round}, table {table}: correction {n} withdrawn ({reason}); the game's own result "
                       "stands again and the standings follow it", params)
    return Done.of("round {round}, table {table}: correction {n} withdrawn ({reason}); correction {back} stands "
                   "again and the standings follow it", params | {"back": number_of(_kept(t), standing)})


@dataclass(frozen=True)
class CorrectionView:
    round: int
    table: int
    game_id: int
    id: int  # its row, which a withdrawal names
    number: int  # its number at its table (1 for the first)
    reason: str
    at: datetime
    ranking: list  # (place, name, assets, the rule that ranked them: corrections.BY)
    status: str  # "in_force", "replaced" (a later correction stands) or "withdrawn"
    withdrawal: tuple[str, datetime] | None = None  # why and when it was withdrawn


def corrections(tournament_id: int) -> list[CorrectionView]:
    """Every correction of the tournament, oldest first, each with whether it stands, was replaced by a later one
    or was withdrawn (and the withdrawal's reason)."""
    row = get_tournament(tournament_id)
    out = []
    for r in row.rounds:
        for t in r.tables:
            rows = _kept(t)
            standing, gone = in_force(rows), withdrawn(rows)
            withdrawals = {c.withdraws_id: (c.reason, c.created_at) for c in t.corrections if c.withdraws_id}
            for c in t.corrections:
                if c.withdraws_id is not None or c.result is None:
                    continue
                out.append(CorrectionView(
                    r.number, t.number, t.game_id, c.id, number_of(rows, c.id), c.reason, c.created_at,
                    list(ranked_places(c.result)),
                    "in_force" if c.id == standing else "withdrawn" if c.id in gone else "replaced",
                    withdrawals.get(c.id)))
    return sorted(out, key=lambda c: (c.at, c.id))


def table_corrections(tournament_id: int, game_id: int) -> tuple[list[CorrectionView], int]:
    """A table's corrections, oldest first, and how many rows it keeps (corrections and withdrawals: the count a
    director's screen sends back, so that a stale screen changes nothing)."""
    _, _, t = _tournament_table(tournament_id, game_id)
    return [c for c in corrections(tournament_id) if c.game_id == game_id], len(t.corrections)
