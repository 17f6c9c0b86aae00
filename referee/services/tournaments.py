"""A tournament's rows: create it, read, list, archive and delete it, its PINs, each round's tables as the
director sees them, calling time on a round, and the token its live page compares."""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from sqlalchemy import String, bindparam, cast, func, select, true

from . import backups, rulesets
from ..store.db import db, read_once, read_rows
from ..cache import GAME_RESULTS, kept_in, ROSTERS, ROUND_ENDS, ROUND_VIEWS, STATEMENTS, TABLE_VIEWS
from ..engine import MAX_NAME, MAX_TITLE, Money, RulesetError, SeatingRoll, parse_header, with_options
from ..store.models import (
    EntryRow, GameRow, JudgeCallRow, ResultCorrection, RoundRow, RulingRow, SignOffRow, TableRow, TournamentPlayer,
    TournamentRow)
from ..tournament import formats, regulations
from ..tournament.regulations import REGULATIONS
from ..tournament.corrections import ranked_places
from ..tournament.messages import BadTournament, Named, check_text
from ..tournament.results import final_result
from ..tournament.roster import FIELDS, MAX_TOURNAMENT_PLAYERS, Entrant, bad_player_line
from . import archive, grants
from .clocks import Clock, ClockValues, clock, utcnow
from .latest import latest
from ..language import current_language
from .errors import GameNotFound
from .folds import Altered, alterations_found, database_key, ends_at, Fold, forget, last_entry, load, load_many, RecordEnd
from .games import check_pin, export_record, record, tournament_of_game
from .signoffs import SignOffs, sign_offs_of_many
from .standing import RoundSeating, TableSeating, corrections_key, seating, standing_correction
from .pins import matches, pin_hash
from .rulings import OpenCall, open_calls

DIRECTOR_TIME_CALL = {"type": "time_called", "note": "called by the tournament director"}  # the entry, on each table


@dataclass(frozen=True)
class TableView:
    """One table of a round as the director sees it."""

    number: int
    game_id: int
    players: tuple[tuple[str, int, bool], ...]  # name, cash, bankrupt: in seat order, or in finishing order once over
    pending: str
    turn: int
    over: bool
    clock: Clock
    seating: bool = False  # still in the seating roll-off
    time_called: bool = False
    currency: "Money | str" = "$"  # the ruleset's money (its symbol and where it goes)
    pin: str | None = None  # the table's own referee PIN (None: seated before tables had one)
    altered: Altered | None = None  # its stored record was altered: nothing more is recorded there
    corrected: str | None = None  # the reason of the director's correction in force of its result, if any
    # once over: place, name, the total assets that ranked them and the rule that did (corrections.BY), as the
    # result that stands (the correction in force, else the game's own) gives them
    ranked: tuple[tuple[int, str, int, str], ...] = ()
    division: str = ""  # the division whose table it is ("" without divisions)
    sign_offs: SignOffs | None = None  # once over: the players' sign-offs of its result

    @property
    def started(self) -> bool:
        """Play has begun: the seating roll-off is over and the clock has run (a table without a time limit
        needs no clock)."""
        if self.seating:
            return False
        return self.clock.limit_seconds is None or self.clock.running or self.clock.elapsed_seconds > 0

    def reading(self, clock: Clock) -> TableView:
        """The same table, its clock reading ``clock`` (a kept value's clock put in afresh at each poll: a copy of its
        fields, where :func:`dataclasses.replace` would check and set each one through ``__init__``), naming the kept
        value it reads (:attr:`kept`)."""
        table = object.__new__(TableView)
        table.__dict__.update(self.__dict__, clock=clock, kept=self.kept or self)
        return table

    @property
    def kept(self) -> TableView | None:
        """The kept value this one is a reading of (None: a value made for this answer alone): the same kept value
        shows the same table but for its clock, so what is drawn from it may be kept with it."""
        return self.__dict__.get("kept")

    @property
    def callable(self) -> bool:
        """Calling time on the round records 'time called' here (not before the seating roll-off is over, nor on
        an altered record)."""
        return not (self.over or self.time_called or self.seating or self.altered)


def create_tournament(name: str, scheme: str, ruleset_id: str, players: list[str], pin: str,
                      round_minutes: list[int] | None = None, options: dict | None = None,
                      format_id: str = rulesets.DEFAULT_FORMAT, alternates: list[str] | None = None,
                      check_in: bool = False) -> int:
    """A new tournament: its players (each checked in at once, or, with ``check_in``, only when the director
    says they are there), its ordered alternates, and its regulations over the ruleset (``options``: the format's
    and the director's, each a regulation a tournament sets, to a value it allows: :mod:`..tournament.regulations`)."""
    try:
        rulesets.load_scheme(scheme)
        ruleset = rulesets.load(ruleset_id)
        options = {**rulesets.load_format(format_id).options, **(options or {})}  # the director's come last
    except RulesetError as exc:
        raise BadTournament(str(exc)) from None
    options = regulations.check(ruleset, options)
    try:
        with_options(ruleset, options)
    except RulesetError as exc:
        raise BadTournament(str(exc)) from None
    try:
        entered = [formats.player_line(p) for p in players if p.strip()]
        reserve = [formats.player_line(p) for p in alternates or [] if p.strip()]
    except ValueError as exc:
        raise bad_player_line(exc) from None
    spelled: dict[str, str] = {}  # a division as first written: "junior" and "Junior" are one division
    entered = [(n, spelled.setdefault(d.casefold(), d), i) for n, d, i in entered]
    reserve = [(n, spelled.setdefault(d.casefold(), d), i) for n, d, i in reserve]
    names = [name for name, _, _ in entered]
    waiting = [name for name, _, _ in reserve]
    small = [d for d in dict.fromkeys(d for _, d, _ in entered) if sum(1 for _, e, _ in entered if e == d) < 2]
    if small and len(spelled) > 1:
        raise BadTournament.of("each division needs at least 2 players: {divisions} has fewer",
                               {"divisions": ", ".join(small)[:200]})
    if len(names) < 2:
        raise BadTournament.of("a tournament needs at least 2 players, got {names}", {"names": ", ".join(names) or "-"})
    everyone = names + waiting
    folded = [n.casefold() for n in everyone]  # "Ann" and "ann" are one player on a score sheet
    twice = sorted({n for n in everyone if folded.count(n.casefold()) > 1})
    if twice:
        raise BadTournament.of("each player is listed once: {names} listed more than once",
                               {"names": ", ".join(twice)[:200]})
    if len(everyone) > MAX_TOURNAMENT_PLAYERS:
        raise BadTournament.of("a tournament has at most {n} players", {"n": MAX_TOURNAMENT_PLAYERS})
    for text, maximum in [(name, MAX_TITLE)] + [(n, MAX_NAME) for n in everyone] + [
            (d, MAX_NAME) for _, d, _ in entered + reserve if d]:
        check_text(repr(text[:40]), text, maximum)
    fmt = rulesets.load_format(format_id)
    seeds = [s for s in fmt.stages if s.invited]
    least = formats.least_players(fmt)
    if len(names) < least:
        raise BadTournament.of("the format \"{format}\" needs at least {n} players (a stage takes the best {n}); "
                               "{count} are entered", {"format": Named.name_of(fmt), "n": least, "count": len(names)})
    if any(invited for _, _, invited in entered) and not seeds:
        raise BadTournament.of("the format \"{format}\" has no stage that takes invited players",
                               {"format": Named.name_of(fmt)})
    if any(not isinstance(m, int) or not 1 <= m <= 600 for m in round_minutes or []):
        raise BadTournament.of("round minutes must be whole numbers from 1 to 600, got {minutes}",
                               {"minutes": " ".join(map(str, round_minutes or []))[:80]})
    row = TournamentRow(name=name, scheme=scheme, format=format_id, ruleset=ruleset_id, options=options or {},
                        round_minutes=list(round_minutes or []), pin_hash=pin_hash(pin, BadTournament),
                        players=[TournamentPlayer(name=n, checked_in=not check_in, division=d,
                                                  invited_stage=seeds[0].id if invited else None)
                                 for n, d, invited in entered]
                        + [TournamentPlayer(name=n, alternate=k, division=d)
                           for k, (n, d, _) in enumerate(reserve, start=1)])
    db.session.add(row)
    db.session.commit()
    return row.id


def read_regulations(typed: dict[str, str]) -> dict:
    """The regulations as typed on the new-tournament form (option: text), as :func:`create_tournament` takes them
    (what is not a value a regulation takes is kept as typed, for its check to refuse naming the limit)."""
    return regulations.read(typed)


def regulations_in_force(row: TournamentRow) -> tuple[tuple[str, object], ...]:
    """The regulations every table of the tournament plays, (option, value) in the order the form lists them."""
    return regulations.in_force(row.options or {})


def entrants(row: TournamentRow) -> tuple[Entrant, ...]:
    """The tournament's roster as the tournament rules read it (its rows as values, in the order they were
    entered: read as plain rows, 512 players in a fraction of a millisecond, where the live pages read it every
    second; changes not yet written are written first, as any query of the session does)."""
    read = read_once("rosters")
    if row.id in read:
        return read[row.id]
    rows = tuple(map(tuple, read_rows(_roster_statement(), {"tournament": row.id})))
    read[row.id] = ROSTERS.get_or_make(rows, lambda: tuple(Entrant(*values) for values in rows))
    return read[row.id]




@kept_in(STATEMENTS)
def _roster_statement():
    return (select(*[getattr(TournamentPlayer, f) for f in FIELDS])
            .where(TournamentPlayer.tournament_id == bindparam("tournament")).order_by(TournamentPlayer.id))


def get_tournament(tournament_id: int) -> TournamentRow:
    """The tournament's row (its rounds, their tables and the tables' corrections loaded as asked; the live pages
    read them as values instead, :func:`referee.services.standing.seating`)."""
    row = db.session.get(TournamentRow, tournament_id)
    if row is None:
        raise GameNotFound.of("no tournament {tournament}", {"tournament": tournament_id})
    return row


def check_director_pin(tournament_id: int, pin: str) -> bool:
    return matches(director_pin_hash(tournament_id), pin)


def director_pin_hash(tournament_id: int | None) -> str | None:
    """The stored hash of the tournament's director's PIN (None: no such tournament)."""
    row = db.session.get(TournamentRow, tournament_id) if tournament_id is not None else None
    return row.pin_hash if row is not None else None


def set_director_pin(tournament_id: int, pin: str) -> None:
    """A new director's PIN (the recovery when the director's PIN is forgotten or was guessed at until refused):
    the old one opens nothing more (the devices it unlocked are locked), and wrong tries are counted afresh for the
    new one."""
    row = get_tournament(tournament_id)
    row.pin_hash = pin_hash(pin, BadTournament)
    grants.lock_directors(tournament_id)
    db.session.commit()


def list_tournaments(archived: bool | None = None) -> list[TournamentRow]:
    query = select(TournamentRow).order_by(TournamentRow.id.desc())
    if archived is not None:
        query = query.where(TournamentRow.archived == archived)
    return list(db.session.scalars(query))


def set_tournament_archived(tournament_id: int, archived: bool) -> None:
    row = get_tournament(tournament_id)
    row.archived = archived
    db.session.commit()


def delete_tournament(tournament_id: int) -> list[Path]:
    """Delete a tournament, its rounds and every game it seated, after writing each game's record to
    ``RECORDS_DIR``/deleted/; all of it or nothing."""
    row = get_tournament(tournament_id)
    records = archive.current()
    folder = records.deleted_folder()  # refused before anything is written when no records folder is kept
    game_ids = [t.game_id for r in row.rounds for t in r.tables]
    stamp = f"{utcnow():%Y%m%d-%H%M%S}"
    paths = [records.write(folder, f"tournament-{tournament_id}-game-{g}-{stamp}.jsonl", export_record(g))
             for g in game_ids]
    try:
        db.session.delete(row)
        db.session.flush()  # its rounds and tables first: they point at the games
        for game_id in game_ids:
            db.session.delete(db.session.get(GameRow, game_id))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    for game_id in game_ids:
        forget(game_id)
    return paths


def check_table_pin(game_id: int, pin: str, director: bool = True) -> bool:
    """The PIN opens this table: the game's own, or (``director``: while the director's PIN may be tried) the
    director's of the tournament that seated it."""
    if check_pin(game_id, pin):
        return True
    tournament = tournament_of_game(game_id)
    return director and tournament is not None and check_director_pin(tournament, pin)


def round_tables(rounds: tuple[RoundSeating, ...]) -> list[list[tuple[str, ...]]]:
    """Each round's tables, each the players of its game in their seats (every game's header in one query)."""
    ids = [t.game_id for r in rounds for t in r.tables]
    headers = {game_id: header for game_id, header in db.session.execute(
        select(GameRow.id, GameRow.header).where(GameRow.id.in_(ids)))} if ids else {}
    return [[parse_header(headers[t.game_id]).players for t in r.tables] for r in rounds]


def round_overview(tournament_id: int, number: int, describe=None, version: Version | None = None
                   ) -> list[TableView]:
    """Every table of a round; ``describe`` puts the pending decision in words (the web passes the screens' words;
    without it a table's ``pending`` is empty).  ``version``: the tournament's version a live page is drawn at (its
    tables' games as read, each with its sign-offs): a table whose game's end is kept at the point read is taken from
    it, its row not read again, and a table's value, but for its clock, is kept under all it is made from (its
    record's point, its seat, PIN, corrections, division and sign-offs, the language), so that a poll at 128 tables
    works out again only the tables that changed, and a finished round none."""
    row = get_tournament(tournament_id)
    rounds = seating(tournament_id)
    round_row = next((r for r in rounds if r.number == number), None)
    if round_row is None:
        raise GameNotFound.of("tournament {tournament} has no round {round}", {"tournament": tournament_id,
                                                                              "round": number})
    players = entrants(row)
    where = (database_key(), tournament_id, current_language() if describe else "", describe)
    # a round before the last is finished (the next is seated only once it is over): kept whole while its clocks
    # are stopped; the round in play changes at every poll, and is looked at table by table
    stopped = _stopped(where, round_row, version) if version is not None and round_row is not rounds[-1] else None
    if stopped is None:
        return _round_views(round_row, players, where, describe, version)
    # a finished round (the director's page lists each at every poll) is the same while its tables' points, seats,
    # PINs and corrections and the roster are: its values kept whole
    return list(ROUND_VIEWS.made_for(players, stopped, lambda: tuple(_round_views(round_row, players, where,
                                                                                  describe, version))))


def _stopped(where: tuple, round_row: RoundSeating, version: Version) -> tuple | None:
    """All a round's tables' values are made from, when no clock of the round runs (then nothing of them changes
    with the time: each table as the version read it, with its seat, PIN and corrections); None while one runs."""
    parts = []
    for t in round_row.tables:
        tail = version.tables.get(t.game_id)
        if tail is None or tail.clock_started_at is not None:
            return None
        parts.append((t.game_id, t.number, t.pin, corrections_key(t), tail))
    return (where, alterations_found(), round_row.number, tuple(parts))


def _round_views(round_row: RoundSeating, players: tuple[Entrant, ...], where: tuple, describe,
                 version: Version | None) -> list[TableView]:
    """The values of the round's tables (:func:`round_overview`), each kept but for its clock."""
    division = {e.name: e.division for e in players}
    games = live_games([t.game_id for t in round_row.tables], version)
    views: dict[int, TableView] = {}
    made: list[tuple[TableSeating, tuple]] = []
    for t in round_row.tables:
        if t.game_id not in games:  # not a game any more
            continue
        game = games[t.game_id]
        key = _view_key(where, t, game.end, division, game.signed)
        kept = TABLE_VIEWS.get(key) if version is not None else None
        if kept is not None:
            views[t.game_id] = kept.reading(clock(game.clocked))
        else:
            made.append((t, key))
    unfolded = [t.game_id for t, _ in made if games[t.game_id].fold is None]  # an end kept, not its fold
    loaded = {g.row.id: g for g in load_many(unfolded)} if unfolded else {}
    corrections = {t.game_id: standing_correction(t) for t, _ in made}
    over = [t.game_id for t, _ in made if games[t.game_id].end.over]
    signed = sign_offs_of_many(load_many(over), corrections) if over else {}
    for t, key in made:
        game = games[t.game_id]
        fold, clocked = game.fold, game.clocked
        if fold is None:
            if t.game_id not in loaded:
                continue
            fold, clocked = loaded[t.game_id].fold, loaded[t.game_id].row
            key = _view_key(where, t, RecordEnd.from_fold(fold), division, game.signed)  # as it is read now
        view = _table_view(t, fold, clock(clocked), corrections[t.game_id], division, describe, signed.get(t.game_id))
        if version is not None:
            view = TABLE_VIEWS.keep(key, view).reading(view.clock)  # its clock put in afresh at each poll
        views[t.game_id] = view
    return [views[t.game_id] for t in round_row.tables if t.game_id in views]


@dataclass(frozen=True)
class LiveGame:
    """A table's game as a live page reads it: its record's end, its fold (None: only its end is kept), what its
    clock is read from and its sign-offs as the version read them (how many, and the last one's number; None: read
    now)."""

    end: RecordEnd
    fold: Fold | None
    clocked: ClockValues
    signed: str | None


def live_games(game_ids: list[int], version: Version | None) -> dict[int, LiveGame]:
    """Each game as a live page reads it, by game: for a game the ``version`` read (a live page's), its end (and its
    fold, if kept) at the point read with the clock as read, nothing read again; for any other, its fold and row as
    read now (:func:`load_many`; games that are not there are left out)."""
    tails = version.tables if version is not None else {}
    read = read_once("live games").setdefault(version.token, {}) if version is not None else {}  # (the director's
    # page asks for each round's, then for every round's for the standings)
    asked = {g: tails[g] for g in game_ids if g in tails and g not in read}
    read.update((g, LiveGame(end, fold, asked[g], asked[g].signed)) for g, (end, fold) in ends_at(asked).items())
    found = {g: read[g] for g in game_ids if g in read}
    missing = [g for g in game_ids if g not in found]
    if missing:
        loaded = load_many(missing)
        # a game read now at the point the version read: its end kept there at once (read again otherwise, each
        # poll, where a round more than the folds kept lets its folds go before they are looked at again)
        again = ends_at({g: tails[g] for g in missing if g in tails})
        for game in loaded:
            g = game.row.id
            if g in again and again[g][1] is game.fold:
                found[g] = read[g] = LiveGame(again[g][0], game.fold, tails[g], tails[g].signed)
            else:
                found[g] = LiveGame(RecordEnd.from_fold(game.fold), game.fold, game.row, None)
    return found


def round_ends(round_row: RoundSeating, version: Version | None) -> dict[int, RecordEnd]:
    """Each game's end of the round's tables (:func:`live_games`), by game: at a live page's ``version``, kept for
    the round as a whole by the points the version read (a finished round's 128 ends, asked for at every poll to
    work out where the tournament stands, one look-up)."""
    ids = [t.game_id for t in round_row.tables]
    tails = version.tables if version is not None else {}
    points = tuple((g, tail.stored, tail.last, tail.created) for g in ids if (tail := tails.get(g)) is not None)
    key = (database_key(), alterations_found(), points)
    if len(points) == len(ids):
        found = ROUND_ENDS.get(key)
        if found is not None:
            return dict(found)  # (the kept one is shared)
    games = live_games(ids, version)
    ends = {g: game.end for g, game in games.items()}
    if len(points) == len(ids) and all(isinstance(game.clocked, TableTail) for game in games.values()):
        ROUND_ENDS.keep(key, dict(ends))  # every end at the point the version read, none read afresh since
    return ends


def _view_key(where: tuple, t: TableSeating, end: RecordEnd, division: dict[str, str], signed: str | None) -> tuple:
    """All a table's value is made from but its clock: ``where`` (the database, the tournament, the language and the
    words of its decision), its seat, PIN and corrections, its record's point, its division and, once its game is
    over, its players' sign-offs (``signed``: how many and the last one's number, as the version read them; a
    sign-off changed in place, like an entry, is noticed when its game is read whole)."""
    return (where, t.game_id, t.number, t.pin, corrections_key(t), end.stored, end.head, end.altered, end.created,
            division.get(end.first, ""), signed if end.over else None)


def _table_view(t: TableSeating, fold: Fold, clocked: Clock, standing, division: dict[str, str], describe,
                signed: SignOffs | None) -> TableView:
    """The value of the table ``t`` whose game is ``fold``, its clock reading ``clocked``, ``standing`` the
    director's correction in force (if any), ``signed`` its players' sign-offs (once over)."""
    state = fold.game.state
    seats = [(p.name, p.cash, p.bankrupt) for p in state.players]
    result = standing.result if standing else _final_result(t.game_id, fold) if state.over else None
    ranked: tuple[tuple[int, str, int, str], ...] = ()
    if result:  # a finished table lists its players as they finished, or in the places the director gave
        place = {p["name"]: k for k, p in enumerate(result["ranking"])}
        seats.sort(key=lambda seat: place.get(seat[0], len(place)))
        ranked = ranked_places(result)
    return TableView(t.number, t.game_id, tuple(seats), describe(state) if describe else "", state.turn, state.over,
                     clocked, seating=isinstance(state.pending, SeatingRoll), time_called=bool(state.time_called),
                     currency=state.ruleset.money, pin=t.pin, altered=fold.altered,
                     corrected=standing.reason if standing else None,
                     division=division.get(state.players[0].name, ""), ranked=ranked, sign_offs=signed)


def _final_result(game_id: int, fold: Fold) -> dict:
    """The finished game's result (:func:`final_result`), worked out once for the record as it ends (the director's
    page lists every finished table of every round each second)."""
    key = (database_key(), game_id, fold.stored, fold.head, fold.altered)
    return GAME_RESULTS.get_or_make(key, lambda: final_result(fold.game.state))


class TableTail(NamedTuple):
    """A table's game as :func:`tournament_version` read it: its clock's values (as :func:`clocks.clock` reads a
    row), how many entries are stored, the hash of the last and when the game's row was made."""

    clock_started_at: datetime | None
    clock_elapsed_seconds: float
    time_limit_minutes: int | None
    stored: int
    last: str | None
    created: datetime
    signed: str  # its players' sign-offs: how many, and the last one's number ("0:0": none yet)


@dataclass(frozen=True)
class Version:
    """What :func:`tournament_version` read of a tournament: its token, and how many calls for a judge were open
    (the page asks for the calls' details only when some are: :func:`waiting_calls`); and each table's game as
    read (``tables``, by game: its clock, its record's end, its last sign-off; the live pages take the games' kept
    ends and folds at these points, nothing read again)."""

    token: str
    open_calls: int
    tables: Mapping[int, TableTail] = field(default_factory=dict, compare=False)


def tournament_version(tournament_id: int) -> Version:
    """A short token that changes whenever anything the director's page shows may have changed: a round
    seated, an entry recorded (or taken out of the log) on any table, a table's clock started or paused, a
    correction, a player's sign-off, a call for a judge made or answered, a ruling, a device unlocked or locked, a
    scheduled backup made or failed.  Four statements however many tables and entries there are (the tables, each
    table's last entry one step down the (game, seq) index: its number and hash, so an entry taken back and another
    recorded in its place is a change too; the counts; the live grants; the backups' row); the live page compares it
    with the token it was drawn with and is sent again only if it differs."""
    tables, counts = _version_statements()
    rows = read_rows(tables, {"tournament": tournament_id})
    counted = read_rows(counts, {"tournament": tournament_id})[0]
    tails = {r[3]: TableTail(r[4], r[5], r[6], r[7] or 0, r[8], r[9], r[10]) for r in rows}
    # the values as Python writes a tuple of them (each table's but when its game was made, which never changes): one
    # call in C where each value written in turn took three times as long at 128 tables
    text = str([tuple(r[:9]) for r in rows]) + str(tuple(counted))
    if counted.open_calls:  # while a table waits, its minutes waited change the page once a minute
        text += "|" + utcnow().strftime("%H:%M")
    text += "|" + grants.tournament_stamp(tournament_id)  # the devices unlocked at its tables
    text += "|" + backups.status_stamp()  # a scheduled backup made, or failed
    return Version(hashlib.blake2b(f"{tournament_id}:{text}".encode(), digest_size=8).hexdigest(),
                   counted.open_calls, tails)


def live_version(tournament_id: int) -> Version:
    """:func:`tournament_version` as the live pages' polls ask it: read once for every device that follows the
    tournament (the director's devices, the room displays), not once each (:mod:`referee.services.latest`)."""
    return latest("tournament", tournament_id, lambda: tournament_version(tournament_id))


def waiting_calls(tournament_id: int, version: Version) -> list[OpenCall]:
    """The tournament's tables waiting for a judge (:func:`referee.services.rulings.open_calls`), read only when
    the ``version`` the page is drawn at counted some open (a call opened since is a new version, and the page is
    drawn again at its next poll)."""
    return open_calls(tournament_id) if version.open_calls else []


@kept_in(STATEMENTS)
def _version_statements():
    """The statements of :func:`tournament_version` for the tournament ``tournament``, built once: each table with
    its clock and last entry; and in one row the counts (with the latest id) of the director's corrections, the
    players' sign-offs, the calls for a judge (and those open) and the rulings at its tables: the tournament's
    tables found once for all of them, each kind counted in one pass (on PostgreSQL 0.6 ms where nine subqueries,
    each finding the tables again, took 1.7)."""
    tournament = bindparam("tournament")
    seated = (select(TableRow.id, TableRow.game_id).join(RoundRow, RoundRow.id == TableRow.round_id)
              .where(RoundRow.tournament_id == tournament).cte("seated"))  # the tournament's tables, found once
    games = select(seated.c.game_id)

    def counted(name: str, column, *where, open_=None):
        """One row: how many, and the latest id, (and how many open) of the rows ``where`` says."""
        found = [func.count(column).label("n"), func.max(column).label("latest")]
        return select(*found, *([func.count(open_).label("open_calls")] if open_ is not None else [])).where(
            *where).subquery(name)

    # each table's sign-offs: how many and the last one's number, in one value (a sign-off added or taken out is
    # another), read along the (game, n) key
    signed = (select(cast(func.count(SignOffRow.id), String) + ":" + cast(func.coalesce(func.max(SignOffRow.n), 0),
                                                                             String))
              .where(SignOffRow.game_id == GameRow.id).correlate(GameRow).scalar_subquery())
    tables = (select(RoundRow.number, RoundRow.final, TableRow.number, TableRow.game_id, GameRow.clock_started_at,
                     GameRow.clock_elapsed_seconds, GameRow.time_limit_minutes, last_entry(EntryRow.seq),
                     last_entry(EntryRow.hash), GameRow.created_at, signed)
              .join(TableRow, TableRow.round_id == RoundRow.id)
              .join(GameRow, GameRow.id == TableRow.game_id)
              .where(RoundRow.tournament_id == tournament)
              .order_by(RoundRow.number, TableRow.number))
    corrected = ResultCorrection.table_id.in_(select(seated.c.id))
    parts = [counted("corrections", ResultCorrection.id, corrected),
             counted("sign_offs", SignOffRow.id, SignOffRow.game_id.in_(games)),
             counted("calls", JudgeCallRow.id, JudgeCallRow.game_id.in_(games), open_=JudgeCallRow.open_game_id),
             counted("rulings", RulingRow.id, RulingRow.game_id.in_(games))]
    joined = functools.reduce(lambda left, right: left.join(right, true()), parts)  # each part is one row
    counts = select(*(column for part in parts for column in part.c)).select_from(joined)
    return tables, counts


def call_time_on_round(tournament_id: int, number: int) -> int:
    """Record 'time called' on every table of the round still playing (not on a table still in its seating
    roll-off); how many tables it was recorded on."""
    called = 0
    for view in round_overview(tournament_id, number):
        if not view.callable:
            continue
        loaded = load(view.game_id)
        record(view.game_id, DIRECTOR_TIME_CALL, loaded.seq)
        called += 1
    return called
