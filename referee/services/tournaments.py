"""A tournament's rows: create it, read, list, archive and delete it, its PINs, each round's tables as the
director sees them, calling time on a round, and the token its live page compares."""
from __future__ import annotations

import functools
import hashlib
import secrets
from pathlib import Path

from sqlalchemy import String, bindparam, cast, func, select, true

from . import backups, rulesets
from ..store.db import db, read_once, read_plain, uncommitted
from ..cache import kept_in, ROSTERS, ROUND_VIEWS, STATEMENTS
from ..engine import MAX_NAME, MAX_TITLE, RulesetError, parse_header, with_options
from ..store.models import (
    EntryRow, GameRow, GrantRow, JudgeCallRow, ResultCorrection, RoundRow, RulingRow, SignOffRow, TableRow,
    TournamentPlayer, TournamentRow)
from ..tournament import formats, regulations
from ..tournament.regulations import REGULATIONS
from ..tournament.messages import BadTournament, Named, check_text
from ..tournament.roster import FIELDS, MAX_TOURNAMENT_PLAYERS, Entrant, bad_player_line
from . import archive, grants
from .clocks import utcnow
from .latest import latest
from ..language import current_language
from .errors import GameNotFound
from .folds import database_key, forget, last_entry, load
from .games import check_pin, export_record, record, tournament_of_game
from .standing import RoundSeating, seating
from .pins import matches, pin_hash
from .rulings import OpenCall, open_calls
from . import table_views
from .table_views import TableTail, TableView, Version  # (the values the web reads of a round's tables)

DIRECTOR_TIME_CALL = {"type": "time_called", "note": "called by the tournament director"}  # the entry, on each table


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
                        roster_stamp=roster_stamp(),
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
    entered), kept by the roster's stamp (:func:`roster_stamp`, written anew with every change of its rows): the
    live pages ask for it every second, and 512 players' rows read and compared took 0.9 ms.  Read with the stamp
    in one statement when not kept (a stamp read with the tournament's row a moment before another device's change
    is a stamp no longer written: nothing is kept under it after); changes not yet written are written first, as
    any query of the session does."""
    read = read_once("rosters")
    if row.id in read:
        return read[row.id]
    changed, database = uncommitted(), database_key()  # (a change this unit of work has made is not the stamp's)
    found = ROSTERS.get((database, row.id, row.roster_stamp)) if row.roster_stamp and not changed else None
    if found is None:
        rows = read_plain(_roster_statement(), {"tournament": row.id})
        found = tuple(Entrant(*values[1:]) for values in rows)
        if rows and rows[0][0] and not changed:
            ROSTERS.keep((database, row.id, rows[0][0]), found)
    read[row.id] = found
    return found


def roster_stamp() -> str:
    """A new stamp for a tournament's roster, written with each change of its players' rows."""
    return secrets.token_hex(8)


@kept_in(STATEMENTS)
def _roster_statement():
    """The roster's rows, each with the tournament's roster stamp, in the order entered."""
    return (select(TournamentRow.roster_stamp, *[getattr(TournamentPlayer, f) for f in FIELDS])
            .join(TournamentRow, TournamentRow.id == TournamentPlayer.tournament_id)
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
    finished = round_row is not rounds[-1]
    stopped = table_views.stopped(where, round_row, version) if version is not None and finished else None
    if stopped is None:
        return table_views.round_views(round_row, players, where, describe, version)
    # a finished round (the director's page lists each at every poll) is the same while its tables' points, seats,
    # PINs and corrections and the roster are: its values kept whole
    return list(ROUND_VIEWS.made_for(players, stopped, lambda: tuple(
        table_views.round_views(round_row, players, where, describe, version))))


def tournament_version(tournament_id: int) -> Version:
    """A short token that changes whenever anything the director's page shows may have changed: a round
    seated, an entry recorded (or taken out of the log) on any table, a table's clock started or paused, a
    correction, a player's sign-off, a call for a judge made or answered, a ruling, a device unlocked or locked, a
    scheduled backup made or failed.  Three statements however many tables, entries and devices there are (the
    tables, each table's last entry one step down the (game, seq) index: its number and hash, so an entry taken back
    and another recorded in its place is a change too; the counts, the live grants' among them; the backups' row);
    the live page compares it with the token it was drawn with and is sent again only if it differs."""
    tables, counts, waiting_at, unlocked_at = _version_statements()
    rows = read_plain(tables, {"tournament": tournament_id})
    counted = tuple(read_plain(counts, {"tournament": tournament_id, "at": grants.now()})[0])
    waiting, unlocked = counted[waiting_at], counted[unlocked_at:]
    tails = {r[3]: TableTail(r[4], r[5], r[6], r[7] or 0, r[8], r[9], r[10]) for r in rows}
    # the values as Python writes a tuple of them (each table's but when its game was made, which never changes): one
    # call in C where each value written in turn took three times as long at 128 tables
    text = str([tuple(r[:9]) for r in rows]) + str(counted)
    if waiting:  # while a table waits, its minutes waited change the page once a minute
        text += "|" + utcnow().strftime("%H:%M")
    text += "|" + backups.status_stamp()  # a scheduled backup made, or failed
    return Version(hashlib.blake2b(f"{tournament_id}:{text}".encode(), digest_size=8).hexdigest(),
                   waiting, tails, unlocked)


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
    players' sign-offs, the calls for a judge (and those open), the rulings at its tables, and the live grants of the
    tournament and its tables at ``at`` (the devices unlocked, last in the row: :func:`grants.live_count`, by which
    :func:`grants.devices_of_tournament` keeps them, where the page read their 260 rows every second): the
    tournament's tables found once for all of them, each kind counted in one pass (on PostgreSQL 0.6 ms where nine
    subqueries, each finding the tables again, took 1.7); and where in that row the count of open calls is, and the
    live grants' count."""
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
             counted("rulings", RulingRow.id, RulingRow.game_id.in_(games)),
             select(*grants.live_count()).where(*grants.live_grants(tournament)).subquery("grants")]  # the devices
    joined = functools.reduce(lambda left, right: left.join(right, true()), parts)  # each part is one row
    counts = select(*(column for part in parts for column in part.c)).select_from(joined)
    names = list(counts.selected_columns.keys())
    return tables, counts, names.index("open_calls"), len(names) - len(grants.live_count())


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
