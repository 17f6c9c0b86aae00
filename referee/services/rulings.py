"""The rulings log and the tables' calls for a judge.

A ruling on a disputed entry records who claimed what, the ruling, the clause it rests on, who decided (the table's
referee, a judge, or the head judge) and when.  Rulings are appended, never edited: each game's rulings form a
hash chain of their own (:func:`referee.engine.chain.ruling_link`), read and checked whenever they are listed, exported or
verified.  The engine knows nothing of them: a ruling is not a fact of play, a replay and the simulator are as
they were, and a ruling may still be recorded (on appeal) after the game has ended.

An appeal is a later ruling on the same entry by a higher decider (referee, then a judge, then the head judge); the
head judge's ruling is final (tournament practice), so nothing is recorded on that entry after it.

A table calls a judge naming the entry in dispute (the latest by default) and who calls (the table's referee, or a
player at the table): the call stays open (one per table at most) until a judge's or the head judge's ruling on that
game answers it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..engine import chain
from ..store.db import db
from ..engine import RecordError, RefereeError, text_problem
from ..store.models import GameRow, JudgeCallRow, RoundRow, RulingRow, TableRow
from . import archive
from .clocks import naive_utc, utcnow
from .folds import game_lock, load

DECIDERS = ("referee", "judge", "head_judge")  # in the order an appeal goes up
JUDGES = DECIDERS[1:]  # decided from the director's unlock
MAX_CLAIM = 500
MAX_RULING = 1000
MAX_RULINGS = 1000  # a game's rulings at most (a record file carries them all)
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S"

__all__ = ["DECIDERS", "JUDGES", "MAX_CLAIM", "MAX_RULING", "Call", "OpenCall", "Ruling", "RulingRefused",
           "Rulings", "call_judge", "checked_lines", "export_lines", "import_rulings", "open_call", "open_calls",
           "read", "record_ruling", "verify_all"]


class RulingRefused(RefereeError):
    """A ruling that cannot be recorded (the rule it breaks named); nothing was written."""

    code = "ruling_refused"


@dataclass(frozen=True)
class Ruling:
    n: int
    entry: int
    claim: str
    ruling: str
    clause: str  # a clause key of the game's ruleset, or ""
    decider: str  # one of DECIDERS
    at: datetime  # UTC, naive, to the second

    def fields(self) -> dict:
        """What the chain hashes and the record file carries."""
        return {"entry": self.entry, "claim": self.claim, "ruling": self.ruling, "clause": self.clause,
                "decider": self.decider, "at": self.at.strftime(TIME_FORMAT)}

    @property
    def final(self) -> bool:
        return self.decider == "head_judge"


@dataclass(frozen=True)
class Rulings:
    """A game's rulings as stored, the good ones in order, and the number of the first that is not the one written
    (None: every stored ruling is as written)."""

    items: tuple[Ruling, ...]
    altered_at: int | None = None

    def on(self, entry: int) -> list[Ruling]:
        return [r for r in self.items if r.entry == entry]


@dataclass(frozen=True)
class Call:
    """A table's open call for a judge: the entry in dispute, who called ("": the table's referee; else a player's
    name), when (UTC)."""

    entry: int
    caller: str
    called_at: datetime


@dataclass(frozen=True)
class OpenCall:
    """An open call for a judge on the director's page and the judges' screen."""

    game_id: int
    round: int
    table: int
    entry: int
    called_at: datetime
    caller: str = ""  # "": the table's referee; else the player at the table who called

    def minutes_waited(self, now: datetime) -> int:
        return max(0, int((now - self.called_at).total_seconds() // 60))



def appeal_refusal(earlier: list[Ruling], entry: int, decider: str) -> RulingRefused | None:
    """Why a ruling by ``decider`` on ``entry`` cannot follow the rulings already made on it (None: it can)."""
    if decider not in DECIDERS:
        return RulingRefused.of("a ruling is decided by the table's referee, a judge or the head judge")
    if earlier and earlier[-1].final:
        return RulingRefused.of("the head judge has ruled on entry {entry}: tournament practice: the head judge's "
                                "ruling is final", {"entry": entry})
    if earlier and DECIDERS.index(decider) <= DECIDERS.index(earlier[-1].decider):
        return RulingRefused.of("an appeal goes to a higher decider (the table's referee, then a judge, then the "
                                "head judge): entry {entry} was last ruled on at that level or above",
                                {"entry": entry})
    return None


def _checked(clauses, total: int, rulings: Rulings, entry: int, claim: str, ruling: str,
             clause: str, decider: str) -> None:
    """Refuse (:class:`RulingRefused`, naming the rule or limit) a ruling that cannot be recorded."""
    if rulings.altered_at is not None:
        raise RulingRefused.of("the rulings of this game were altered at ruling {n}: nothing more is recorded in them",
                               {"n": rulings.altered_at})
    if len(rulings.items) >= MAX_RULINGS:
        raise RulingRefused.of("a game keeps at most {maximum} rulings", {"maximum": MAX_RULINGS})
    if not 1 <= entry <= total:
        raise RulingRefused.of("a ruling is on an entry of the game: from 1 to {total}", {"total": total})
    if not claim.strip():
        raise RulingRefused.of("the claim is empty: a ruling says who claimed what and what was decided")
    if not ruling.strip():
        raise RulingRefused.of("the ruling is empty: a ruling says who claimed what and what was decided")
    if len(claim) > MAX_CLAIM:
        raise RulingRefused.of("the claim is longer than {maximum} characters", {"maximum": MAX_CLAIM})
    if len(ruling) > MAX_RULING:
        raise RulingRefused.of("the ruling is longer than {maximum} characters", {"maximum": MAX_RULING})
    for value in (claim, ruling, clause):
        problem = text_problem(repr(value[:40]), value, MAX_RULING)  # a control character, half a surrogate pair
        if problem is not None:
            raise RulingRefused(pattern=problem.pattern, params=problem.params)
    if clause and clause not in clauses:
        raise RulingRefused.of("the clause is not one of this game's ruleset")
    refusal = appeal_refusal(rulings.on(entry), entry, decider)
    if refusal is not None:
        raise refusal


def read(game_id: int) -> Rulings:
    """The game's rulings, their chain checked."""
    rows = db.session.scalars(select(RulingRow).where(RulingRow.game_id == game_id).order_by(RulingRow.n)).all()
    good: list[Ruling] = []
    head = chain.rulings_genesis(game_id)
    for row in rows:
        ruling = Ruling(row.n, row.entry, row.claim, row.ruling, row.clause, row.decider, _second(row.recorded_at))
        if row.n != len(good) + 1 or row.hash != chain.ruling_link(head, row.n, ruling.fields()):
            return Rulings(tuple(good), len(good) + 1)
        good.append(ruling)
        head = row.hash
    return Rulings(tuple(good))


def _second(moment: datetime) -> datetime:
    """A stored moment as naive UTC to the second (SQLite gives it back naive, PostgreSQL with its zone)."""
    return naive_utc(moment).replace(microsecond=0)


def _head(game_id: int, rulings: Rulings) -> str:
    if not rulings.items:
        return chain.rulings_genesis(game_id)
    return db.session.execute(select(RulingRow.hash).where(RulingRow.game_id == game_id,
                                                           RulingRow.n == len(rulings.items))).scalar_one()


def add_ruling(game_id: int, clauses, total: int, entry: int, claim: str, ruling: str, clause: str, decider: str
               ) -> tuple[Ruling, RulingRow]:
    """A ruling checked (on a record of ``total`` entries, its ruleset's ``clauses``) and its row added to the
    session, chained to the game's ruling before, not committed: :func:`record_ruling` commits it alone; a sync
    commits it with the entries it rules on (``services.sync.choose``).  :class:`RulingRefused` changes nothing."""
    rulings = read(game_id)
    claim, ruling = claim.strip(), ruling.strip()
    _checked(clauses, total, rulings, entry, claim, ruling, clause, decider)
    made = Ruling(len(rulings.items) + 1, entry, claim, ruling, clause, decider, utcnow().replace(microsecond=0))
    row = RulingRow(game_id=game_id, n=made.n, entry=entry, claim=claim, ruling=ruling, clause=clause,
                    decider=decider, recorded_at=made.at,
                    hash=chain.ruling_link(_head(game_id, rulings), made.n, made.fields()))
    db.session.add(row)
    return made, row


def record_ruling(game_id: int, entry: int, claim: str, ruling: str, clause: str, decider: str) -> Ruling:
    """Append a ruling (its row chained to the game's ruling before), or raise :class:`RulingRefused` and change
    nothing.  A judge's or the head judge's ruling answers the table's open call for a judge."""
    with game_lock(game_id):
        loaded = load(game_id)
        made, row = add_ruling(game_id, loaded.game.ruleset.clauses, loaded.seq, entry, claim, ruling, clause, decider)
        try:
            db.session.flush()
            if decider in JUDGES:
                call = db.session.scalar(select(JudgeCallRow).where(JudgeCallRow.open_game_id == game_id))
                if call is not None:
                    call.open_game_id, call.answered_at, call.ruling_id = None, made.at, row.id
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            raise RulingRefused.of("another device recorded a ruling in this game at the same moment: nothing was "
                                   "recorded; look again") from None
        if loaded.game.state.over:  # the finished game's copy in the records folder carries its rulings too
            archive.current().keep_finished_again(game_id)  # the records folder's copy carries it too
    return made


def call_judge(game_id: int, entry: int | None = None, caller: str = "") -> bool:
    """The table calls a judge on ``entry`` (None: the latest), ``caller`` calling (a player at the table; "": the
    table's referee): True when the call is new, False when one is already open (a second tap, another tablet:
    nothing new is recorded).  :class:`RulingRefused` for an entry the game has not, or a caller who is not at the
    table."""
    loaded = load(game_id)
    if loaded.seat is None:
        raise RulingRefused.of("a judge is called at a tournament's table: this game has no director")
    if open_call(game_id) is not None:
        return False
    if loaded.seq == 0:
        raise RulingRefused.of("a judge rules on a recorded entry: this table has recorded none yet")
    entry = loaded.seq if entry is None else entry
    if not 1 <= entry <= loaded.seq:
        raise RulingRefused.of("a judge is called on an entry of the game: from 1 to {total}", {"total": loaded.seq})
    if caller and caller not in [p.name for p in loaded.game.state.players]:
        raise RulingRefused.of("{caller} is not a player at this table: a judge is called by the table's referee or "
                               "one of its players", {"caller": caller[:60]})
    db.session.add(JudgeCallRow(game_id=game_id, open_game_id=game_id, entry=entry, caller=caller,
                                called_at=utcnow().replace(microsecond=0)))
    try:
        db.session.commit()
    except IntegrityError:  # another tap or tablet opened it at the same moment
        db.session.rollback()
        return False
    return True


def open_call(game_id: int) -> Call | None:
    """The table's open call for a judge (None: no call is open)."""
    row = db.session.execute(select(JudgeCallRow.entry, JudgeCallRow.caller, JudgeCallRow.called_at)
                             .where(JudgeCallRow.open_game_id == game_id)).first()
    return Call(row.entry, row.caller, _second(row.called_at)) if row is not None else None


def open_calls(tournament_id: int) -> list[OpenCall]:
    """The tournament's tables waiting for a judge, the longest waiting first."""
    rows = db.session.execute(
        select(JudgeCallRow.game_id, RoundRow.number, TableRow.number, JudgeCallRow.entry, JudgeCallRow.called_at,
               JudgeCallRow.caller)
        .join(TableRow, TableRow.game_id == JudgeCallRow.game_id).join(RoundRow, RoundRow.id == TableRow.round_id)
        .where(RoundRow.tournament_id == tournament_id, JudgeCallRow.open_game_id.is_not(None))
        .order_by(JudgeCallRow.called_at, JudgeCallRow.id)).all()
    return [OpenCall(g, r, t, e, _second(at), caller) for g, r, t, e, at, caller in rows]


# --- the record file ------------------------------------------------------------------------------------------


def export_lines(game_id: int) -> list[str]:
    """The record file's lines of the game's rulings (after its entries): ``{"ruling": {...}}``, one a line.  Of
    rulings altered at ruling N, those before N (the ones still as written)."""
    return [json.dumps({"ruling": {"n": r.n, **r.fields()}}, ensure_ascii=False) for r in read(game_id).items]


def _parsed(data: object, n: int) -> Ruling:
    """A ruling line's object as a ruling (``n``: its number in the file), or :class:`RulingRefused`."""
    keys = {"n", "entry", "claim", "ruling", "clause", "decider", "at"}
    if not isinstance(data, dict) or not keys >= set(data) or not keys - {"n", "clause"} <= set(data):
        raise RulingRefused.of("a ruling line holds entry, claim, ruling, clause, decider and at")
    entry, at = data["entry"], data["at"]
    texts = [data.get(k, "") for k in ("claim", "ruling", "clause", "decider")]
    if type(entry) is not int or not all(isinstance(t, str) for t in texts) or not isinstance(at, str):
        raise RulingRefused.of("a ruling line holds entry, claim, ruling, clause, decider and at")
    if data.get("n", n) != n:
        raise RulingRefused.of("rulings are numbered in order: this one is {n}", {"n": n})
    try:
        when = datetime.strptime(at, TIME_FORMAT)
    except ValueError:
        raise RulingRefused.of("a ruling's time is written 2026-12-04T10:30:00 (UTC)") from None
    return Ruling(n, entry, texts[0], texts[1], texts[2], texts[3], when)


def checked_lines(found: list[tuple[int, object]], clauses, total: int) -> list[Ruling]:
    """The rulings a record file carries (``found``: each ruling line's number and object), each checked as if
    recorded then (entry, texts, clause, the order of appeals) on a record of ``total`` entries; the first bad one
    refused as a :class:`RecordError` naming its line."""
    rulings = Rulings(())
    for number, data in found:
        try:
            made = _parsed(data, len(rulings.items) + 1)
            _checked(clauses, total, rulings, made.entry, made.claim, made.ruling, made.clause, made.decider)
        except RulingRefused as exc:
            raise RecordError(number, exc.message, code=exc.code, refusal=exc) from None
        rulings = Rulings(rulings.items + (made,))
    return list(rulings.items)


def import_rulings(game_id: int, found: list[tuple[int, object]], clauses, total: int) -> None:
    """Add the rulings a record file carries to a game being imported (in the session, not committed), checked
    (:func:`checked_lines`) and chained again in the new game."""
    head = chain.rulings_genesis(game_id)
    for made in checked_lines(found, clauses, total):
        head = chain.ruling_link(head, made.n, made.fields())
        db.session.add(RulingRow(game_id=game_id, n=made.n, entry=made.entry, claim=made.claim, ruling=made.ruling,
                                 clause=made.clause, decider=made.decider, recorded_at=made.at, hash=head))


def verify_all() -> list[tuple[GameRow, int]]:
    """Every game whose stored rulings are not those written, with the number of the first altered ruling."""
    ids = db.session.scalars(select(RulingRow.game_id).distinct().order_by(RulingRow.game_id)).all()
    broken = []
    for game_id in ids:
        altered = read(game_id).altered_at
        if altered is not None:
            broken.append((db.session.get_one(GameRow, game_id), altered))
    return broken
