"""The players' sign-offs of a finished game: at the end of the game each player, at the table with the referee's
tablet, confirms the final ranking, or refuses it with their reason.

A sign-off is appended and never edited (:class:`referee.models.SignOffRow`).  It names the record it was given on
(the hash of the record's last entry then, and how many entries it had), and its own hash chains it to the sign-off
before it (:func:`referee.chain.sign_off_link`): what it says, for which record, by whom and when cannot be changed
unnoticed.  A record that moves on afterwards (a void taking back the last entries, then the game played to its end
again) leaves the sign-offs given for an earlier result: they are kept and shown as such, and the players sign off
the result that now stands.

Any finished game is signed off this way, not only a tournament's: the result sheet of a friendly game is
printed the same, and a signature the players gave on the tablet is worth as much there.
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError

from .. import chain
from ..db import db
from ..engine import RecordError, RefereeError, text_problem
from ..models import EntryRow, GameRow, JudgeCallRow, RulingRow, SignOffRow
from . import archive
from .clocks import naive_utc, utcnow
from .folds import Table, game_lock, load, version as record_version

CONFIRMS, REFUSES = "confirms", "refuses"
VERDICTS = (CONFIRMS, REFUSES)
MAX_REASON = 200  # characters of a refusal's reason: what a line of the printed result sheet holds


class SignOffRefused(RefereeError):
    """A sign-off that cannot be taken: the rule it breaks is named, and nothing is written."""

    code = "sign_off"


@dataclass(frozen=True)
class SignOff:
    """One stored sign-off: its number at the table, who, the verdict, the reason (a refusal's), when (UTC), the
    record it was given on (how many entries) and whether that record is still the game's (``current``)."""

    n: int
    player: str
    verdict: str
    reason: str
    at: datetime
    entries: int
    current: bool

    @property
    def refused(self) -> bool:
        return self.verdict == REFUSES


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
    max_reason = MAX_REASON  # the longest reason a refusal may give

    def given_by(self, player: str) -> SignOff | None:
        """The player's sign-off of the result that stands, if they gave one."""
        return next((r for r in self.rows if r.current and r.player == player), None)

    @property
    def confirmed(self) -> int:
        return sum(1 for r in self.rows if r.current and not r.refused)

    @property
    def signed(self) -> int:
        """How many players have signed off the result that stands (confirmed or refused)."""
        return sum(1 for r in self.rows if r.current)

    @property
    def refusals(self) -> list[SignOff]:
        return [r for r in self.rows if r.current and r.refused]

    @property
    def waiting(self) -> list[str]:
        """The players who have not signed off the result that stands, in their seats."""
        return [p for p in self.players if self.given_by(p) is None]

    @property
    def earlier(self) -> list[SignOff]:
        """Sign-offs given on an earlier state of the record (before a void): kept, no longer counted."""
        return [r for r in self.rows if not r.current]

    @property
    def open(self) -> bool:
        """Whether a sign-off may be taken now: the game is over, a player has still to sign and nothing is
        altered."""
        return self.over and self.altered is None and bool(self.waiting)


def _fields(row: SignOffRow) -> dict:
    """What a sign-off's hash covers."""
    return {"head": row.head, "entries": row.entries, "player": row.player, "verdict": row.verdict,
            "reason": row.reason, "at": naive_utc(row.at).isoformat()}


def _stored(game_id: int) -> list[SignOffRow]:
    return list(db.session.scalars(select(SignOffRow).where(SignOffRow.game_id == game_id).order_by(SignOffRow.n)))


def _broken(game_id: int, header: dict, rows: list[SignOffRow]) -> int | None:
    """The number of the first of the game's stored sign-offs ``rows`` that is not as written (None: all are)."""
    counts = {r.entries for r in rows}
    heads = {seq: hash_ for seq, hash_ in db.session.execute(select(EntryRow.seq, EntryRow.hash).where(
        EntryRow.game_id == game_id, EntryRow.seq.in_(counts)))} if counts else {}
    start = chain.genesis(header) if rows else ""
    return chain.verify_sign_offs(start, [(r.n, _fields(r), r.hash) for r in rows], heads)


def _read(table: Table) -> tuple[SignOffs, list[SignOffRow]]:
    """The game's sign-offs, their chain checked, and the rows as stored."""
    rows = _stored(table.row.id)
    return _checked(table, rows), rows


def _checked(table: Table, rows: list[SignOffRow]) -> SignOffs:
    """The game's sign-offs from its stored ``rows``, their chain checked (the game's header and entries read only
    when there are some)."""
    broken = _broken(table.row.id, table.row.header, rows) if rows else None
    good = rows if broken is None else rows[:broken - 1]
    state = table.game.state
    now = table.fold.head if table.altered is None else None
    shown = tuple(SignOff(r.n, r.player, r.verdict, r.reason, naive_utc(r.at), r.entries, r.head == now)
                  for r in good)
    return SignOffs(tuple(p.name for p in state.players), shown, state.over, table.seq, broken)


def sign_offs(table: Table) -> SignOffs:
    """The game's sign-offs (read afresh, their chain checked)."""
    return _read(table)[0]


def sign_offs_of_many(tables: list[Table]) -> dict[int, SignOffs]:
    """:func:`sign_offs` of several games, by game: their rows in one statement (the director's page lists every
    finished table of every round each second: a table without sign-offs costs nothing more)."""
    rows: dict[int, list[SignOffRow]] = {t.row.id: [] for t in tables}
    if rows:
        for r in db.session.scalars(select(SignOffRow).where(SignOffRow.game_id.in_(list(rows)))
                                    .order_by(SignOffRow.game_id, SignOffRow.n)):
            rows[r.game_id].append(r)
    return {t.row.id: _checked(t, rows[t.row.id]) for t in tables}


@functools.cache
def _stamp_statement():
    """The counts of :func:`stamp` for the game ``game``: one statement, built once."""
    game = bindparam("game")

    def count(column, *where) -> object:
        return select(func.count(column)).where(*where).scalar_subquery()

    return select(count(RulingRow.id, RulingRow.game_id == game), count(JudgeCallRow.id, JudgeCallRow.game_id == game),
                  count(JudgeCallRow.id, JudgeCallRow.open_game_id == game),
                  count(SignOffRow.id, SignOffRow.game_id == game))


@dataclass(frozen=True)
class Stamp:
    """What a table's live screens compare (:attr:`version`), with the counts it was made from that the screen
    shows: the rulings stored and whether a call for a judge is open (a screen reads those only when there are
    some)."""

    version: str
    rulings: int
    call_open: bool


def stamp(table: Table) -> Stamp:
    """:func:`referee.services.folds.version`, changing also with each call for a judge made or answered, each
    ruling and each sign-off (the other tablets at the table follow a judge call, the rulings' count and the
    game-over card), and while a call is open with each minute it has waited.  Every device at a table asks for
    it every second: one query, each count read through its table's game index."""
    counts = db.session.execute(_stamp_statement(), {"game": table.row.id}).one()
    minute = utcnow().strftime("%H:%M") if counts[2] else ""  # "waited 3 min" moves on
    text = f"{record_version(table)}:{':'.join(map(str, counts))}:{minute}"
    return Stamp(hashlib.blake2b(text.encode(), digest_size=8).hexdigest(), counts[0], bool(counts[2]))


def sign_off(game_id: int, player: str, verdict: str, reason: str, seen_entries: int, seen_count: int) -> SignOff:
    """Record a player's sign-off of the finished game's result: ``verdict`` confirms it, or refuses it with the
    player's ``reason``.  ``seen_entries`` and ``seen_count``: how many entries and sign-offs the screen showed
    (a screen drawn before the record or the sign-offs changed signs nothing).  :class:`SignOffRefused` naming the
    rule otherwise, nothing written."""
    with game_lock(game_id):
        table = load(game_id)
        if table.altered is not None:
            raise SignOffRefused.of("the record was altered at entry {n}: its result cannot be signed off",
                                    {"n": table.altered.at})
        if not table.game.state.over:
            raise SignOffRefused.of("the game is not over: the players sign off its final ranking once it has ended")
        if verdict not in VERDICTS:
            raise SignOffRefused.of("a player confirms the final ranking or refuses it: nothing else is signed")
        if player not in [p.name for p in table.game.state.players]:
            raise SignOffRefused.of("{player} is not a player at this table: only its players sign off its result",
                                    {"player": player})
        if seen_entries != table.seq:
            raise SignOffRefused.of("the record changed since this screen was drawn (it has {now} entries, the "
                                    "screen showed {seen}): nothing was signed; look at the final ranking again",
                                    {"now": table.seq, "seen": seen_entries})
        signed, rows = _read(table)
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
        row = SignOffRow(game_id=game_id, n=len(rows) + 1, head=table.fold.head, entries=table.seq,
                         player=player, verdict=verdict, reason=reason, at=at, hash="")
        row.hash = chain.sign_off_link(rows[-1].hash if rows else chain.genesis(table.row.header), row.n,
                                       _fields(row))
        db.session.add(row)
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            raise SignOffRefused.of("another sign-off was recorded at the same moment: nothing was signed; look at "
                                    "the final ranking again") from None
        archive.current().keep_finished_again(game_id)  # the records folder's copy carries it too
        return SignOff(row.n, player, verdict, reason, at, row.entries, True)


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

LINE_KEYS = ("n", "player", "verdict", "reason", "at", "entries", "head", "hash")


def export_lines(table: Table) -> list[str]:
    """The record file's lines of the game's sign-offs (after its rulings): ``{"signoff": {...}}``, one a line, with
    the record's head each was given on and its own hash.  Of sign-offs altered at sign-off N, those before N."""
    rows = _stored(table.row.id)
    broken = _broken(table.row.id, table.row.header, rows)
    good = rows if broken is None else rows[:broken - 1]
    return [json.dumps({"signoff": {"n": r.n, **_fields(r), "hash": r.hash}}, ensure_ascii=False) for r in good]


def _bad_line() -> SignOffRefused:
    return SignOffRefused.of("a sign-off line holds the player, the verdict, the reason, the time (UTC, "
                             "2026-12-04T10:30:00), the record's entries and head it was given on, and its hash")


def _line(data: object, n: int) -> tuple[dict, str]:
    """A sign-off line's object as the fields its hash covers and the hash it carries (``n``: its number in the
    file), or :class:`SignOffRefused`."""
    if not isinstance(data, dict) or not set(LINE_KEYS) >= set(data) or not set(LINE_KEYS) - {"n", "reason"} <= set(
            data):
        raise _bad_line()
    fields = {"head": data["head"], "entries": data["entries"], "player": data["player"],
              "verdict": data["verdict"], "reason": data.get("reason", ""), "at": data["at"]}
    texts = [fields[k] for k in ("head", "player", "verdict", "reason", "at")] + [data["hash"]]
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
            given = [f for f, _ in made if f["player"] == fields["player"] and f["head"] == fields["head"]]
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
                                  at=datetime.fromisoformat(fields["at"]), hash=hash_))


def verify_all() -> list[tuple[GameRow, int, str]]:
    """Every game whose stored sign-offs are not those signed: the game, the number of the first altered sign-off
    and the player it names as stored ("" for one missing)."""
    ids = db.session.scalars(select(SignOffRow.game_id).distinct().order_by(SignOffRow.game_id)).all()
    broken = []
    for game_id in ids:
        row = db.session.get(GameRow, game_id)
        rows = _stored(game_id)
        at = _broken(game_id, row.header, rows)
        if at is not None:
            broken.append((row, at, rows[at - 1].player if at <= len(rows) and rows[at - 1].n == at else ""))
    return broken
