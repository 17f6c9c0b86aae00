"""A tournament's tables as the live pages show them (the director's page, the room's display, the standings):
each table's value made from its game's fold, and kept, but for its clock, under all it is made from, so that a poll
at 128 tables works out again only the tables that changed, and a finished round none; and what the tournament's
version read of each table (:class:`TableTail`, :class:`Version`), from which a poll takes each game's end and fold
where they are kept at that point (:func:`referee.services.folds.ends_at`), nothing read again.  Made here, below
:mod:`referee.services.tournaments`, which reads the rows (the tournament, its seating, its roster, the version)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from ..cache import GAME_RESULTS, ROUND_ENDS, TABLE_VIEWS
from ..engine import Money, SeatingRoll
from ..store.db import read_once
from ..tournament.corrections import ranked_places
from ..tournament.results import final_result
from ..tournament.roster import Entrant
from .clocks import Clock, ClockValues, clock
from .folds import Altered, alterations_found, database_key, ends_at, Fold, load_many, RecordEnd
from .signoffs import SignOffs, sign_offs_of_many
from .standing import RoundSeating, TableSeating, corrections_key, standing_correction


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
    ends and folds at these points, nothing read again); and the live grants of the tournament and its tables as a
    whole (``unlocked``: :func:`referee.services.grants.live_count`, by which the devices unlocked are kept)."""

    token: str
    open_calls: int
    tables: Mapping[int, TableTail] = field(default_factory=dict, compare=False)
    unlocked: tuple = field(default=(), compare=False)


def stopped(where: tuple, round_row: RoundSeating, version: Version) -> tuple | None:
    """All a round's tables' values are made from, when no clock of the round runs (then nothing of them changes
    with the time: each table as the version read it, with its seat, PIN and corrections); None while one runs."""
    parts = []
    for t in round_row.tables:
        tail = version.tables.get(t.game_id)
        if tail is None or tail.clock_started_at is not None:
            return None
        parts.append((t.game_id, t.number, t.pin, corrections_key(t), tail))
    return (where, alterations_found(), round_row.number, tuple(parts))


def round_views(round_row: RoundSeating, players: tuple[Entrant, ...], where: tuple, describe,
                 version: Version | None) -> list[TableView]:
    """The values of the round's tables (:func:`referee.services.tournaments.round_overview`), each kept but for its
    clock."""
    division = {e.name: e.division for e in players}
    games = live_games([t.game_id for t in round_row.tables], version)
    views: dict[int, TableView] = {}
    made: list[tuple[TableSeating, tuple]] = []
    for t in round_row.tables:
        if t.game_id not in games:  # not a game any more
            continue
        if version is None:  # a value for this answer alone, nothing kept
            made.append((t, ()))
            continue
        game = games[t.game_id]
        key = _view_key(where, t, game.end, division, game.signed)
        kept = TABLE_VIEWS.get(key)
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
