"""The players' sign-offs of a finished game: at the end of the game each player, at the table with the referee's
tablet, confirms the final ranking, or refuses it with their reason.

A sign-off is appended and never edited (:class:`referee.store.models.SignOffRow`).  It names the record it was given on
(the hash of the record's last entry then, and how many entries it had), and its own hash chains it to the sign-off
before it (:func:`referee.engine.chain.sign_off_link`): what it says, for which record, by whom and when cannot be changed
unnoticed.  A record that moves on afterwards (a void taking back the last entries, then the game played to its end
again) leaves the sign-offs given for an earlier result: they are kept and shown as such, and the players sign off
the result that now stands.

The ranking signed.  At a tournament's table the director may correct the result after the game
(:mod:`referee.services.results`: rows of their own, the game's record unchanged), and withdraw a correction.  A
sign-off therefore also names the ranking it was given on: ``ranking``, the digest of the corrected result that
stood then (:func:`referee.engine.chain.ranking_digest`), or none when the game's own result stood.  The choice of a
digest over the correction's row id: the digest says what was signed (the same corrected result, given again by a
later correction, is the ranking signed), it means the same in a record file taken to another database, and it
needs no row to be read back.  The sign-off's hash covers it when it is set and leaves it out otherwise, so the
sign-offs given before sign-offs named a ranking (and every one on a game's own result) keep their hashes and
verify as they did.  A sign-off counts while it names the record's head and the ranking that stand now: a
correction after players signed leaves their sign-offs shown as given on the earlier ranking (kept, no longer
counted, as the sign-offs before a void) and offers the corrected ranking for signature again; withdrawing the
correction brings back the ranking they signed, and their sign-offs count again.  A screen drawn before the
ranking changed signs nothing (the form names the ranking it showed).  The record file carries ``ranking`` on
the sign-off lines that name one; a game brought in from a file has no correction, so sign-offs on one show there
as given on an earlier ranking.

Any finished game is signed off this way, not only a tournament's: the result sheet of a friendly game is
printed the same, and a signature the players gave on the tablet is worth as much there.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..engine import chain
from ..store.db import db
from ..engine import RecordError, RefereeError, text_problem
from ..store.models import EntryRow, GameRow, SignOffRow
from ..tournament.corrections import ranked_places
from . import archive
from .clocks import naive_utc, utcnow
from .folds import LoadedGame, game_lock, load, stored_header
from .standing import Correcting, standing_of_game

CONFIRMS, REFUSES = "confirms", "refuses"
VERDICTS = (CONFIRMS, REFUSES)
RECORD, RANKING = "record", "ranking"  # why a sign-off no longer counts: the record, or the ranking, changed since
MAX_REASON = 200  # characters of a refusal's reason: what a line of the printed result sheet holds


class SignOffRefused(RefereeError):
    """A sign-off that cannot be taken: the rule it breaks is named, and nothing is written."""

    code = "sign_off"


@dataclass(frozen=True)
class SignOff:
    """One stored sign-off: its number at the table, who, the verdict, the reason (a refusal's), when (UTC), the
    record it was given on (how many entries), the ranking (the digest of the director's corrected result, None:
    the game's own) and why it no longer counts (``since``: "" while the record and the ranking it was given on
    stand, :data:`RECORD` once the record moved on, :data:`RANKING` once the director's correction, or its
    withdrawal, changed the ranking)."""

    n: int
    player: str
    verdict: str
    reason: str
    at: datetime
    entries: int
    ranking: str | None = None
    since: str = ""

    @property
    def current(self) -> bool:
        return not self.since

    @property
    def refused(self) -> bool:
        return self.verdict == REFUSES


@dataclass(frozen=True)
class Corrected:
    """The director's corrected result standing at the table, as its players sign it: its digest, the reason
    given, and its ranking (place, name, total assets, the rule that ranked them: corrections.BY)."""

    digest: str
    reason: str
    ranking: tuple[tuple[int, str, int, str], ...]

    @classmethod
    def from_row(cls, correction: Correcting | None) -> "Corrected | None":
        if correction is None or correction.result is None:
            return None
        return cls(chain.ranking_digest(correction.result), correction.reason, ranked_places(correction.result))


@dataclass(frozen=True)
class SignOffs:
    """A game's sign-offs as the pages show them: the table's players in their seats, every sign-off as written
    (those before a break of their chain), whether the game is over (only then are sign-offs taken), how many
    entries the record has now, and the number of the first sign-off found altered (None: all as written)."""

    players: tuple[str, ...]
    rows: tuple[SignOff, ...]
    over: bool
    entries: int
    altered: int | None = None
    corrected: Corrected | None = None  # the director's correction standing: the ranking signed is its own
    max_reason = MAX_REASON  # the longest reason a refusal may give

    @property
    def ranking(self) -> str:
        """The ranking offered for signature, as the sign-off form names it: the standing correction's digest, or
        "" for the game's own result."""
        return self.corrected.digest if self.corrected is not None else ""

    def given_by(self, player: str) -> SignOff | None:
        """The player's sign-off of the result that stands, if they gave one."""
        return next((r for r in self.rows if r.current and r.player == player), None)

    @property
    def confirmed(self) -> int:
        """How many players have confirmed the result that stands."""
        return sum(1 for r in self.rows if r.current and not r.refused)

    @property
    def refusals(self) -> list[SignOff]:
        return [r for r in self.rows if r.current and r.refused]

    @property
    def waiting(self) -> list[str]:
        """The players who have not signed off the result that stands, in their seats."""
        return [p for p in self.players if self.given_by(p) is None]

    @property
    def earlier(self) -> list[SignOff]:
        """Sign-offs given on an earlier state of the record (before a void) or on an earlier ranking (before the
        director's correction, or on a correction since withdrawn or replaced): kept, no longer counted."""
        return [r for r in self.rows if not r.current]

    @property
    def to_sign_again(self) -> bool:
        """The director corrected the ranking after players had signed off the record as it stands: the corrected
        ranking is offered for signature again, and a player has still to sign it."""
        return self.corrected is not None and bool(self.waiting) and any(r.since == RANKING for r in self.rows)

    @property
    def open(self) -> bool:
        """Whether a sign-off may be taken now: the game is over, a player has still to sign and nothing is
        altered."""
        return self.over and self.altered is None and bool(self.waiting)


def _fields(row: SignOffRow) -> dict:
    """What a sign-off's hash covers (the ranking only when it names one: the hashes of those that do not are as
    they were before sign-offs named one)."""
    fields = {"head": row.head, "entries": row.entries, "player": row.player, "verdict": row.verdict,
              "reason": row.reason, "at": naive_utc(row.at).isoformat()}
    return fields if row.ranking is None else {**fields, "ranking": row.ranking}


def _stored(game_id: int) -> list[SignOffRow]:
    return list(db.session.scalars(select(SignOffRow).where(SignOffRow.game_id == game_id).order_by(SignOffRow.n)))


def _broken(game_id: int, header: dict, rows: list[SignOffRow]) -> int | None:
    """The number of the first of the game's stored sign-offs ``rows`` that is not as written (None: all are)."""
    counts = {r.entries for r in rows}
    heads = {seq: hash_ for seq, hash_ in db.session.execute(select(EntryRow.seq, EntryRow.hash).where(
        EntryRow.game_id == game_id, EntryRow.seq.in_(counts)))} if counts else {}
    start = chain.genesis(header) if rows else ""
    return chain.verify_sign_offs(start, [(r.n, _fields(r), r.hash) for r in rows], heads)


def _standing(loaded: LoadedGame) -> Corrected | None:
    """The director's correction standing at the game's table (a game no tournament seated has none)."""
    return Corrected.from_row(standing_of_game(loaded.row.id)) if loaded.seat is not None else None


def _read(loaded: LoadedGame) -> tuple[SignOffs, list[SignOffRow]]:
    """The game's sign-offs, their chain checked, and the rows as stored."""
    rows = _stored(loaded.row.id)
    return _checked(loaded, rows, _standing(loaded)), rows


def _since(row: SignOffRow, head: str | None, ranking: str | None) -> str:
    """Why the sign-off ``row`` no longer counts ("": it does) when the record's head is ``head`` (None: altered)
    and the ranking standing is ``ranking`` (None: the game's own)."""
    return RECORD if row.head != head else RANKING if row.ranking != ranking else ""


def _checked(loaded: LoadedGame, rows: list[SignOffRow], corrected: Corrected | None) -> SignOffs:
    """The game's sign-offs from its stored ``rows``, their chain checked (the game's header and entries read only
    when there are some), with the director's correction standing at its table (``corrected``)."""
    broken = _broken(loaded.row.id, stored_header(loaded.row.id), rows) if rows else None
    good = rows if broken is None else rows[:broken - 1]
    state = loaded.game.state
    now = loaded.fold.head if loaded.altered is None else None
    ranking = corrected.digest if corrected is not None else None
    shown = tuple(SignOff(r.n, r.player, r.verdict, r.reason, naive_utc(r.at), r.entries, r.ranking,
                          _since(r, now, ranking)) for r in good)
    return SignOffs(tuple(p.name for p in state.players), shown, state.over, loaded.seq, broken, corrected)


def sign_offs(loaded: LoadedGame) -> SignOffs:
    """The game's sign-offs (read afresh, their chain checked)."""
    return _read(loaded)[0]


def sign_offs_of_many(tables: list[LoadedGame], corrections: Mapping[int, Correcting | None]) -> dict[int, SignOffs]:
    """:func:`sign_offs` of several games, by game, with the correction standing at each game's table
    (``corrections``, by game, as the caller read them): their rows in one statement (the director's page lists
    every finished table of every round each second: a table without sign-offs costs nothing more)."""
    rows: dict[int, list[SignOffRow]] = {t.row.id: [] for t in tables}
    if rows:
        for r in db.session.scalars(select(SignOffRow).where(SignOffRow.game_id.in_(list(rows)))
                                    .order_by(SignOffRow.game_id, SignOffRow.n)):
            rows[r.game_id].append(r)
    return {t.row.id: _checked(t, rows[t.row.id], Corrected.from_row(corrections.get(t.row.id))) for t in tables}




def sign_off(game_id: int, player: str, verdict: str, reason: str, seen_entries: int, seen_count: int,
             seen_ranking: str = "") -> SignOff:
    """Record a player's sign-off of the finished game's result: ``verdict`` confirms it, or refuses it with the
    player's ``reason``.  ``seen_entries``, ``seen_count`` and ``seen_ranking``: how many entries and sign-offs the
    screen showed, and the ranking it offered (:attr:`SignOffs.ranking`; a screen drawn before the record, the
    sign-offs or the ranking changed signs nothing).  The sign-off names the ranking it is given on.
    :class:`SignOffRefused` naming the rule otherwise, nothing written."""
    with game_lock(game_id):
        loaded = load(game_id)
        if loaded.altered is not None:
            raise SignOffRefused.of("the record was altered at entry {n}: its result cannot be signed off",
                                    {"n": loaded.altered.at})
        if not loaded.game.state.over:
            raise SignOffRefused.of("the game is not over: the players sign off its final ranking once it has ended")
        if verdict not in VERDICTS:
            raise SignOffRefused.of("a player confirms the final ranking or refuses it: nothing else is signed")
        if player not in [p.name for p in loaded.game.state.players]:
            raise SignOffRefused.of("{player} is not a player at this table: only its players sign off its result",
                                    {"player": player})
        if seen_entries != loaded.seq:
            raise SignOffRefused.of("the record changed since this screen was drawn (it has {now} entries, the "
                                    "screen showed {seen}): nothing was signed; look at the final ranking again",
                                    {"now": loaded.seq, "seen": seen_entries})
        signed, rows = _read(loaded)
        if seen_ranking != signed.ranking:
            raise SignOffRefused.of("the director corrected the final ranking, or withdrew a correction, since this "
                                    "screen was drawn: nothing was signed; look at the final ranking again")
        if signed.altered is not None:
            raise SignOffRefused.of("the sign-offs of this game were altered at sign-off {n}: nothing more is "
                                    "signed at this table", {"n": signed.altered})
        given = signed.given_by(player)
        if given is not None:
            raise _signed_once(player, given.verdict)
        if seen_count != len(rows):
            raise SignOffRefused.of("another sign-off was recorded since this screen was drawn: nothing was "
                                    "signed; look at the final ranking again")
        reason = _reason(verdict, reason)
        at = utcnow().replace(microsecond=0)
        row = SignOffRow(game_id=game_id, n=len(rows) + 1, head=loaded.fold.head, entries=loaded.seq,
                         player=player, verdict=verdict, reason=reason, at=at, ranking=signed.ranking or None,
                         hash="")
        row.hash = chain.sign_off_link(rows[-1].hash if rows else chain.genesis(stored_header(loaded.row.id)), row.n,
                                       _fields(row))
        db.session.add(row)
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            raise SignOffRefused.of("another sign-off was recorded at the same moment: nothing was signed; look at "
                                    "the final ranking again") from None
        archive.current().keep_finished_again(game_id)  # the records folder's copy carries it too
        return SignOff(row.n, player, verdict, reason, at, row.entries, row.ranking)


def _signed_once(player: str, verdict: str) -> SignOffRefused:
    """A second sign-off of the result by ``player``, who gave ``verdict`` on it already."""
    if verdict == REFUSES:
        return SignOffRefused.of("{player} has already refused this result: a player signs off once, and a "
                                 "sign-off is never changed", {"player": player})
    return SignOffRefused.of("{player} has already confirmed this result: a player signs off once, and a sign-off "
                             "is never changed", {"player": player})


def _reason(verdict: str, reason: str) -> str:
    """A refusal's reason as it is kept (required, bounded, printable); a confirmation carries none."""
    reason = (reason or "").strip()
    if verdict == CONFIRMS:
        if reason:
            raise SignOffRefused.of("a confirmation carries no reason: only a refusal says why")
        return ""
    if not reason:
        raise SignOffRefused.of("a refusal needs the player's reason: say why the final ranking is not right")
    problem = text_problem("the reason", reason, MAX_REASON)
    if problem is not None and problem.code == "too_long":
        raise SignOffRefused.of("the reason is longer than {maximum} characters: it is printed on the result sheet",
                                {"maximum": MAX_REASON})
    if problem is not None:
        raise SignOffRefused.of("the reason contains a character that cannot be printed (U+{code})",
                                {"code": problem.params["code"]})
    return reason


# --- the record file ------------------------------------------------------------------------------------------

LINE_KEYS = ("n", "player", "verdict", "reason", "at", "entries", "head", "ranking", "hash")
OPTIONAL_KEYS = {"n", "reason", "ranking"}  # a line without "ranking" was given on the game's own result
DIGEST = re.compile(r"[0-9a-f]{64}")


def export_lines(loaded: LoadedGame) -> list[str]:
    """The record file's lines of the game's sign-offs (after its rulings): ``{"signoff": {...}}``, one a line, with
    the record's head each was given on (and the corrected ranking, for one that names it) and its own hash.  Of
    sign-offs altered at sign-off N, those before N."""
    rows = _stored(loaded.row.id)
    broken = _broken(loaded.row.id, stored_header(loaded.row.id), rows)
    good = rows if broken is None else rows[:broken - 1]
    return [json.dumps({"signoff": {"n": r.n, **_fields(r), "hash": r.hash}}, ensure_ascii=False) for r in good]


def _bad_line() -> SignOffRefused:
    return SignOffRefused.of("a sign-off line holds the player, the verdict, the reason, the time (UTC, "
                             "2026-12-04T10:30:00), the record's entries and head it was given on (and the corrected "
                             "ranking, if it names one), and its hash")


def _line(data: object, n: int) -> tuple[dict, str]:
    """A sign-off line's object as the fields its hash covers and the hash it carries (``n``: its number in the
    file), or :class:`SignOffRefused`."""
    if not isinstance(data, dict) or not set(LINE_KEYS) >= set(data) or not set(LINE_KEYS) - OPTIONAL_KEYS <= set(
            data):
        raise _bad_line()
    fields = {"head": data["head"], "entries": data["entries"], "player": data["player"],
              "verdict": data["verdict"], "reason": data.get("reason", ""), "at": data["at"]}
    if "ranking" in data:  # a digest (chain.ranking_digest), as a sign-off's row keeps it
        if not isinstance(data["ranking"], str) or not DIGEST.fullmatch(data["ranking"]):
            raise _bad_line()
        fields["ranking"] = data["ranking"]
    texts = [fields[k] for k in fields if k != "entries"] + [data["hash"]]
    if type(fields["entries"]) is not int or not all(isinstance(t, str) and len(t) <= 1000 for t in texts):
        raise _bad_line()  # (a text longer than any a sign-off holds is not named back in a message)
    try:
        at = datetime.strptime(fields["at"], "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        at = None
    if at is None or at.isoformat() != fields["at"]:
        raise _bad_line()
    if data.get("n", n) != n:
        raise SignOffRefused.of("sign-offs are numbered in order: this one is {n}", {"n": n})
    return fields, data["hash"]


def checked_lines(found: list[tuple[int, object]], header: dict, heads: list[str], players: list[str],
                  over_after: Callable[[int], bool]) -> list[tuple[dict, str]]:
    """The sign-offs a record file carries (``found``: each sign-off line's number and object) as their fields and
    hashes, each checked: its hash follows from the record's header and the sign-offs before it (a line changed
    by hand does not), it names a head the record's entries had (``heads[k - 1]``: the hash after entry k) at
    which the game was over (``over_after(k)``), and it is one a player could give then (a player of the game,
    confirming or refusing with a reason, once for that result).  The first bad one is refused as a
    :class:`RecordError` naming its line."""
    made: list[tuple[dict, str]] = []
    previous = chain.genesis(header)
    for number, data in found:
        n = len(made) + 1
        try:
            fields, stored = _line(data, n)
            if stored != chain.sign_off_link(previous, n, fields):
                raise SignOffRefused.of("sign-off {n} ({player}) is not the one signed: its hash does not follow "
                                        "from the record and the sign-offs before it",
                                        {"n": n, "player": fields["player"]})
            entries = fields["entries"]
            if not 1 <= entries <= len(heads) or heads[entries - 1] != fields["head"]:
                raise SignOffRefused.of("sign-off {n} names a record this file's entries never had", {"n": n})
            if fields["player"] not in players:
                raise SignOffRefused.of("{player} is not a player at this table: only its players sign off its "
                                        "result", {"player": fields["player"]})
            if fields["verdict"] not in VERDICTS:
                raise SignOffRefused.of("a player confirms the final ranking or refuses it: nothing else is signed")
            if _reason(fields["verdict"], fields["reason"]) != fields["reason"]:
                raise _bad_line()
            given = [f for f, _ in made if f["player"] == fields["player"] and f["head"] == fields["head"]
                     and f.get("ranking") == fields.get("ranking")]
            if given:
                raise _signed_once(fields["player"], given[0]["verdict"])
            if not over_after(entries):
                raise SignOffRefused.of("sign-off {n} was given after entry {entries}, before the game was over",
                                        {"n": n, "entries": entries})
        except SignOffRefused as exc:
            raise RecordError(number, exc.message, code=exc.code, refusal=exc) from None
        made.append((fields, stored))
        previous = stored
    return made


def import_sign_offs(game_id: int, found: list[tuple[int, object]], header: dict, heads: list[str],
                     players: list[str], over_after: Callable[[int], bool]) -> None:
    """Add the sign-offs a record file carries to a game being imported (in the session, not committed), checked
    (:func:`checked_lines`) and chained in the new game: its header and entries are the file's, so each sign-off's
    hash is the one the file carries."""
    for n, (fields, hash_) in enumerate(checked_lines(found, header, heads, players, over_after), start=1):
        db.session.add(SignOffRow(game_id=game_id, n=n, head=fields["head"], entries=fields["entries"],
                                  player=fields["player"], verdict=fields["verdict"], reason=fields["reason"],
                                  at=datetime.fromisoformat(fields["at"]), ranking=fields.get("ranking"),
                                  hash=hash_))


def verify_all() -> list[tuple[GameRow, int, str]]:
    """Every game whose stored sign-offs are not those signed: the game, the number of the first altered sign-off
    and the player it names as stored ("" for one missing)."""
    ids = db.session.scalars(select(SignOffRow.game_id).distinct().order_by(SignOffRow.game_id)).all()
    broken = []
    for game_id in ids:
        row = db.session.get_one(GameRow, game_id)
        rows = _stored(game_id)
        at = _broken(game_id, row.header, rows)
        if at is not None:
            broken.append((row, at, rows[at - 1].player if at <= len(rows) and rows[at - 1].n == at else ""))
    return broken
