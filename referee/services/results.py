"""A finished table's result for the standings, and the director's corrections of it (the rules a correction
is checked by are :mod:`referee.tournament.corrections`)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..db import db
from ..models import ResultCorrection, RoundRow, TableRow, TournamentRow
from ..tournament.corrections import corrected_result
from ..tournament.messages import BadTournament, Done
from ..tournament.results import final_result, game_result, kept_result
from ..tournament.scoring import GameResult
from .errors import GameNotFound
from .folds import load, load_many, rows_with_tails
from .tournaments import get_tournament


def tournament_results(tournament_id: int) -> list[GameResult]:
    """Every finished table's result: the one kept when its game ended while the stored record still ends on the
    hash it was kept at (no replay), else from the game's fold."""
    row = get_tournament(tournament_id)
    corrected = [(r.number, t) for r in row.rounds for t in r.tables if t.corrections]
    seats = [(r.number, t) for r in row.rounds for t in r.tables if not t.corrections]
    ids = [t.game_id for _, t in seats]
    games = rows_with_tails(ids, results=True)
    results, unkept = [], []
    for number, t in seats:
        row, _, last, _ = games[t.game_id]
        kept = row.result
        if kept and kept.get("head") == last:
            results.append(kept_result(kept, number, str(t.number)))
        else:
            unkept.append((number, t))
    for (number, t), table in zip(unkept, load_many([t.game_id for _, t in unkept])):
        if table.game.state.over:
            results.append(game_result(table.game.state, number, str(t.number)))
    results += [kept_result(t.corrections[-1].result, number, str(t.number)) for number, t in corrected]
    return sorted(results, key=lambda g: (g.round, int(g.table)))


def _tournament_table(tournament_id: int, game_id: int) -> tuple[TournamentRow, RoundRow, TableRow]:
    row = get_tournament(tournament_id)
    for r in row.rounds:
        for t in r.tables:
            if t.game_id == game_id:
                return row, r, t
    raise GameNotFound.of("game {game} is not a table of this tournament", {"game": game_id})


def table_result(tournament_id: int, game_id: int) -> dict | None:
    """The result that stands at a finished table (the last correction, else the game's), None while it plays."""
    _, _, t = _tournament_table(tournament_id, game_id)
    if t.corrections:
        return t.corrections[-1].result
    state = load(game_id).game.state
    return final_result(state) if state.over else None


def correct_result(tournament_id: int, game_id: int, places: dict[str, int], assets: dict[str, int],
                   monopoly: bool, reason: str, expected: int) -> Done:
    """The director's correction of a finished table's result: each player's place (1 is first; equal places
    allowed) and assets, whether it was a monopoly win, and why.  Kept with the others (the last stands, every one
    is shown) and the standings follow it; the game's own record is not changed.  ``expected`` is how many
    corrections the director's screen showed (a stale screen or a second tap changes nothing)."""
    row, round_row, t = _tournament_table(tournament_id, game_id)
    if expected != len(t.corrections):
        raise BadTournament.of("this table's result was corrected since this screen was drawn: nothing was changed",
                               {})
    table = load(game_id)
    state = table.game.state
    if not state.over:
        raise BadTournament.of("table {table} is still playing: a result is corrected after its game",
                               {"table": t.number})
    reason = (reason or "").strip()
    result = corrected_result([p.name for p in state.players], places, assets, monopoly, reason)
    t.corrections.append(ResultCorrection(result=result, reason=reason))
    db.session.commit()
    later = next((r for r in row.rounds if r.number > round_row.number and r.stage != round_row.stage), None)
    if later is not None:  # the cut was made from the standings as they stood: a director decides what follows
        return Done.of("round {round}, table {table}: result corrected ({reason}); the standings follow it, but "
                       "round {later} was seated from the standings before this correction and stays as seated",
                       {"round": round_row.number, "table": t.number, "reason": reason, "later": later.number})
    return Done.of("round {round}, table {table}: result corrected ({reason}); the standings follow it",
                   {"round": round_row.number, "table": t.number, "reason": reason})


@dataclass(frozen=True)
class CorrectionView:
    round: int
    table: int
    game_id: int
    reason: str
    at: datetime
    ranking: list  # (place, name, assets)


def corrections(tournament_id: int) -> list[CorrectionView]:
    """Every correction of the tournament, oldest first (a later one for the same table replaces it)."""
    row = get_tournament(tournament_id)
    out = [CorrectionView(r.number, t.number, t.game_id, c.reason, c.created_at,
                          [(p["rank"], p["name"], p["total"]) for p in c.result["ranking"]])
           for r in row.rounds for t in r.tables for c in t.corrections]
    return sorted(out, key=lambda c: c.at)
