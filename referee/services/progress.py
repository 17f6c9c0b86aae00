"""Where a tournament stands, who goes on, and seating its next round: the rows and results read, the rules of
:mod:`referee.tournament.progress` asked, and the round they seat written (a game for each table)."""
from __future__ import annotations

import hashlib
import random

from sqlalchemy.exc import IntegrityError

from . import rulesets
from ..store.db import db
from ..engine import Many
from ..cache import TOURNAMENT_PROGRESS
from ..store.models import RoundRow, TableRow, TournamentRow
from ..tournament import formats
from ..tournament import progress as rules
from ..tournament.messages import BadTournament, Named
from ..tournament.progress import Cut, DivisionProgress, Progress
from ..tournament.roster import divisions
from ..tournament.scoring import Scheme, Standing
from .errors import BadGameSetup
from .folds import RecordEnd, database_key
from .games import new_game
from .latest import latest
from .pins import table_pin
from .results import tournament_results
from .standing import RoundSeating, TableSeating, corrections_key, seating
from .table_views import Version, round_ends
from .tournaments import entrants, get_tournament, round_tables

__all__ = ["Cut", "DivisionProgress", "Progress", "divisions_of", "progress_and_version", "seat_round", "stage_cuts",
           "tournament_progress", "tournament_standings"]


def _seated_rounds(rounds: tuple[RoundSeating, ...]) -> list[formats.SeatedRound]:
    tables = round_tables(rounds)
    return [formats.SeatedRound(r.number, r.stage or ("final" if r.final else "rounds"), tuple(map(tuple, t)))
            for r, t in zip(rounds, tables)]


def _scheme(row: TournamentRow, stage: formats.Stage) -> Scheme:
    """The scoring scheme of a stage: its own, else the tournament's."""
    return rulesets.load_scheme(stage.scoring or row.scheme)


def divisions_of(row: TournamentRow) -> list[str]:
    """The tournament's divisions in the order their first player was entered ([""]: none)."""
    return divisions(entrants(row))




def tournament_progress(tournament_id: int) -> Progress:
    """Where the tournament stands (:func:`progress_and_version`)."""
    return progress_and_version(tournament_id)[0]


def progress_and_version(tournament_id: int, version: Version | None = None) -> tuple[Progress, str]:
    """Where the tournament stands, and a short token that changes whenever it may (the public standings' live
    version: the places, the champions, the corrections).  Worked out once for what it is worked out from, and kept
    under all of it (the format and scheme, the roster's rows, each round's stage and tables, each table's
    corrections, each finished or altered table's record as far as it is stored and the hash it ends on, whether
    the last round still plays): a round in play changes none of it while its tables record, so the live pages,
    asking every second, read the rows and the kept folds and work out nothing again; a table that finishes, a
    correction, a player's change is a new key.  ``version``: the tournament's version a live page is drawn at (its
    tables' games as read): a table whose game's fold is kept at the point read is taken from it, its row not read
    again (never for seating a round: a version may be half a second old)."""
    row = get_tournament(tournament_id)
    rounds = seating(tournament_id)
    seated = [(r, t) for r in rounds for t in r.tables]
    ends = {g: end for r in rounds for g, end in round_ends(r, version).items()}
    last = {t.game_id for t in rounds[-1].tables} if rounds else set()
    playing = any(not (end.over or end.altered is not None) for g, end in ends.items() if g in last)
    players = entrants(row)
    key = (database_key(), tournament_id, row.format, row.scheme, row.ruleset, playing, players,
           tuple(_table_key(r, t, ends.get(t.game_id)) for r, t in seated))
    return TOURNAMENT_PROGRESS.get_or_make(key, lambda: (
        rules.progress(rulesets.load_format(row.format), lambda stage: _scheme(row, stage), players,
                       _seated_rounds(rounds), tournament_results(tournament_id, rounds), playing),
        hashlib.blake2b(repr(key).encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()))


def live_progress_and_version(tournament_id: int) -> tuple[Progress, str]:
    """:func:`progress_and_version` as the public standings' polls ask it: read once for every phone that follows
    them, not once each (:mod:`referee.services.latest`)."""
    return latest("standings", tournament_id, lambda: progress_and_version(tournament_id))


def _table_key(r: RoundSeating, t: TableSeating, table: RecordEnd | None) -> tuple:
    """What a table gives the standings: its round's place in the format, its corrections, and, once its game is
    over or its record altered, the record as stored (how far, and the hash it ends on); a game still in play gives
    nothing, whatever it has recorded."""
    corrections = corrections_key(t)
    if table is None:  # not a game any more: read as the results read it
        record: tuple = ("missing",)
    elif table.over or table.altered is not None:
        record = (table.stored, table.head, table.altered)
    else:
        record = ("playing",)
    return (r.number, r.stage, r.final, t.number, t.game_id, corrections, record)


def tournament_standings(tournament_id: int) -> list[Standing]:
    """The tournament's places as its format ranks them (each row that of the last stage the player played)."""
    return tournament_progress(tournament_id).places


def stage_cuts(tournament_id: int, stage_id: str, progress: Progress | None = None) -> list[Cut]:
    """For the director before seating: who would play the next round of ``stage_id``, division by division
    (``progress``: the tournament's, when the caller has already worked it out)."""
    row = get_tournament(tournament_id)
    return rules.cuts(entrants(row), progress or tournament_progress(tournament_id), stage_id)


def seat_round(tournament_id: int, expected: int | None = None, stage: str | None = None) -> int:
    """Seat the next round of the tournament's format: of ``stage`` (the current one, or the next when the
    current is complete or the director closes it; by default the first the format allows), its players and
    tables as that stage says (a draw avoiding repeat opponents, snake seeding, ranked boards), each division at
    tables of its own.  Every table gets a game with a PIN of its own and the round's time limit; the round is
    seated whole or not at all.  ``expected`` is the round number the director's screen offered to seat (a stale
    screen, or a second tap, seats nothing)."""
    row = get_tournament(tournament_id)
    number = len(row.rounds) + 1
    if expected is not None and expected != number:
        raise BadTournament.of("round {round} is already seated (this screen was out of date): nothing was "
                               "seated", {"round": expected})
    progress = tournament_progress(tournament_id)
    if progress.playing:
        raise BadTournament.of("round {round} is still being played", {"round": number - 1})
    if not progress.next_stages:
        raise BadTournament.of("every round of the format \"{format}\" is seated: the tournament is over",
                               {"format": Named.name_of(progress.format)})
    chosen = progress.next_stages[0] if stage is None else next(
        (s for s in progress.next_stages if s.id == stage), None)
    if chosen is None:
        known = next((s for s in progress.format.stages if s.id == stage), None)
        raise BadTournament.of("the next round cannot be of the stage \"{stage}\" (it may be of: {stages})",
                               {"stage": Named.name_of(known) if known else str(stage)[:40],
                                "stages": Many(tuple(Named.name_of(s) for s in progress.next_stages))})
    fmt, seated = progress.format, progress.seated
    rng = random.Random(f"{tournament_id}-{number}")
    players = entrants(row)
    tables = [t for d in progress.divisions
              for t in rules.division_tables(players, fmt, chosen, d, _scheme(row, chosen), rng)]
    if not tables:
        raise BadTournament.of("no one to seat for {stage}: check the players in (Players between rounds) first",
                               {"stage": Named.name_of(chosen)})
    # the director's minutes for the round, else the stage's own (the format's), else no time limit
    minutes = (row.round_minutes[min(number, len(row.round_minutes)) - 1] if row.round_minutes else
               formats.round_minutes(chosen, len(formats.rounds_of(chosen, seated))))
    last = len(fmt.stages) > 1 and chosen.id == fmt.stages[-1].id
    try:
        round_row = RoundRow(tournament_id=tournament_id, number=number, final=last, stage=chosen.id)
        row.rounds.append(round_row)
        for k, seats in enumerate(tables, start=1):
            pin = table_pin()
            game = new_game(f"{row.name}: round {number}, table {k}", row.ruleset, seats, "roll", pin, minutes,
                            row.options, pin_kept_in_plain=True)
            round_row.tables.append(TableRow(number=k, game_id=game.id, pin=pin))
        db.session.commit()
    except IntegrityError:  # another tap seated this round at the same moment: one round stands
        db.session.rollback()
        raise BadTournament.of("round {round} is already seated (this screen was out of date): nothing was "
                               "seated", {"round": number}) from None
    except BadGameSetup as exc:  # a table the rules cannot start (a finite bank that cannot stake it): none seated
        db.session.rollback()
        raise BadTournament(exc.message, pattern=exc.pattern, params=exc.params, state=exc.state,
                            rule=exc.rule) from None
    except Exception:
        db.session.rollback()
        raise
    return number
