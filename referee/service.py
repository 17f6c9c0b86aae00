"""The one place that touches both the database and the engine.

Every recorded entry is checked by the engine against the state its tablet
saw (``expected_seq``: how many entries the table had), then written as one
committed row; a (game, seq) pair can be written once only, so a double tap,
a second tablet or a retried request can never record a fact twice.
"""
from __future__ import annotations

import json
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from . import rulesets
from .db import db
from .engine import (
    Game, Header, IllegalEntry, MalformedEntry, Outcome, RecordError, RefereeError, RulesetError, parse_entry,
    parse_record, replay, resolve, with_options,
)
from .engine.record import parse_header
from .engine.state import SeatingRoll
from .models import EntryRow, GameRow, RoundRow, TableRow, TournamentPlayer, TournamentRow
from .tournament import seating as seeding

CACHE_SIZE = 64


class StaleEntry(RefereeError):
    """The entry was made against an older state of the table (another tablet, a double tap, a retry)."""

    code = "stale"


class GameNotFound(RefereeError):
    code = "not_found"


class BadGameSetup(RefereeError):
    code = "bad_setup"


@dataclass(frozen=True)
class Table:
    row: GameRow
    game: Game

    @property
    def seq(self) -> int:
        return len(self.game.entries)


_cache: "OrderedDict[tuple[str, int], Game]" = OrderedDict()  # (database, game id) -> its fold
_lock = threading.Lock()
_game_locks: dict[tuple[str, int], threading.Lock] = {}


def _key(game_id: int) -> tuple[str, int]:
    return (str(db.engine.url), game_id)


def _game_lock(game_id: int) -> threading.Lock:
    """One writer at a time per game in this process (other processes are kept apart by the (game, seq) key)."""
    with _lock:
        return _game_locks.setdefault(_key(game_id), threading.Lock())


def _forget(game_id: int) -> None:
    with _lock:
        _cache.pop(_key(game_id), None)


def ruleset_for(header: Header):
    return with_options(rulesets.load(header.ruleset), header.options)


def create_game(title: str, ruleset_id: str, players: list[str], seating: str, pin: str,
                time_limit_minutes: int | None = None, options: dict | None = None) -> int:
    """A new game; :class:`BadGameSetup` naming what is wrong."""
    data = {"format": "referee-game-record", "version": 1, "ruleset": ruleset_id, "options": options or {},
            "players": players, "seating": seating, "meta": {"title": title} if title else {}}
    try:
        header = parse_header(data)
        ruleset_for(header)
    except (RecordError, RulesetError) as exc:
        raise BadGameSetup(str(exc).removeprefix("line 1: ")) from None
    if len(pin) < 4:
        raise BadGameSetup("the referee PIN must have at least 4 characters")
    row = GameRow(title=title, header=header.to_dict(), pin_hash=generate_password_hash(pin),
                  time_limit_minutes=time_limit_minutes)
    db.session.add(row)
    db.session.commit()
    _forget(row.id)  # a database made anew may reuse a game id
    return row.id


def check_pin(game_id: int, pin: str) -> bool:
    row = db.session.get(GameRow, game_id)
    return row is not None and check_password_hash(row.pin_hash, pin)


def list_games() -> list[GameRow]:
    return list(db.session.scalars(select(GameRow).order_by(GameRow.id.desc())))


def load(game_id: int) -> Table:
    """The game row and the engine's fold of its entries (kept in a small cache, checked against the log)."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound(f"no game {game_id}")
    count = db.session.scalar(select(func.count()).select_from(EntryRow).where(EntryRow.game_id == game_id))
    key = _key(game_id)
    with _lock:
        game = _cache.get(key)
        if game is not None and len(game.entries) == count:
            _cache.move_to_end(key)
            return Table(row, game)
    header = parse_header(row.header)
    game = Game(ruleset_for(header), header)
    rows = db.session.scalars(select(EntryRow.data).where(EntryRow.game_id == game_id).order_by(EntryRow.seq))
    for data in rows:
        game.record(parse_entry(json.loads(data)))
    with _lock:
        _cache[key] = game
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return Table(row, game)


def record(game_id: int, data: dict, expected_seq: int) -> Outcome:
    """Check an entry and write it, or raise (:class:`StaleEntry`, :class:`MalformedEntry`,
    :class:`IllegalEntry`) and change nothing."""
    entry = parse_entry(data)
    with _game_lock(game_id):
        table = load(game_id)
        if expected_seq != table.seq:
            raise StaleEntry.of("this screen showed the table after entry {seen}, but it is now at entry {now}: "
                                "nothing was recorded; look at the table again",
                                {"seen": expected_seq, "now": table.seq})
        outcome = table.game.record(entry)  # raises before changing anything
        db.session.add(EntryRow(game_id=game_id, seq=table.seq,
                                data=json.dumps(entry.to_dict(), ensure_ascii=False)))
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            _forget(game_id)
            raise StaleEntry.of("another tablet recorded an entry at the same moment: nothing was recorded; look at "
                                "the table again") from None
        except Exception:
            db.session.rollback()
            _forget(game_id)
            raise
    return outcome


def check(game_id: int, data: dict, expected_seq: int) -> Outcome:
    """What an entry would bring about now, without recording it (the trade builder's check)."""
    entry = parse_entry(data)
    table = load(game_id)
    if expected_seq != table.seq:
        raise StaleEntry.of("this screen showed the table after entry {seen}, but it is now at entry {now}: look at "
                            "the table again", {"seen": expected_seq, "now": table.seq})
    return resolve(table.game.state, entry)


def _utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


@dataclass(frozen=True)
class Clock:
    limit_seconds: int | None
    elapsed_seconds: float
    running: bool

    @property
    def remaining_seconds(self) -> float | None:
        return None if self.limit_seconds is None else self.limit_seconds - self.elapsed_seconds

    @property
    def time_up(self) -> bool:
        return self.limit_seconds is not None and self.elapsed_seconds >= self.limit_seconds


def clock(row: GameRow, now: datetime | None = None) -> Clock:
    """The game clock of a table (the engine has none: time is called by the referee's entry)."""
    elapsed = row.clock_elapsed_seconds
    if row.clock_started_at is not None:
        elapsed += ((now or _utcnow()) - row.clock_started_at).total_seconds()
    limit = row.time_limit_minutes * 60 if row.time_limit_minutes else None
    return Clock(limit, elapsed, row.clock_started_at is not None)


def set_clock(game_id: int, running: bool) -> Clock:
    """Start or pause the game clock (starting a running clock, or pausing a stopped one, changes nothing)."""
    row = db.session.get(GameRow, game_id)
    if row is None:
        raise GameNotFound(f"no game {game_id}")
    now = _utcnow()
    if running and row.clock_started_at is None:
        row.clock_started_at = now
    elif not running and row.clock_started_at is not None:
        row.clock_elapsed_seconds += (now - row.clock_started_at).total_seconds()
        row.clock_started_at = None
    db.session.commit()
    return clock(row, now)


def export_record(game_id: int) -> str:
    return "\n".join(load(game_id).game.to_lines()) + "\n"


def import_record(text: str, pin: str) -> int:
    """A new game from a record file (every entry is checked by replaying it)."""
    try:
        header, entries = parse_record(text.splitlines())
        game = replay(ruleset_for(header), header, entries)
    except RulesetError as exc:
        raise BadGameSetup(str(exc)) from None
    if len(pin) < 4:
        raise BadGameSetup("the referee PIN must have at least 4 characters")
    row = GameRow(title=str(header.meta.get("title", "")), header=header.to_dict(),
                  pin_hash=generate_password_hash(pin))
    db.session.add(row)
    db.session.flush()
    for seq, entry in enumerate(game.entries, start=1):
        db.session.add(EntryRow(game_id=row.id, seq=seq, data=json.dumps(entry.to_dict(), ensure_ascii=False)))
    db.session.commit()
    _forget(row.id)
    return row.id


__all__ = ["BadGameSetup", "GameNotFound", "IllegalEntry", "MalformedEntry", "RecordError", "StaleEntry",
           "Clock", "Table", "check_pin", "clock", "create_game", "set_clock", "export_record", "import_record", "list_games", "load", "record"]


# --- tournaments ------------------------------------------------------------


class BadTournament(RefereeError):
    code = "bad_tournament"


@dataclass(frozen=True)
class TableView:
    """One table of a round as the director sees it."""

    number: int
    game_id: int
    players: list[tuple[str, int, bool]]  # name, cash, bankrupt
    pending: str
    turn: int
    over: bool
    clock: Clock


def create_tournament(name: str, scheme: str, ruleset_id: str, players: list[str], pin: str,
                      round_minutes: list[int] | None = None, options: dict | None = None) -> int:
    try:
        rulesets.load_scheme(scheme)
        with_options(rulesets.load(ruleset_id), options or {})
    except RulesetError as exc:
        raise BadTournament(str(exc)) from None
    names = [p.strip() for p in players if p.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        raise BadTournament(f"a tournament needs at least 2 players with different names, got {names!r}")
    if len(pin) < 4:
        raise BadTournament("the director PIN must have at least 4 characters")
    row = TournamentRow(name=name, scheme=scheme, ruleset=ruleset_id, options=options or {},
                        round_minutes=list(round_minutes or []), pin_hash=generate_password_hash(pin),
                        players=[TournamentPlayer(name=n) for n in names])
    db.session.add(row)
    db.session.commit()
    return row.id


def get_tournament(tournament_id: int) -> TournamentRow:
    row = db.session.get(TournamentRow, tournament_id)
    if row is None:
        raise GameNotFound(f"no tournament {tournament_id}")
    return row


def check_director_pin(tournament_id: int, pin: str) -> bool:
    row = db.session.get(TournamentRow, tournament_id)
    return row is not None and check_password_hash(row.pin_hash, pin)


def list_tournaments() -> list[TournamentRow]:
    return list(db.session.scalars(select(TournamentRow).order_by(TournamentRow.id.desc())))


def _round_tables(row: TournamentRow) -> list[list[list[str]]]:
    return [[parse_header(db.session.get(GameRow, t.game_id).header).players for t in r.tables] for r in row.rounds]


def seat_round(tournament_id: int, pin: str, final: bool = False) -> int:
    """Seat the next round: a draw avoiding repeat opponents, or the final seeded from the standings.
    Every table gets a game with the director's PIN and the round's time limit."""
    row = get_tournament(tournament_id)
    number = len(row.rounds) + 1
    players = [p.name for p in row.players]
    if row.rounds and not all(load(t.game_id).game.state.over for t in row.rounds[-1].tables):
        raise BadTournament(f"round {number - 1} is still being played")
    if final:
        ranked = [s.player for s in tournament_standings(tournament_id)]
        tables = seeding.seeded(ranked, len(seeding.table_sizes(len(ranked))))
    else:
        rng = random.Random(f"{tournament_id}-{number}")
        tables = seeding.draw(players, seeding.met_counts(_round_tables(row)), rng)
    minutes = row.round_minutes[min(number, len(row.round_minutes)) - 1] if row.round_minutes else None
    round_row = RoundRow(tournament_id=tournament_id, number=number, final=final)
    row.rounds.append(round_row)
    for k, seats in enumerate(tables, start=1):
        game_id = create_game(f"{row.name}: round {number}, table {k}", row.ruleset, seats, "roll", pin,
                              minutes, row.options)
        round_row.tables.append(TableRow(number=k, game_id=game_id))
    db.session.commit()
    return number


def round_overview(tournament_id: int, number: int, describe=None) -> list[TableView]:
    """Every table of a round; ``describe`` puts the pending decision in words (the web passes its
    translated one)."""
    from .engine.rules import describe_pending

    describe = describe or describe_pending
    row = get_tournament(tournament_id)
    round_row = next((r for r in row.rounds if r.number == number), None)
    if round_row is None:
        raise GameNotFound(f"tournament {tournament_id} has no round {number}")
    out = []
    for t in round_row.tables:
        table = load(t.game_id)
        state = table.game.state
        out.append(TableView(t.number, t.game_id, [(p.name, p.cash, p.bankrupt) for p in state.players],
                             describe(state), state.turn, state.over, clock(table.row)))
    return out


def call_time_on_round(tournament_id: int, number: int) -> int:
    """Record 'time called' on every table of the round still playing; how many tables it was recorded on."""
    called = 0
    for view in round_overview(tournament_id, number):
        table = load(view.game_id)
        state = table.game.state
        if state.over or state.time_called or isinstance(state.pending, SeatingRoll):
            continue
        record(view.game_id, {"type": "time_called", "note": "called by the tournament director"}, table.seq)
        called += 1
    return called


def tournament_results(tournament_id: int):
    from .tournament.results import game_result

    row = get_tournament(tournament_id)
    results = []
    for r in row.rounds:
        for t in r.tables:
            state = load(t.game_id).game.state
            if state.over:
                results.append(game_result(state, r.number, str(t.number)))
    return results


def tournament_standings(tournament_id: int):
    from .tournament.scoring import standings

    row = get_tournament(tournament_id)
    return standings(rulesets.load_scheme(row.scheme), tournament_results(tournament_id))
