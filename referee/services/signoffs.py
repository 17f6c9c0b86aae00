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

import hashlib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from .. import chain
from ..db import db
from ..engine import RefereeError, text_problem
from ..models import EntryRow, SignOffRow
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


def _read(table: Table) -> tuple[SignOffs, list[SignOffRow]]:
    """The game's sign-offs, their chain checked, and the rows as stored."""
    rows = _stored(table.row.id)
    counts = {r.entries for r in rows}
    heads = {seq: hash_ for seq, hash_ in db.session.execute(select(EntryRow.seq, EntryRow.hash).where(
        EntryRow.game_id == table.row.id, EntryRow.seq.in_(counts)))} if counts else {}
    start = chain.genesis(table.row.header) if rows else ""
    broken = chain.verify_sign_offs(start, [(r.n, _fields(r), r.hash) for r in rows], heads)
    good = rows if broken is None else rows[:broken - 1]
    state = table.game.state
    now = table.fold.head if table.altered is None else None
    shown = tuple(SignOff(r.n, r.player, r.verdict, r.reason, naive_utc(r.at), r.entries, r.head == now)
                  for r in good)
    return SignOffs(tuple(p.name for p in state.players), shown, state.over, table.seq, broken), rows


def sign_offs(table: Table) -> SignOffs:
    """The game's sign-offs (read afresh, their chain checked)."""
    return _read(table)[0]


def version(table: Table) -> str:
    """:func:`referee.services.folds.version`, changing also with each sign-off of a finished game (the other
    tablets' game-over card follows)."""
    base = record_version(table)
    if not table.game.state.over:
        return base
    count = db.session.execute(select(func.count(SignOffRow.id)).where(SignOffRow.game_id == table.row.id)).scalar()
    return hashlib.blake2b(f"{base}:{count}".encode(), digest_size=8).hexdigest()


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
            if given.refused:
                raise SignOffRefused.of("{player} has already refused this result: a player signs off once, and a "
                                        "sign-off is never changed", {"player": player})
            raise SignOffRefused.of("{player} has already confirmed this result: a player signs off once, and a "
                                    "sign-off is never changed", {"player": player})
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
        return SignOff(row.n, player, verdict, reason, at, row.entries, True)


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
