"""A tournament's judges: the PINs the director hands them, the calls for a judge as a judge's phone lists them, and
the token that screen compares.

Two PINs, made by the director on the director's page when judges are given access: the **judges' PIN** (a floor
judge: rulings as a judge) and the **head judge's PIN** (rulings as a judge or as the head judge, whose ruling is
final: JMA competition rules 2006, 補足ルール「審判」: 審判の決定および指示には従わなくてはなりません).  Each opens every
table of the tournament for reading, for a ruling or an appeal and for answering a call, and nothing else
(:mod:`referee.web.access`).  They are kept readable, as a table's PIN is, so the director can tell them again; a new one
ends every unlock the old one gave.  Guessing them is throttled per tournament (``JUDGE_PIN_FAILURES``).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, func, select, true

from ..cache import kept_in, STATEMENTS
from ..store.db import db
from ..store.models import JudgeCallRow, RoundRow, RulingRow, TableRow, TournamentRow
from . import grants
from .clocks import utcnow
from .errors import GameNotFound
from .folds import LoadedGame, load_many
from .rulings import OpenCall, open_calls

JUDGE, HEAD_JUDGE = grants.JUDGE, grants.HEAD_JUDGE
LEVELS = (JUDGE, HEAD_JUDGE)
JUDGE_PIN_DIGITS = 8  # a judges' PIN opens every table's rulings: two digits more than a table's own PIN
ANSWERED_SHOWN = 5  # the calls answered last that the judge's screen lists under the open ones


def _row(tournament_id: int) -> TournamentRow:
    row = db.session.get(TournamentRow, tournament_id)
    if row is None:
        raise GameNotFound.of("no tournament {tournament}", {"tournament": tournament_id})
    return row


def pins(tournament_id: int) -> dict[str, str | None]:
    """The tournament's judges' PIN and head judge's PIN (None: not made yet), by role."""
    row = _row(tournament_id)
    return {JUDGE: row.judge_pin, HEAD_JUDGE: row.head_judge_pin}


def make_pin(tournament_id: int, role: str) -> str:
    """A new judges' PIN (``role`` JUDGE) or head judge's PIN (HEAD_JUDGE), digits, never the other one's: every
    device the old one unlocked is locked, and wrong tries are counted afresh for the new one."""
    if role not in LEVELS:
        raise ValueError(f"no judge's role {role!r}")
    row = _row(tournament_id)
    other = row.head_judge_pin if role == JUDGE else row.judge_pin
    while (pin := f"{secrets.randbelow(10 ** JUDGE_PIN_DIGITS):0{JUDGE_PIN_DIGITS}d}") == other:
        pass
    if role == JUDGE:
        row.judge_pin = pin
    else:
        row.head_judge_pin = pin
    grants.lock_directors(tournament_id, role)
    db.session.commit()
    return pin


def role_of_pin(tournament_id: int, pin: str) -> str | None:
    """The judge's role the PIN opens at the tournament, or None (the two PINs always differ)."""
    typed = pin.strip().encode()[:100]
    return next((role for role, kept in pins(tournament_id).items()
                 if kept is not None and hmac.compare_digest(kept.encode(), typed)), None)  # in constant time


def pins_mark(tournament_id: int | None) -> str:
    """What changes with either of the tournament's judges' PINs (the count of wrong tries is kept per value)."""
    if tournament_id is None:
        return ""
    row = db.session.get(TournamentRow, tournament_id)
    if row is None:
        return ""
    return hashlib.sha256(f"{row.judge_pin}|{row.head_judge_pin}".encode()).hexdigest()


@dataclass(frozen=True)
class CallAt:
    """An open call for a judge with its table's game (its entry in dispute put in words by the screens)."""

    call: OpenCall
    loaded: LoadedGame


def calls_waiting(tournament_id: int) -> list[CallAt]:
    """The tournament's open calls for a judge, the longest waiting first, each with its table's game."""
    calls = open_calls(tournament_id)
    loaded = load_many([c.game_id for c in calls]) if calls else []
    return [CallAt(c, g) for c, g in zip(calls, loaded)]


@dataclass(frozen=True)
class Answered:
    """A call a ruling answered: its table, the entry, the ruling's number and decider, when."""

    game_id: int
    round: int
    table: int
    entry: int
    ruling: int | None  # the ruling's number in its game (None: its row is gone)
    decider: str
    answered_at: datetime


def answered(tournament_id: int, limit: int = ANSWERED_SHOWN) -> list[Answered]:
    """The tournament's calls answered last, the latest first."""
    rows = db.session.execute(
        select(JudgeCallRow.game_id, RoundRow.number, TableRow.number, JudgeCallRow.entry, RulingRow.n,
               RulingRow.decider, JudgeCallRow.answered_at)
        .join(TableRow, TableRow.game_id == JudgeCallRow.game_id).join(RoundRow, RoundRow.id == TableRow.round_id)
        .outerjoin(RulingRow, RulingRow.id == JudgeCallRow.ruling_id)
        .where(RoundRow.tournament_id == tournament_id, JudgeCallRow.answered_at.is_not(None))
        .order_by(JudgeCallRow.answered_at.desc(), JudgeCallRow.id.desc()).limit(limit)).all()
    return [Answered(g, r, t, e, n, d or "", at) for g, r, t, e, n, d, at in rows
            if at is not None]  # (the query reads the calls answered only)


@dataclass(frozen=True)
class SeatedTable:
    """A table of the tournament's latest round, as the judge's screen lists it."""

    round: int
    number: int
    game_id: int


def latest_tables(tournament_id: int) -> list[SeatedTable]:
    """The tables of the tournament's latest round, in their numbers' order."""
    latest = select(func.max(RoundRow.number)).where(RoundRow.tournament_id == tournament_id).scalar_subquery()
    rows = db.session.execute(
        select(RoundRow.number, TableRow.number, TableRow.game_id).join(TableRow, TableRow.round_id == RoundRow.id)
        .where(RoundRow.tournament_id == tournament_id, RoundRow.number == latest).order_by(TableRow.number)).all()
    return [SeatedTable(*r) for r in rows]


@kept_in(STATEMENTS)
def _version_statement():
    """The counts of :func:`version` for the tournament ``tournament``: one statement, built once."""
    tournament = bindparam("tournament")
    games = (select(TableRow.game_id).join(RoundRow, RoundRow.id == TableRow.round_id)
             .where(RoundRow.tournament_id == tournament))
    calls = select(func.count(JudgeCallRow.id).label("calls"), func.max(JudgeCallRow.id).label("latest_call"),
                   func.count(JudgeCallRow.open_game_id).label("open")).where(
        JudgeCallRow.game_id.in_(games)).subquery()
    rulings = select(func.count(RulingRow.id).label("rulings"), func.max(RulingRow.id).label("latest_ruling")).where(
        RulingRow.game_id.in_(games)).subquery()
    rounds = select(func.count(RoundRow.id)).where(RoundRow.tournament_id == tournament).scalar_subquery()
    return select(rounds, *calls.c, *rulings.c).select_from(calls.join(rulings, true()))


def version(tournament_id: int) -> str:
    """What changes whenever the judge's screen may show something else: a round seated, a call made or answered,
    a ruling recorded, and while a call is open each minute it has waited.  Entries of play change nothing here
    (the judge's phone is sent nothing while the tables play on)."""
    rounds, calls, latest_call, open_, rulings, latest_ruling = db.session.execute(
        _version_statement(), {"tournament": tournament_id}).one()
    text = f"{tournament_id}:{rounds}:{calls}:{latest_call}:{open_}:{rulings}:{latest_ruling}"
    if open_:
        text += ":" + utcnow().strftime("%H:%M")
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
